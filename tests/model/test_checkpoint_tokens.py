"""Tokens named by their own characters: the checkpoint's byte-level BPE tokenizer (trained on
a little Chinese and English) splits Chinese characters across tokens, and each such token
shows the character with the bytes it holds, never mojibake or "�"."""

from __future__ import annotations

import re
from pathlib import Path

from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

from app.model.checkpoint import open_checkpoint
from app.model.checkpoint.tokens import name_tokens

CHECKPOINTS = Path(__file__).resolve().parents[1] / "data" / "checkpoints"
SPLIT = re.compile(r"(.)‹([0-9A-F]{2}(?: [0-9A-F]{2})*)›")


def _unsplit(names: tuple[str, ...]) -> str:
    """The text the names spell, each split character counted once (at its first byte)."""
    text, pending = "", b""
    for name in names:
        at = 0
        for match in SPLIT.finditer(name):
            text += name[at:match.start()]
            pending += bytes.fromhex(match.group(2))
            if len(pending) == len(match.group(1).encode()):
                assert pending == match.group(1).encode()
                text += match.group(1)
                pending = b""
            at = match.end()
        text += name[at:]
    return text


def test_trained_chinese_tokens_read_as_their_characters(tmp_path: Path) -> None:
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(["注意力告诉查询读哪些键。", "The query reads the keys."] * 5,
                            trainers.BpeTrainer(vocab_size=262, show_progress=False,
                                                initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    folder = tmp_path / "model"
    folder.mkdir()
    for name in ("config.json", "model.safetensors"):
        (folder / name).write_bytes((CHECKPOINTS / "llama-f32" / name).read_bytes())
    tok.save(str(folder / "tokenizer.json"))
    text = "注意力告诉 query 键。"
    got = open_checkpoint(folder).queries_keys(text, 0)
    assert any(got.split) and not all(got.split)
    assert all("�" not in n and "æ" not in n and "ä" not in n for n in got.tokens)
    assert _unsplit(got.tokens) == text
    assert all(bool(SPLIT.search(n)) == s for n, s in zip(got.tokens, got.split, strict=True))


def test_a_character_split_in_two_is_shown_in_both() -> None:
    names, split = name_tokens([b"\xe4\xb8", b"\xad\xe6\x96\x87", b" ok"])
    assert names == ("中‹E4 B8›", "中‹AD›文", " ok")
    assert split == (True, True, False)


def test_special_tokens_keep_their_text_and_break_no_character() -> None:
    names, split = name_tokens(["<s>", b"\xe4\xb8\xad", "</s>"])
    assert names == ("<s>", "中", "</s>") and split == (False, False, False)


def test_sentencepiece_pieces_read_as_spaces_and_bytes(tmp_path: Path) -> None:
    pieces = ["<unk>", "▁", "t", "h", "e", "c", "a", "▁t", "▁th", "▁the", "▁c", "▁ca", "▁cat",
              *(f"<0x{b:02X}>" for b in range(256))]
    merges = [("▁", "t"), ("▁t", "h"), ("▁th", "e"), ("▁", "c"), ("▁c", "a"), ("▁ca", "t")]
    tok = Tokenizer(models.BPE(vocab={p: i for i, p in enumerate(pieces)}, merges=merges,
                               unk_token="<unk>", byte_fallback=True))
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Sequence([decoders.Replace("▁", " "), decoders.ByteFallback(),
                                     decoders.Fuse()])
    folder = tmp_path / "sp"
    folder.mkdir()
    for name in ("config.json", "model.safetensors"):
        (folder / name).write_bytes((CHECKPOINTS / "llama-f32" / name).read_bytes())
    tok.save(str(folder / "tokenizer.json"))
    got = open_checkpoint(folder).queries_keys("the cat 中", 0)
    assert got.tokens == (" the", " cat", " ", "中‹E4›", "中‹B8›", "中‹AD›")
