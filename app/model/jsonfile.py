"""Owns reading one JSON data file and checking its values field by field, with JSON paths.

Every problem becomes a `DataError` naming the file, the field and what is wrong, because the
people who edit these files (teachers) need to be told exactly where to look.
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal, TypeVar, overload

import numpy as np
import numpy.typing as npt

from app.model.errors import DataError

__all__ = [
    "MAX_FILE_BYTES",
    "ROOT",
    "SCHEMA_VERSION",
    "FileRefused",
    "JsonFile",
    "NonFinite",
    "TooLong",
    "describe",
    "finite_number",
    "first_duplicate",
    "first_unsavable",
    "join",
    "parse_json",
    "read_small_file",
]

Array = TypeVar("Array", bound=np.ndarray)

SCHEMA_VERSION = 1
ROOT = "(file)"
MAX_FILE_BYTES = 5 * 1024 * 1024
"""A data file or scenario is a few KB; the limit keeps a wrong file (a video, a disk image,
/dev/zero) from being read whole into memory."""
MAX_DIGITS = 1000
"""An integer literal longer than this is refused by name: no limit of the app comes near it,
and Python itself refuses to convert one of over 4300 digits (with advice about sys)."""


class FileRefused(OSError):
    """A file the app will not read: missing, a folder, a pipe or device, too large, unreadable.

    An `OSError`, so callers that already handle I/O errors handle this too; `problem` is the
    short English reason ("is not a regular file …"), to be shown after the file's name.
    """

    def __init__(self, path: Path | str, problem: str) -> None:
        super().__init__(problem)
        self.path = Path(path)
        self.problem = problem

    def __str__(self) -> str:
        return self.problem

    def __reduce__(self) -> tuple[type, tuple[Path, str]]:
        return (type(self), (self.path, self.problem))


def _kind(mode: int) -> str | None:
    """Why a file of this mode is refused, or None for a regular file."""
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    if not stat.S_ISREG(mode):
        return "is not a regular file (it is a device, pipe or socket)"
    return None


def read_small_file(path: Path | str, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The whole content of a regular file of at most `max_bytes`, or `FileRefused`.

    Every file the app reads on a user's or teacher's behalf goes through here, so a FIFO
    cannot hang the app (it is refused before it is opened), `/dev/zero` or a huge file is
    never read whole, and each refusal says why in words ("file not found", "is not a
    regular file …", "is larger than 5 MB").
    """
    if str(path) in ("", "."):
        raise FileRefused(path, "the file name is empty")
    path = Path(path)
    too_large = f"is larger than {_size(max_bytes)}, so it is not a file this app reads"
    try:
        refused = _kind(os.stat(path).st_mode)  # before opening: opening a FIFO blocks
        if refused:
            raise FileRefused(path, refused)
        with path.open("rb") as stream:
            status = os.fstat(stream.fileno())  # the file opened, should the name have moved
            refused = _kind(status.st_mode) or (too_large if status.st_size > max_bytes else None)
            if refused:
                raise FileRefused(path, refused)
            raw = stream.read(max_bytes + 1)  # a file still growing stops here
    except FileRefused:
        raise
    except FileNotFoundError:
        raise FileRefused(path, "file not found") from None
    except IsADirectoryError:
        raise FileRefused(path, "is a folder, not a file") from None
    except PermissionError:
        raise FileRefused(path, "no permission to read this file") from None
    except OSError as error:
        raise FileRefused(path, f"cannot be read ({error.strerror or error})") from None
    if len(raw) > max_bytes:
        raise FileRefused(path, too_large)
    return raw


def _size(count: int) -> str:
    mib = 1024 * 1024
    return f"{count // mib} MB" if count % mib == 0 else f"{count:,} bytes"


class TooLong:
    """What an integer literal of more than MAX_DIGITS digits parses to, so the check can name
    its field instead of Python's "int max str digits" advice."""

    def __init__(self, literal: str) -> None:
        self.digits = len(literal.lstrip("-"))


def _parse_int(literal: str) -> int | TooLong:
    return TooLong(literal) if len(literal) > MAX_DIGITS else int(literal)


class NonFinite:
    """What NaN / Infinity / -Infinity parse to, so the check can report the field's path."""

    def __init__(self, literal: str) -> None:
        self.literal = literal


class _Object(dict[str, Any]):
    """A JSON object that remembers keys it saw twice (json keeps only the last silently)."""

    duplicates: tuple[str, ...] = ()


