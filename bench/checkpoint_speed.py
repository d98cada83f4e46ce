"""Owns the rows of real-sized checkpoints, written by the benchmark into a temporary folder
and deleted after their rows: random weights in the shapes and on-disk dtypes of GPT-2 small
and of Qwen3-0.6B (vocabularies cut to keep the disk small), each with a byte-level BPE
tokenizer.json trained as tools/make_checkpoint_fixtures.py trains the fixtures'.

- GPT-2 small (float32): the whole `python -m app.main --model DIR --text … --layer 11
  --export-csv FILE` process, beside its reference when torch and transformers are importable
  here: a process that loads the same folder with `transformers.AutoModel` in float32 and
  runs its forward over the same tokens. Neither is ever a dependency of the app.
- Qwen3-0.6B (bfloat16): the overview of every layer × head for 32 tokens, timed from
  `HeadMaps.compute` (the state layer's worker the overview starts) to its `finished` signal,
  in a child process (`python -m bench.checkpoint_speed overview DIR TEXT`) whose peak RSS is
  compared with a child that only imports the same modules.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bench import Result

CHECKOUT = Path(__file__).resolve().parents[1]
CHILD_TIMEOUT_S = 600.0
MIB = 1024 * 1024

EXPORT_ROW = "model folder → CSV, whole process (app.main --export-csv)"
REFERENCE_ROW = "transformers AutoModel forward, whole process (the reference)"
OVERVIEW_ROW = "overview of every layer × head → all maps (HeadMaps worker)"
OVERVIEW_LIMIT_S = 5.0
"""The overview of a Qwen3-0.6B-sized model for 32 tokens, on the 2-core machine (absolute)."""
OVERVIEW_MEMORY_LIMIT = 1.5
"""Its peak memory above the imports, in units of the checkpoint's size on disk."""
EXPORT_LIMIT = 1.0
"""The app's --export-csv process against transformers' load-and-forward process."""
CORPUS = [
    "The cat sat on the mat and the dog sat on the log.",
    "Attention scores tell each query which keys to read.",
    "注意力打分实验台", "猫坐在垫子上，狗坐在木头上。", "注意力告诉每个查询该读哪些键。",
] * 20
PROSE = ("The cat sat on the mat and the dog sat on the log, while attention scores tell "
         "each query which keys to read and how much of each value to mix into its answer. ")


@dataclass(frozen=True)
class Shape:
    """A checkpoint's sizes; `layout` "gpt2" (float32) or "qwen3" (bfloat16)."""

    name: str
    layout: str
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    inner: int
    vocab: int
    positions: int = 1024


GPT2_SMALL = Shape("GPT-2 small", "gpt2", layers=12, hidden=768, heads=12, kv_heads=12,
                   head_dim=64, inner=3072, vocab=8192)
QWEN3_0_6B = Shape("Qwen3-0.6B", "qwen3", layers=28, hidden=1024, heads=16, kv_heads=8,
                   head_dim=128, inner=3072, vocab=16384)

Spec = tuple[str, tuple[int, ...], str]
"""A tensor to write: name, shape, and what fills it ("w" random, "one" norm, "zero" bias)."""


def _gpt2_specs(s: Shape) -> list[Spec]:
    specs: list[Spec] = [("transformer.wte.weight", (s.vocab, s.hidden), "w"),
                         ("transformer.wpe.weight", (s.positions, s.hidden), "w")]
    for i in range(s.layers):
        at = f"transformer.h.{i}"
        specs += [(f"{at}.ln_1.weight", (s.hidden,), "one"),
                  (f"{at}.ln_1.bias", (s.hidden,), "zero"),
                  (f"{at}.attn.c_attn.weight", (s.hidden, 3 * s.hidden), "w"),
                  (f"{at}.attn.c_attn.bias", (3 * s.hidden,), "zero"),
                  (f"{at}.attn.c_proj.weight", (s.hidden, s.hidden), "w"),
                  (f"{at}.attn.c_proj.bias", (s.hidden,), "zero"),
                  (f"{at}.ln_2.weight", (s.hidden,), "one"),
                  (f"{at}.ln_2.bias", (s.hidden,), "zero"),
                  (f"{at}.mlp.c_fc.weight", (s.hidden, s.inner), "w"),
                  (f"{at}.mlp.c_fc.bias", (s.inner,), "zero"),
                  (f"{at}.mlp.c_proj.weight", (s.inner, s.hidden), "w"),
                  (f"{at}.mlp.c_proj.bias", (s.hidden,), "zero")]
    return [*specs, ("transformer.ln_f.weight", (s.hidden,), "one"),
            ("transformer.ln_f.bias", (s.hidden,), "zero")]


