"""Write the tiny checkpoints under tests/data/checkpoints/ and the attention weights the
real library computes on them, so the app's forward pass is checked against transformers
without the tests needing torch.

Run with an environment that has torch and transformers (never the app's own):
    python tools/make_checkpoint_fixtures.py
Each folder gets config.json, its safetensors weights, tokenizer.json and expected.npz
(token ids and, per layer, the causal softmax(q·kᵀ/√d) transformers reports).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import torch
import transformers
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "checkpoints"
SENTENCE = "The cat sat on the mat. 注意力打分，看猫坐在垫子上。"
CORPUS = [
    "The cat sat on the mat and the dog sat on the log.",
    "Attention scores tell each query which keys to read.",
    "注意力打分实验台", "猫坐在垫子上，狗坐在木头上。", "注意力告诉每个查询该读哪些键。",
] * 20
SMALL = {"hidden_size": 32, "num_attention_heads": 4, "num_key_value_heads": 2,
         "num_hidden_layers": 2, "intermediate_size": 24, "tie_word_embeddings": True,
         "initializer_range": 0.2, "max_position_embeddings": 64}
LLAMA3 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
          "high_freq_factor": 4.0, "original_max_position_embeddings": 16}
FIXTURES = {
    "llama-f32": ("LlamaConfig", {}, torch.float32, None),
    "llama-f16": ("LlamaConfig", {}, torch.float16, None),
    "llama-bf16-sharded": ("LlamaConfig", {}, torch.bfloat16, "20KB"),
    "mistral-f16": ("MistralConfig", {"sliding_window": 8}, torch.float16, None),
    "qwen2-f32": ("Qwen2Config", {}, torch.float32, None),
    "qwen3-bf16": ("Qwen3Config", {"head_dim": 16}, torch.bfloat16, None),
    "llama3rope-bf16": ("LlamaConfig", {"rope_parameters": {**LLAMA3, "rope_theta": 500000.0}},
                       torch.bfloat16, None),
    "linearrope-f16": ("LlamaConfig", {"rope_parameters": {
        "rope_type": "linear", "factor": 4.0, "rope_theta": 10000.0}}, torch.float16, None),
    "gpt2-f32": ("GPT2Config", {}, torch.float32, None),
}


def train_tokenizer(vocab: int) -> Tokenizer:
    """A byte-level BPE whose small vocabulary splits many Chinese characters across tokens."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab, special_tokens=["<|endoftext|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(CORPUS, trainer)
    return tok


def make_config(kind: str, extra: dict, vocab: int) -> transformers.PretrainedConfig:
    if kind == "GPT2Config":
        return transformers.GPT2Config(n_embd=32, n_head=4, n_layer=2, n_inner=24,
                                       n_positions=64, vocab_size=vocab,
                                       initializer_range=0.2)
    return getattr(transformers, kind)(vocab_size=vocab, **SMALL, **extra)


def randomise_norms(model: torch.nn.Module, gen: torch.Generator) -> None:
    """Norm weights and every bias random, so a forgotten norm or bias cannot pass."""
    with torch.no_grad():
        for name, param in model.named_parameters():
            is_norm = "norm" in name or ".ln_" in name or name.endswith("ln_f.weight")
            if is_norm and name.endswith("weight"):
                param.copy_(1 + 0.3 * torch.randn(param.shape, generator=gen))
            if name.endswith("bias"):
                param.copy_(0.1 * torch.randn(param.shape, generator=gen))


def expected(folder: Path, ids: list[int]) -> dict[str, np.ndarray]:
    """Attention weights per layer from transformers, the saved weights read in float32."""
    model = transformers.AutoModelForCausalLM.from_pretrained(
        folder, dtype=torch.float32, attn_implementation="eager")
    with torch.no_grad():
        out = model(torch.tensor([ids]), output_attentions=True)
    weights = np.stack([a[0].numpy() for a in out.attentions]).astype(np.float32)
    return {"ids": np.asarray(ids, dtype=np.int64), "attentions": weights}


def main() -> None:
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    tok = train_tokenizer(280)
    ids = tok.encode(SENTENCE).ids
    gen = torch.Generator().manual_seed(0)
    for name, (kind, extra, dtype, shard) in FIXTURES.items():
        torch.manual_seed(len(name))
        cfg = make_config(kind, extra, tok.get_vocab_size())
        model = transformers.AutoModelForCausalLM.from_config(cfg, dtype=torch.float32)
        randomise_norms(model, gen)
        folder = OUT / name
        model.to(dtype).save_pretrained(folder, max_shard_size=shard or "50MB")
        (folder / "generation_config.json").unlink(missing_ok=True)
        tok.save(str(folder / "tokenizer.json"))
        np.savez_compressed(folder / "expected.npz", **expected(folder, ids))
    for folder in sorted(OUT.iterdir()):
        size = sum(f.stat().st_size for f in folder.iterdir())
        print(f"{folder.name}: {size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
