"""Owns turning a sentence into the checkpoint's own tokens and naming each token by the
characters it holds: byte-level BPE pieces are mapped back to their bytes and decoded as
UTF-8, SentencePiece's U+2581 reads as a space and its <0xNN> pieces as bytes, and a character
whose bytes are split across tokens is shown in each of them with the bytes that token holds
(中‹E4 B8› then 中‹AD›), so no token ever reads as mojibake or U+FFFD."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.model.checkpoint.refusal import CheckpointError

__all__ = ["MAX_TOKENS", "Tokens", "byte_level_table", "name_tokens", "read_tokenizer"]

MAX_TOKENS = 512
"""Longest sentence: a heatmap of more tokens than this is unreadable on any screen."""
SPLIT_OPEN, SPLIT_CLOSE = "‹", "›"
BYTE_PIECE = re.compile(r"<0x([0-9A-Fa-f]{2})>")


@dataclass(frozen=True)
class Tokens:
    """A sentence as the model reads it: ids, and each token's name and split flag."""

    ids: tuple[int, ...]
    names: tuple[str, ...]
    split: tuple[bool, ...]
    """True where the token holds part of a character another token completes."""


def byte_level_table() -> dict[str, int]:
    """GPT-2's byte-to-printable-character table, inverted: piece character → byte."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1),
                 *range(ord("®"), ord("ÿ") + 1)]
    chars = list(printable)
    extra = 0
    for b in range(256):
        if b not in printable:
            printable.append(b)
            chars.append(256 + extra)
            extra += 1
    return {chr(c): b for b, c in zip(printable, chars, strict=True)}


def _uses_byte_level(spec: dict[str, Any]) -> bool:
    """Whether the tokenizer maps bytes to printable characters (GPT-2, Qwen, Llama 3)."""
    return '"ByteLevel"' in json.dumps([spec.get("pre_tokenizer"), spec.get("decoder")])


class _Reader:
    def __init__(self, path: Path) -> None:
        from tokenizers import Tokenizer  # only a model opened needs it: not every start

        try:
            spec = json.loads(path.read_text(encoding="utf-8"))
            self.tokenizer = Tokenizer.from_str(json.dumps(spec))
        except (OSError, ValueError, Exception) as exc:
            raise CheckpointError(f"{path.name} cannot be read as a tokenizer ({exc}).") from None
        self.byte_level = _uses_byte_level(spec)
        self.table = byte_level_table()
        self.added = {i: t.content for i, t in self.tokenizer.get_added_tokens_decoder().items()}

    def piece_bytes(self, piece: str) -> bytes:
        if self.byte_level:
            return bytes(self.table.get(c, 0x3F) for c in piece)
        match = BYTE_PIECE.fullmatch(piece)
        if match:
            return bytes([int(match.group(1), 16)])
        return piece.replace("\u2581", " ").encode("utf-8")


def _char_length(lead: int) -> int:
    return 1 if lead < 0x80 else 2 if lead >> 5 == 6 else 3 if lead >> 4 == 14 else (
        4 if lead >> 3 == 30 else 1)


def name_tokens(pieces: list[bytes | str]) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    """Names for a run of tokens given as their bytes (or as text, for special tokens)."""
    names = [p if isinstance(p, str) else "" for p in pieces]
    split = [False] * len(pieces)
    owner: list[int] = []
    stream = bytearray()
    runs: list[tuple[bytearray, list[int]]] = []
    for i, piece in enumerate(pieces):
        if isinstance(piece, str):
            runs.append((stream, owner))
            stream, owner = bytearray(), []
            continue
        stream += piece
        owner += [i] * len(piece)
    runs.append((stream, owner))
    for data, owners in runs:
        at = 0
        while at < len(data):
            n = _char_length(data[at])
            chunk = bytes(data[at:at + n])
            try:
                char = chunk.decode("utf-8")
            except UnicodeDecodeError:
                char, n = None, 1
                chunk = bytes(data[at:at + 1])
            holders = owners[at:at + n]
            if char is not None and holders[0] == holders[-1]:
                names[holders[0]] += char
            else:
                for who in dict.fromkeys(holders):
                    part = " ".join(f"{b:02X}" for b, o in zip(chunk, holders, strict=True)
                                    if o == who)
                    names[who] += f"{char or ''}{SPLIT_OPEN}{part}{SPLIT_CLOSE}"
                    split[who] = True
            at += n
    return tuple(names), tuple(split)


def read_tokenizer(folder: Path) -> _Reader:
    path = folder / "tokenizer.json"
    if not path.is_file():
        raise CheckpointError(f"{folder.name} has no tokenizer.json; the app tokenises with "
                              f"the checkpoint's own tokenizer.")
    return _Reader(path)


def tokenise(reader: _Reader, text: str) -> Tokens:
    """The sentence's tokens (with the special tokens its tokenizer adds), refused when empty
    or longer than `MAX_TOKENS`."""
    if not text.strip():
        raise CheckpointError("the text is empty; type a sentence to score.")
    encoding = reader.tokenizer.encode(text)
    ids = tuple(encoding.ids)
    if len(ids) > MAX_TOKENS:
        raise CheckpointError(f"the text makes {len(ids)} tokens; at most {MAX_TOKENS} are "
                              f"scored.")
    pieces: list[bytes | str] = [
        reader.added[i] if i in reader.added else reader.piece_bytes(piece)
        for i, piece in zip(ids, encoding.tokens, strict=True)]
    names, split = name_tokens(pieces)
    return Tokens(ids=ids, names=names, split=split)
