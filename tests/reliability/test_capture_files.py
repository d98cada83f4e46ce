"""Capture files that lie: a file name in another encoding, an
.npz that unpacks to more than the limit or whose .npy header claims petabytes, safetensors
headers nested 100,000 deep or holding an integer of 5,000 digits. Each is the loader's own
one-line CaptureError naming the file, decided from headers before any data is read."""

from __future__ import annotations

import io
import json
import os
import struct
import tracemalloc
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.lib import format as npy
from safetensors.numpy import save_file

from app.model.capture import MAX_CAPTURE_BYTES, CaptureError, load_capture
from app.model.lesson.data import load_lesson_data
from app.model.scenario import dumps, loads
from app.model.view import initial_state

FUZZ = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
GBK_NAME = os.fsdecode("层零".encode("gbk") + b".npz")
"""A name as a zip made on Chinese Windows unpacks on Linux: its bytes are not UTF-8."""


def _refused(path: Path, words: str = "") -> str:
    with pytest.raises(CaptureError) as caught:
        load_capture(path)
    message = str(caught.value)
    assert message.startswith(f"{path.name}: "), message
    assert "\n" not in message and len(message) < 400, message
    assert words in message, message
    return message


def _npy(array: np.ndarray) -> bytes:
    out = io.BytesIO()
    np.save(out, array)
    return out.getvalue()


def _npy_claiming(header: dict, body: bytes = b"") -> bytes:
    out = io.BytesIO()
    npy.write_array_header_1_0(out, header)
    return out.getvalue() + body


def _npz(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, raw in members.items():
            archive.writestr(f"{name}.npy", raw)
    return path


def _safetensors(path: Path, header: str, data: bytes = b"") -> Path:
    raw = header.encode("utf-8")
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + data)
    return path


# ---- 1. a file name that is not UTF-8 --------------------------------------------------------

@pytest.mark.skipif(os.name == "nt", reason="Windows file names are UTF-16: no such bytes")
def test_a_capture_named_in_another_encoding_is_kept_in_the_autosave(tmp_path: Path) -> None:
    path = tmp_path / GBK_NAME
    np.savez(path, q=np.ones((2, 3)), k=np.ones((2, 3)))
    capture = load_capture(path)
    capture.source.encode("utf-8")  # the name the app shows and saves is text
    assert capture.source.endswith(".npz") and "\ufffd" in capture.source
    template = initial_state(load_lesson_data())
    from dataclasses import replace

    state = replace(template, imported=capture).with_world("imported", (1, 0))
    back = loads(dumps(state), template)  # every autosave writes exactly this
    assert back == state and back.imported.source == capture.source


# ---- 6. sizes checked against the limits before any data is read -----------------------------

@pytest.fixture(scope="module")
def bomb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """3 MB on disk; its q (1 head of 256, T = 4096, d = 160, float32: every dimension within
    the limits) unpacks to 640 MiB, more than MAX_CAPTURE_BYTES."""
    path = tmp_path_factory.mktemp("bomb") / "bomb.npz"
    shape = (1, 256, 4096, 160)
    size = int(np.prod(shape)) * 4
    assert size > MAX_CAPTURE_BYTES
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        with archive.open("q.npy", "w", force_zip64=True) as stream:
            npy.write_array_header_1_0(stream, {"descr": "<f4", "fortran_order": False,
                                                "shape": shape})
            chunk = bytes(1 << 22)
            for start in range(0, size, len(chunk)):
                stream.write(chunk[:size - start])
        archive.writestr("k.npy", _npy(np.zeros((4, 4), np.float32)))
    return path


def test_an_npz_that_unpacks_past_the_limit_is_refused_without_unpacking(bomb: Path) -> None:
    tracemalloc.start()
    try:
        message = _refused(bomb, "unpacks to 671,088,")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "512 MB" in message
    assert peak < 4 * 2**20, f"refusing it allocated {peak / 2**20:.1f} MiB"


@pytest.mark.parametrize(("shape", "words"), [
    ((2**48, 8), "T of q is 281474976710656"),  # 2 PiB of float64
    ((1, 256, 4096, 1024), "holds 800 bytes"),  # 8 GiB claimed, every dimension allowed
    ((4, 4), "holds 800 bytes"),  # a header that claims less than the member holds
])
def test_an_npy_header_claiming_more_than_it_holds_is_refused_from_the_header(
        tmp_path: Path, shape: tuple[int, ...], words: str) -> None:
    q = _npy_claiming({"descr": "<f8", "fortran_order": False, "shape": shape}, bytes(800))
    path = _npz(tmp_path / "claims.npz", {"q": q, "k": _npy(np.ones((2, 2)))})
    tracemalloc.start()
    try:
        _refused(path, words)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * 2**20