def _pairs(pairs: list[tuple[str, Any]]) -> _Object:
    obj = _Object(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        duplicates = []
        for k, _ in pairs:
            if k in seen:
                duplicates.append(k)
            seen.add(k)
        obj.duplicates = tuple(duplicates)
    return obj


def join(base: str, key: str | int) -> str:
    """JSON path of a child: `E` + 2 -> `E[2]`, `models` + `v2` -> `models.v2`."""
    if isinstance(key, int):
        return f"{base}[{key}]"
    return key if base in ("", ROOT) else f"{base}.{key}"


def describe(value: Any) -> str:
    """A parsed JSON value as a message names it: "null", "a list of 3", "the text 'abc'"."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, NonFinite):
        return value.literal
    if isinstance(value, TooLong):
        return f"a number of {value.digits} digits"
    if isinstance(value, np.generic):  # never "np.float64(0.5)" in a message
        value = value.item()
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, str):
        return f"the text {value[:40]!r}"
    return repr(value)


def parse_json(text: str, fail: Callable[[str, str], Exception], what: str) -> Any:
    """Parse a teacher's file: NaN / Infinity become `NonFinite`, a key given twice is kept
    on its object (`first_duplicate` finds it), and parser failures become `fail(where,
    problem)`, with `what` naming the kind of file ("lesson data", "a scenario")."""
    try:
        return json.loads(text, parse_constant=NonFinite, object_pairs_hook=_pairs,
                          parse_int=_parse_int)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        raise fail(where, f"is not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise fail(ROOT, f"is nested too deeply to be {what}") from None
    except ValueError as exc:  # e.g. an integer literal longer than Python will convert
        raise fail(ROOT, f"is not valid JSON ({exc})") from None


def _walk(node: Any, where: str = ROOT) -> Iterator[tuple[str, Any]]:
    """Every value of a parsed document with its path, parents before children."""
    yield where, node
    children = node.items() if isinstance(node, dict) else (
        enumerate(node) if isinstance(node, list) else ())
    for key, child in children:
        yield from _walk(child, join(where, key))


def first_duplicate(root: Any) -> tuple[str, str] | None:
    """(path, key) of the first key given twice in one object, parents searched first."""
    for where, node in _walk(root):
        dups = getattr(node, "duplicates", ())
        if dups:
            return join(where, dups[0]), dups[0]
    return None


def _unsavable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def first_unsavable(root: Any) -> tuple[str, str] | None:
    """(path, problem) of the first text (a value or a key) that UTF-8 cannot hold — a lone
    surrogate such as the JSON escape \\ud800 — or of the first over-long integer literal.

    What the app loads it must be able to save: such text would make every save fail.
    """
    for where, node in _walk(root):
        if isinstance(node, TooLong):
            return where, f"number is too long ({node.digits} digits)"
        texts = [node] if isinstance(node, str) else []
        if isinstance(node, dict):
            keys = [key for key in node if _unsavable(key)]
            if keys:
                return where, ("has a key with a lone surrogate escape (such as \\ud800), "
                               "which cannot be saved as UTF-8 text")
        if any(_unsavable(text) for text in texts):
            return where, ("text contains a lone surrogate escape (such as \\ud800), "
                           "which cannot be saved as UTF-8 text")
    return None


def finite_number(value: Any, where: str, fail: Callable[[str, str], Exception]) -> float:
    """A JSON number as a finite float (an integer too long for a float counts as too large);
    `fail(where, problem)` for anything else."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise fail(where, f"must be a number, found {describe(value)}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise fail(where, "number is too large to be finite")
    return number


def _scan(path: Path, root: Any) -> None:
    """Reject NaN/Infinity, overflowing numbers and duplicate keys anywhere in the file."""
    unsavable = first_unsavable(root)
    if unsavable is not None:
        raise DataError(path, *unsavable)
    for where, node in _walk(root):
        if isinstance(node, NonFinite):
            raise DataError(path, where, f"{node.literal} is not allowed; numbers must be finite")
        if isinstance(node, float) and not math.isfinite(node):
            raise DataError(path, where, "number is too large to be finite")
        dups = getattr(node, "duplicates", ())
        if dups:
            raise DataError(path, join(where, dups[0]), "key appears more than once")


class JsonFile:
    """One loaded data file plus typed accessors that raise DataError with the field's path."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.root = self._load()

    def fail(self, where: str, problem: str) -> DataError:
        return DataError(self.path, where, problem)

    def _load(self) -> dict[str, Any]:
        path = self.path
        try:
            raw = read_small_file(path)
        except FileRefused as refused:
            raise self.fail(ROOT, refused.problem) from None
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise self.fail(ROOT, f"is not UTF-8 text (bad byte at offset {exc.start})") from None
        root = parse_json(text, self.fail, "lesson data")
        _scan(path, root)
        if not isinstance(root, dict):
            raise self.fail(ROOT, f"must be a JSON object, found {describe(root)}")
        version = self.get(root, "", "schema_version")
        if type(version) is not int or version != SCHEMA_VERSION:
            found = describe(version)
            raise self.fail("schema_version", f"this app reads {SCHEMA_VERSION}, found {found}")
        self.text(root, "", "about")
        return root

    # ---- lookups -------------------------------------------------------------------------

    def get(self, obj: dict[str, Any], base: str, key: str, required: bool = True) -> Any:
        if key not in obj:
            if required:
                raise self.fail(join(base, key), "is required but missing")
            return None
        return obj[key]

    def obj(self, obj: dict[str, Any], base: str, key: str, required: bool = True) -> Any:
        value = self.get(obj, base, key, required)
        if value is None and not required:
            return None
        if not isinstance(value, dict):
            raise self.fail(join(base, key), f"must be an object, found {describe(value)}")
        return value

    def items(self, obj: dict[str, Any], base: str, key: str) -> list[Any]:
        value = self.get(obj, base, key)
        if not isinstance(value, list) or not value:
            raise self.fail(join(base, key), f"must be a non-empty list, found {describe(value)}")
        return value

    def text(self, obj: dict[str, Any], base: str, key: str, required: bool = True) -> Any:
        value = self.get(obj, base, key, required)
        if value is None and not required:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self.fail(join(base, key), f"must be non-empty text, found {describe(value)}")
        return value

    @overload
    def number(
        self, obj: dict[str, Any], base: str, key: str, required: Literal[True] = ...,
        positive: bool = ...,
    ) -> float: ...
    @overload
    def number(
        self, obj: dict[str, Any], base: str, key: str, required: bool,
        positive: bool = ...,
    ) -> float | None: ...

    def number(
        self, obj: dict[str, Any], base: str, key: str, required: bool = True,
        positive: bool = False,
    ) -> float | None:
        value = self.get(obj, base, key, required)
        if value is None and not required:
            return None
        return self.check_number(value, join(base, key), positive)

    def check_number(self, value: Any, where: str, positive: bool = False) -> float:
        number = finite_number(value, where, self.fail)
        if positive and not number > 0:
            raise self.fail(where, f"must be greater than 0, found {describe(value)}")
        return number

    @overload
    def integer(
        self, obj: dict[str, Any], base: str, key: str, required: Literal[True] = ...,
        minimum: int = ...,
    ) -> int: ...
    @overload
    def integer(
        self, obj: dict[str, Any], base: str, key: str, required: bool, minimum: int = ...,
    ) -> int | None: ...

    def integer(
        self, obj: dict[str, Any], base: str, key: str, required: bool = True, minimum: int = 1,
    ) -> int | None:
        value = self.get(obj, base, key, required)
        if value is None and not required:
            return None
        return self.check_integer(value, join(base, key), minimum)

    def check_integer(self, value: Any, where: str, minimum: int = 1) -> int:
        if type(value) is not int:
            raise self.fail(where, f"must be a whole number, found {describe(value)}")
        if value < minimum:
            raise self.fail(where, f"must be at least {minimum}, found {value}")
        return value

    def boolean(self, obj: dict[str, Any], base: str, key: str) -> bool | None:
        value = self.get(obj, base, key, required=False)
        if value is not None and not isinstance(value, bool):
            raise self.fail(join(base, key), f"must be true or false, found {describe(value)}")
        return value

    def matrix(
        self, obj: dict[str, Any], base: str, key: str, rows: int | None, cols: int | None,
    ) -> npt.NDArray[np.float64]:
        """A read-only float64 (rows, cols) matrix; None means "any size, at least 1"."""
        where = join(base, key)
        value = self.get(obj, base, key)
        if not isinstance(value, list) or not value:
            raise self.fail(where, f"must be a non-empty list of rows, found {describe(value)}")
        if rows is not None and len(value) != rows:
            raise self.fail(where, f"must have {rows} rows, found {len(value)}")
        width = cols if cols is not None else (len(value[0]) if isinstance(value[0], list) else 0)
        out = [self._row(row, join(where, i), width) for i, row in enumerate(value)]
        return self.freeze(np.array(out, dtype=np.float64))

    def vector(self, obj: dict[str, Any], base: str, key: str, length: int | None
               ) -> npt.NDArray[np.float64]:
        value = self.get(obj, base, key)
        where = join(base, key)
        size = length if length is not None else (len(value) if isinstance(value, list) else 0)
        return self.freeze(np.array(self._row(value, where, size), dtype=np.float64))

    def _row(self, row: Any, where: str, width: int) -> list[float]:
        if not isinstance(row, list):
            raise self.fail(where, f"must be a list of numbers, found {describe(row)}")
        if width < 1 or len(row) != width:
            raise self.fail(where, f"must have {max(width, 1)} numbers, found {len(row)}")
        return [self.check_number(x, join(where, j)) for j, x in enumerate(row)]

    @staticmethod
    def freeze(array: Array) -> Array:
        array.setflags(write=False)
        return array