def _qwen3_specs(s: Shape) -> list[Spec]:
    q, kv = s.heads * s.head_dim, s.kv_heads * s.head_dim
    specs: list[Spec] = [("model.embed_tokens.weight", (s.vocab, s.hidden), "w")]
    for i in range(s.layers):
        at = f"model.layers.{i}"
        specs += [(f"{at}.input_layernorm.weight", (s.hidden,), "one"),
                  (f"{at}.self_attn.q_proj.weight", (q, s.hidden), "w"),
                  (f"{at}.self_attn.k_proj.weight", (kv, s.hidden), "w"),
                  (f"{at}.self_attn.v_proj.weight", (kv, s.hidden), "w"),
                  (f"{at}.self_attn.o_proj.weight", (s.hidden, q), "w"),
                  (f"{at}.self_attn.q_norm.weight", (s.head_dim,), "one"),
                  (f"{at}.self_attn.k_norm.weight", (s.head_dim,), "one"),
                  (f"{at}.post_attention_layernorm.weight", (s.hidden,), "one"),
                  (f"{at}.mlp.gate_proj.weight", (s.inner, s.hidden), "w"),
                  (f"{at}.mlp.up_proj.weight", (s.inner, s.hidden), "w"),
                  (f"{at}.mlp.down_proj.weight", (s.hidden, s.inner), "w")]
    return [*specs, ("model.norm.weight", (s.hidden,), "one")]


def _config(s: Shape) -> dict[str, object]:
    if s.layout == "gpt2":
        return {"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2",
                "n_embd": s.hidden, "n_head": s.heads, "n_layer": s.layers, "n_inner": s.inner,
                "n_positions": s.positions, "n_ctx": s.positions, "vocab_size": s.vocab,
                "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5,
                "initializer_range": 0.02, "scale_attn_weights": True,
                "tie_word_embeddings": True, "bos_token_id": 0, "eos_token_id": 0,
                "dtype": "float32"}
    return {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3",
            "hidden_size": s.hidden, "num_attention_heads": s.heads,
            "num_key_value_heads": s.kv_heads, "head_dim": s.head_dim,
            "num_hidden_layers": s.layers, "intermediate_size": s.inner,
            "vocab_size": s.vocab, "max_position_embeddings": 40960, "rms_norm_eps": 1e-6,
            "rope_theta": 1000000.0, "hidden_act": "silu", "attention_bias": False,
            "tie_word_embeddings": True, "dtype": "bfloat16"}


def _bf16_bytes(a: np.ndarray) -> bytes:
    """float32 → bfloat16 bits, rounded to nearest even (as torch's cast rounds)."""
    bits = a.view(np.uint32)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16).tobytes()


def write_safetensors(path: Path, specs: Sequence[Spec], dtype: str, seed: int = 0) -> None:
    """The tensors one after another, each generated as it is written (so writing a 1 GB
    checkpoint never holds it in memory): matrices normal with σ 0.02, norms 1, biases 0."""
    itemsize = {"F32": 4, "BF16": 2}[dtype]
    header: dict[str, object] = {"__metadata__": {"format": "pt"}}
    offset = 0
    for name, shape, _ in specs:
        size = math.prod(shape) * itemsize
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset,
                                                                              offset + size]}
        offset += size
    raw = json.dumps(header, separators=(",", ":")).encode()
    raw += b" " * (-len(raw) % 8)
    rng = np.random.default_rng(seed)
    with path.open("wb") as out:
        out.write(struct.pack("<Q", len(raw)) + raw)
        for _name, shape, fill in specs:
            if fill == "w":
                a = rng.standard_normal(shape, dtype=np.float32)
                a *= np.float32(0.02)
            else:
                a = np.full(shape, 1.0 if fill == "one" else 0.0, dtype=np.float32)
            out.write(a.tobytes() if dtype == "F32" else _bf16_bytes(a))