@pytest.mark.parametrize(("member", "words"), [
    (_npy_claiming({"descr": "<U100000", "fortran_order": False, "shape": (3,)}),
     "tokens: claims 3 names of up to 400000 bytes"),
    (_npy_claiming({"descr": "<U4", "fortran_order": False, "shape": (2, 3)}),
     "tokens: must be a 1-D array of strings"),
    (b"\x93NUMPY\x03\x00" + bytes(20), "format version 3.0"),
    (b"not an npy file at all", "tokens: has a damaged .npy header"),
])
def test_a_tokens_member_is_checked_from_its_header(tmp_path: Path, member: bytes,
                                                    words: str) -> None:
    path = _npz(tmp_path / "tokens.npz", {"q": _npy(np.ones((3, 2))), "k": _npy(np.ones((3, 2))),
                                         "tokens": member})
    _refused(path, words)


def test_an_npz_in_fortran_order_or_with_other_arrays_still_reads(tmp_path: Path) -> None:
    q = np.asfortranarray(np.arange(12, dtype=np.float32).reshape(3, 4))
    path = tmp_path / "fortran.npz"
    np.savez_compressed(path, q=q, k=q + 1, tokens=np.array(["a", "b", "c"]),
                        unused=np.zeros((5000, 5000), np.uint8))
    capture = load_capture(path)
    assert np.array_equal(capture.queries, q) and capture.key_names == ("a", "b", "c")


@pytest.mark.parametrize(("offset", "value"), [(8, 1), (10, 99)])
def test_an_encrypted_or_oddly_compressed_npz_is_one_line(tmp_path: Path, offset: int,
                                                          value: int) -> None:
    """The first member of the central directory marked encrypted (flag bit 0) or packed
    with a method zipfile does not know (99: AES)."""
    good = tmp_path / "good.npz"
    np.savez(good, q=np.ones((2, 2)), k=np.ones((2, 2)))
    raw = bytearray(good.read_bytes())
    raw[raw.index(b"PK\x01\x02") + offset] = value
    odd = tmp_path / "odd.npz"
    odd.write_bytes(bytes(raw))
    _refused(odd, "damaged .npz archive")


def test_a_safetensors_header_claiming_more_than_the_file_holds_is_refused(
        tmp_path: Path) -> None:
    header = json.dumps({"q": {"dtype": "F32", "shape": [2**40, 2**10],
                               "data_offsets": [0, 16]},
                         "k": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]}})
    _refused(_safetensors(tmp_path / "claims.safetensors", header, bytes(16)), "T of q is")
    header = json.dumps({"q": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 2**50]}})
    _refused(_safetensors(tmp_path / "offsets.safetensors", header, bytes(16)),
             "lie outside the file's 16 data bytes")


# ---- 7. every parse error is the loader's own line -------------------------------------------

NESTED = "[" * 100_000 + "]" * 100_000
HUGE = "9" * 5000


@pytest.mark.parametrize(("header", "words"), [
    (NESTED, "(header): is nested too deeply"),
    ('{"q": ' + "{\"a\": " * 50_000 + "1" + "}" * 50_001, "(header): is nested too deeply"),
    (json.dumps({"__metadata__": {"tokens": NESTED}}), "tokens: is nested too deeply"),
    ('{"q": {"dtype": "F32", "shape": [' + HUGE + '], "data_offsets": [0, 4]}}',
     "a number of 5000 digits"),
    ('{"q": {"dtype": "F32", "shape": [1], "data_offsets": [0, ' + HUGE + ']}}',
     "a number of 5000 digits"),
    (json.dumps({"__metadata__": {"tokens": "[" + HUGE + "]"},
                 "q": {"dtype": "F32", "shape": [1, 1], "data_offsets": [0, 4]},
                 "k": {"dtype": "F32", "shape": [1, 1], "data_offsets": [4, 8]}}),
     "tokens[0]: must be a string, found a number of 5000 digits"),
    ('{"q": {"dtype": ["F32"], "shape": [1], "data_offsets": [0, 4]}}', "has dtype a list"),
    ('{"q": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}', "(header): is not valid JSON"),
])
def test_a_hostile_safetensors_header_is_one_line_naming_the_file(tmp_path: Path, header: str,
                                                                  words: str) -> None:
    _refused(_safetensors(tmp_path / "hostile.safetensors", header, bytes(8)), words)


def test_a_hostile_header_is_one_line_on_the_command_line_too(tmp_path: Path, capsys) -> None:
    from app.main import main

    path = _safetensors(tmp_path / "deep.safetensors", NESTED)
    assert main(["--import", str(path), "--export-csv", str(tmp_path / "out.csv")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["attention-lab: error: deep.safetensors: (header): is nested too deeply to "
                   "be a safetensors header"]
    assert not (tmp_path / "out.csv").exists()


def _hostile(draw: st.DrawFn) -> str:
    """JSON text that is deep, huge or both: nesting up to 200,000 levels, integers of up to
    6,000 digits, inside lists or objects."""
    depth = draw(st.integers(1, 200_000))
    inner = draw(st.sampled_from(["1", "9" * draw(st.integers(300, 6000)), '"x"', "[]", "{}"]))
    if draw(st.booleans()):
        return "[" * depth + inner + "]" * depth
    return '{"a": ' * depth + inner + "}" * depth


@st.composite
def hostile_headers(draw: st.DrawFn) -> str:
    """A safetensors header with one hostile value in one place a loader reads."""
    value = _hostile(draw)
    entry = {"dtype": "F32", "shape": [1, 1], "data_offsets": [0, 4]}
    where = draw(st.sampled_from(["root", "entry", "dtype", "shape", "offsets", "tokens",
                                  "metadata"]))
    if where == "root":
        return value
    if where == "tokens":
        return json.dumps({"__metadata__": {"tokens": value}, "q": entry, "k": entry})
    if where == "metadata":
        return '{"__metadata__": ' + value + ', "q": ' + json.dumps(entry) + "}"
    if where == "entry":
        return '{"q": ' + value + ', "k": ' + json.dumps(entry) + "}"
    key = {"dtype": "dtype", "shape": "shape", "offsets": "data_offsets"}[where]
    fields = [f'"{k}": {value if k == key else json.dumps(v)}' for k, v in entry.items()]
    return '{"q": {' + ", ".join(fields) + '}, "k": ' + json.dumps(entry) + "}"


@FUZZ
@given(header=hostile_headers())
def test_any_deep_or_huge_safetensors_header_is_the_loaders_one_line(
        header: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = _safetensors(tmp_path_factory.mktemp("st") / "fuzz.safetensors", header, bytes(4))
    _refused(path)  # one q of 1×1 and no k: never a capture, always the loader's own line


NPY_DESCRS = ["<f4", "<f8", ">f2", "<i4", "|u1", "|b1", "<c8", "|O", "<U3", "|S5", "V8",
              [("a", "<f4")], "<M8[s]"]


@st.composite
def npy_members(draw: st.DrawFn) -> bytes:
    """A .npy member whose header claims any dtype, order and shape (up to petabytes), with
    a body of any length."""
    shape = tuple(draw(st.lists(st.one_of(st.integers(0, 8), st.integers(0, 2**62)),
                                max_size=5)))
    header = {"descr": draw(st.sampled_from(NPY_DESCRS)), "fortran_order": draw(st.booleans()),
              "shape": shape}
    body = bytes(draw(st.integers(0, 512)))
    return _npy_claiming(header, body)


@FUZZ
@given(q=npy_members(), tokens=st.none() | npy_members())
def test_any_claimed_npy_header_is_read_or_refused_in_one_line(
        q: bytes, tokens: bytes | None, tmp_path_factory: pytest.TempPathFactory) -> None:
    members = {"q": q, "k": _npy(np.ones((2, 2), np.float32))}
    if tokens is not None:
        members["tokens"] = tokens
    path = _npz(tmp_path_factory.mktemp("npz") / "fuzz.npz", members)
    tracemalloc.start()
    try:
        try:
            load_capture(path)
        except CaptureError as error:
            assert str(error).startswith("fuzz.npz: ") and "\n" not in str(error)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 2**20  # bodies are at most 512 bytes: nothing claimed is allocated


def test_a_capture_saved_by_safetensors_still_reads(tmp_path: Path) -> None:
    """The positive control: the checks above refuse lies, not files."""
    path = tmp_path / "good.safetensors"
    save_file({"q": np.ones((2, 3, 4), np.float32), "k": np.ones((1, 3, 4), np.float32)},
              str(path), metadata={"tokens": json.dumps(["我", "a\nb", "c"])})
    capture = load_capture(path, 1)
    assert capture.key_names == ("我", "a\nb", "c") and capture.heads == 2