def _tokenizer(vocab: int):  # -> tokenizers.Tokenizer (the app's own dependency)
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab, special_tokens=["<|endoftext|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    tok.train_from_iterator(CORPUS + [PROSE] * 20, trainer)
    return tok


def write_checkpoint(folder: Path, shape: Shape) -> int:
    """A checkpoint folder of `shape` (config.json, model.safetensors, tokenizer.json);
    returns its size on disk in bytes."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(_config(shape), indent=2), encoding="utf-8")
    if shape.layout == "gpt2":
        write_safetensors(folder / "model.safetensors", _gpt2_specs(shape), "F32")
    else:
        write_safetensors(folder / "model.safetensors", _qwen3_specs(shape), "BF16")
    _tokenizer(min(shape.vocab, 4096)).save(str(folder / "tokenizer.json"))
    return sum(f.stat().st_size for f in folder.iterdir())


def text_of(folder: Path, count: int) -> str:
    """The shortest start of the benchmark's prose that the folder's tokenizer reads as
    exactly `count` tokens."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    prose = PROSE * (count // 8 + 2)
    for end in range(1, len(prose) + 1):
        text = prose[:end]
        if not text.endswith(" ") and len(tok.encode(text).ids) == count:
            return text
    raise ValueError(f"no start of the prose makes {count} tokens")


# ---- the GPT-2 row: whole processes ----

REFERENCE_SCRIPT = """
import sys
import torch, transformers
from tokenizers import Tokenizer
folder, text = sys.argv[1], sys.argv[2]
ids = Tokenizer.from_file(folder + "/tokenizer.json").encode(text).ids
model = transformers.AutoModel.from_pretrained(folder, dtype=torch.float32)
with torch.no_grad():
    out = model(torch.tensor([ids]))
assert out.last_hidden_state.shape[1] == len(ids)
"""
"""transformers reading the folder and running its forward through every layer (the app's
layer 11 is the last): what a student would run instead of the app, start to finish."""


def reference_available() -> str | None:
    """Why the transformers reference cannot run in this environment, or None."""
    missing = [name for name in ("torch", "transformers") if importlib.util.find_spec(name) is None]
    return f"{' and '.join(missing)} not importable" if missing else None


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env.setdefault("TRANSFORMERS_VERBOSITY", "error")
    env.setdefault("HF_HUB_OFFLINE", "1")
    return env


def _timed(argv: Sequence[str]) -> float:
    """Milliseconds from spawning `argv` to its exit; raises when it fails."""
    started = time.perf_counter()
    child = subprocess.run(list(argv), cwd=CHECKOUT, env=_child_env(), capture_output=True,
                           text=True, timeout=CHILD_TIMEOUT_S)
    elapsed = (time.perf_counter() - started) * 1000.0
    if child.returncode != 0:
        raise RuntimeError(f"{argv[:3]} exited {child.returncode}: {child.stderr[-2000:]}")
    return elapsed


def export_vs_transformers(folder: Path, shape: Shape, runs: int, tokens: int = 32
                           ) -> list[Result]:
    """The app's `--export-csv` process against transformers', taking turns after one
    unrecorded run of each (bytecode caches, the folder in the page cache)."""
    text = text_of(folder, tokens)
    out_csv = folder.parent / "scores.csv"
    app = [sys.executable, "-m", "app.main", "--model", str(folder), "--text", text,
           "--layer", str(shape.layers - 1), "--export-csv", str(out_csv)]
    reference = [sys.executable, "-c", REFERENCE_SCRIPT, str(folder), text]
    missing = reference_available()
    calls: dict[str, Callable[[], float]] = {"app": lambda: _timed(app)}
    if missing is None:
        calls["reference"] = lambda: _timed(reference)
    samples: dict[str, list[float]] = {name: [] for name in calls}
    for round_number in range(runs + 1):
        for name, call in calls.items():
            elapsed = call()
            if round_number:
                samples[name].append(elapsed)
    size = f"{shape.name}, {shape.layers} layers, T={tokens}"
    row = Result("checkpoint", EXPORT_ROW, size, samples["app"],
                 {"disk_bytes": sum(f.stat().st_size for f in folder.iterdir())})
    if missing is not None:
        row.extra["reference_missing"] = missing
        return [row]
    ref = Result("checkpoint_reference", REFERENCE_ROW, size, samples["reference"])
    row.extra["ratio_to_reference"] = row.median_ms / ref.median_ms
    row.extra["reference_ms"] = ref.median_ms
    return [row, ref]


# ---- the Qwen3 row: the overview's worker in a child, time and peak memory ----

def _child(argv: list[str]) -> int:
    """`baseline`: the overview's imports and a QCoreApplication, then the peak RSS;
    `overview DIR TEXT`: also the overview's maps, timed from asking to finished."""
    import resource

    from PySide6.QtCore import QCoreApplication, QTimer

    from app.model.checkpoint import open_checkpoint
    from app.state.head_maps import HeadMaps

    app = QCoreApplication([])
    report: dict[str, object] = {}
    if argv[0] == "overview":
        checkpoint = open_checkpoint(argv[1])  # open before asking, as the window has it
        worker = HeadMaps()

        def finished(maps: list[np.ndarray]) -> None:
            report["seconds"] = time.perf_counter() - started
            report["maps"] = [list(m.shape) for m in maps]
            app.quit()

        def failed(problem: str) -> None:
            report["error"] = problem
            app.quit()

        worker.finished.connect(finished)
        worker.failed.connect(failed)
        QTimer.singleShot(int(CHILD_TIMEOUT_S * 1000), app.quit)
        started = time.perf_counter()
        worker.compute(checkpoint, argv[2])
        app.exec()
        worker.shutdown()
    report["ru_maxrss_bytes"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    report["maxrss_bytes"] = _own_peak_rss() or report["ru_maxrss_bytes"]
    print(json.dumps(report), flush=True)
    return 0


def _own_peak_rss() -> int | None:
    """This process's peak RSS since it started, in bytes (Linux's VmHWM), or None where
    /proc has no such line. Linux's ru_maxrss is the same high-water mark but starts from the
    parent's RSS at fork (kept across exec), and the benchmark's parent holds hundreds of MiB
    by then: ru_maxrss would hide the overview's memory under the parent's."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _run_child(*args: str, env: dict[str, str] | None = None) -> dict[str, object]:
    child = subprocess.run([sys.executable, "-m", "bench.checkpoint_speed", *args],
                           cwd=CHECKOUT, env={**_child_env(), **(env or {})},
                           capture_output=True, text=True, timeout=CHILD_TIMEOUT_S + 30)
    if child.returncode != 0:
        raise RuntimeError(f"checkpoint child {args[0]} exited {child.returncode}: "
                           f"{child.stderr[-2000:]}")
    report: dict[str, object] = json.loads(child.stdout.strip().splitlines()[-1])
    if "error" in report or (args[0] == "overview" and "seconds" not in report):
        raise RuntimeError(f"the overview did not finish: {report.get('error', 'timed out')}")
    return report


def overview_time_memory(folder: Path, shape: Shape, runs: int, tokens: int = 32
                         ) -> list[Result]:
    """The overview's worker in `runs` children (after one unrecorded), each followed by a
    baseline child; peak memory is the median overview child's peak RSS above the median
    baseline's. Each run also times one child with OpenBLAS on one thread, for the notes
    only: on a loaded 2-core machine its two threads wait for each other at every product."""
    text = text_of(folder, tokens)
    disk = sum(f.stat().st_size for f in folder.iterdir())
    _run_child("overview", str(folder), text)
    seconds: list[float] = []
    peaks: list[int] = []
    bases: list[int] = []
    one_thread: list[float] = []
    for _ in range(runs):
        report = _run_child("overview", str(folder), text)
        expected = [shape.heads, tokens, tokens]
        maps = report["maps"]
        if not isinstance(maps, list) or len(maps) != shape.layers or maps[0] != expected:
            raise RuntimeError(f"the overview gave maps {maps!r}")
        seconds.append(float(report["seconds"]))  # type: ignore[arg-type]
        peaks.append(int(report["maxrss_bytes"]))  # type: ignore[call-overload]
        bases.append(int(_run_child("baseline")["maxrss_bytes"]))  # type: ignore[call-overload]
        single = _run_child("overview", str(folder), text, env={"OPENBLAS_NUM_THREADS": "1"})
        one_thread.append(float(single["seconds"]) * 1000.0)  # type: ignore[arg-type]
    peak = statistics.median(peaks) - statistics.median(bases)
    return [Result("checkpoint", OVERVIEW_ROW,
                   f"{shape.name}, {shape.layers}×{shape.heads} heads, T={tokens}",
                   [s * 1000.0 for s in seconds],
                   {"peak_rss_above_imports_bytes": peak, "baseline_rss_bytes":
                    statistics.median(bases), "disk_bytes": disk,
                    "memory_ratio_to_disk": peak / disk,
                    "one_blas_thread_median_ms": statistics.median(one_thread)})]


def measure(runs: int) -> list[Result]:
    """Both checkpoints in turn, each written to a temporary folder and deleted after its
    rows."""
    results: list[Result] = []
    for shape, rows in ((GPT2_SMALL, export_vs_transformers),
                        (QWEN3_0_6B, overview_time_memory)):
        with tempfile.TemporaryDirectory(prefix="attention-lab-bench-checkpoint-") as tmp:
            folder = Path(tmp) / shape.name.replace(" ", "-").lower()
            started = time.perf_counter()
            size = write_checkpoint(folder, shape)
            print(f"bench: wrote {shape.name} ({size / MIB:.0f} MiB) in "
                  f"{time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
            results += rows(folder, shape, runs)
    return results


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1:]))
