"""Owns the values that fill the lesson's texts (timeline cards, guide pages): every figure,
claim and data field, formatted once from the loaded data; nothing is typed.
"""

from __future__ import annotations

import html
from dataclasses import replace

import numpy as np

from app.i18n import tr
from app.model.lesson.data import LessonData
from app.model.lesson.figures import EXAMPLE, Figure
from app.model.lesson.scenes import Lesson
from app.model.memory import kv_cache, reduction_pct
from app.model.modelconfig import Claim
from app.model.scoring import score_matrix
from app.model.scoring.breakdown import breakdown
from app.model.timeline import stage
from app.ui.format import format_claim, format_figure, format_number


def _vector(values: np.ndarray) -> str:
    return "[" + ", ".join(format_number(v, 2).rstrip("0").rstrip(".") for v in values) + "]"


def _plain(value: float) -> str:
    return format_number(value, 2).rstrip("0").rstrip(".")


PROVENANCE = {
    "config": "provenance.config",
    "reported": "provenance.reported",
    "lesson": "provenance.lesson",
}
"""Where a number comes from, in words (model and claim provenances share the lesson's)."""


def claim_text(claim: Claim) -> str:
    """A claim as the timeline prints it: a negative percentage is a saving and is written as
    one ("93.3 %" after "less"), the convention of every computed saving beside it."""
    if claim.unit == "pct" and claim.value < 0:
        return format_claim(replace(claim, value=-claim.value))
    return format_claim(claim)


def lesson_values(figures: dict[str, Figure], data: LessonData) -> dict[str, str]:
    """Every placeholder of the timeline and guide texts: figures, claims and data fields."""
    values = {key: format_figure(figure) for key, figure in figures.items()}
    values.update({claim.id: claim_text(claim) for claim in data.frontier.claims})
    values.update({f"{claim.id}_from": tr(PROVENANCE[claim.provenance])
                   for claim in data.frontier.claims})
    anchor, models, teaching = data.anchor, data.frontier.models, data.teaching
    dialogue = data.dialogue
    ds67b, dsv2, dsv3, glm = (models[k] for k in ("deepseek-llm-67b", "deepseek-v2",
                                                  "deepseek-v3", "glm-5.3"))
    match, car = dialogue.key_index("match"), dialogue.key_index("opposite")
    dots = score_matrix("dot", dialogue.q[None, :], dialogue.keys)[0]  # the scores on screen
    pair = breakdown(dialogue.q, dialogue.keys[match], total=float(dots[match]))
    car_score = float(dots[car])
    counts = {
        "example_t": EXAMPLE["rnn_T"], "example_d_a": EXAMPLE["additive_d_a"],
        "exp_gap": EXAMPLE["exp_gap"], "prompt": EXAMPLE["prompt"],
        "generate": EXAMPLE["generate"], "long_context": EXAMPLE["long_context"],
        "anchor_context": anchor.max_position_embeddings, "dtype_bytes": anchor.dtype_bytes,
        "anchor_layers": anchor.num_hidden_layers,
        "heads_per_group": (anchor.num_attention_heads or 0)
        // max(anchor.num_key_value_heads or 1, 1),
        "ds67b_kv_heads": ds67b.num_key_value_heads, "kv_lora_rank": dsv2.kv_lora_rank,
        "qk_rope_head_dim": dsv2.qk_rope_head_dim, "dsv2_layers": dsv2.num_hidden_layers,
        "dsv3_layers": dsv3.num_hidden_layers, "glm53_layers": glm.num_hidden_layers,
        "glm53_context": glm.max_position_embeddings, "d": teaching.E.shape[1],
        "ds67b_context": ds67b.max_position_embeddings,
    }
    values.update({key: format_number(value or 0) for key, value in counts.items()})
    values.update({
        "anchor_name": anchor.display_name, "ds67b_name": ds67b.display_name,
        "dsv2_name": dsv2.display_name, "dsv3_name": dsv3.display_name,
        "glm53_name": glm.display_name,
        "gate": tr("timeline.on") if anchor.attn_output_gate else tr("timeline.off"),
        "query": teaching.tokens[teaching.index("query")],
        "object": teaching.tokens[teaching.index("object")],
        "giver": teaching.tokens[teaching.index("giver")],
        "answer": teaching.tokens[teaching.index("answer")],
        "car": dialogue.key_tokens[car], "match": dialogue.key_tokens[match],
        "neutral": dialogue.key_tokens[dialogue.key_index("neutral")],
        "q_vec": _vector(dialogue.q), "k_vec": _vector(dialogue.keys[match]),
        "expansion": " + ".join(f"{_plain(a)}×{_plain(b)}"
                                for a, b in zip(dialogue.q, dialogue.keys[match], strict=True)),
        "top_score": _plain(pair.total), "car_score": _plain(car_score),
    })
    values["additive_year"] = str(stage("additive").year)
    values.update(_provenance(data))
    return values


def scene_values(figures: dict[str, Figure], data: LessonData,
                 lesson: Lesson) -> tuple[dict[str, str], dict[str, str]]:
    """(bold, plain) values for the scene texts: the lesson's, plus the course's lesson
    numbers and the 2-D world's width, all read from the data files."""
    plain = lesson_values(figures, data)
    plain.update({f"lesson_{name}": str(number)
                  for name, number in lesson.lesson_numbers.items()})
    plain["dialogue_d"] = str(data.dialogue.q.shape[0])
    return bold_values(plain), plain


def bold_values(values: dict[str, str]) -> dict[str, str]:
    """The same values, HTML-escaped and bold (provenance words plain), for rich text."""
    return {key: html.escape(text) if key.endswith("_from") else f"<b>{html.escape(text)}</b>"
            for key, text in values.items()}  # where a number comes from is prose, not a value


def _provenance(data: LessonData) -> dict[str, str]:
    """Where the anchor's and GLM-5.3's numbers come from, and DeepSeek-V2's reported saving
    recomputed at the KV precision the report assumes (one sign convention with BF16's)."""
    models = data.frontier.models
    anchor, glm = data.anchor, models["glm-5.3"]
    out = {
        "anchor_config": anchor.config_of or anchor.display_name,
        "anchor_from": tr(PROVENANCE[anchor.provenance]),
        "glm53_from": tr(PROVENANCE[glm.provenance]),
    }
    claim = data.frontier.claim("dsv2_kv_reduction_vs_67b")
    if claim.kv_bits is not None:
        v2 = kv_cache(models["deepseek-v2"], "MLA")
        base = kv_cache(models["deepseek-llm-67b"], "GQA").bytes_per_token
        saving = reduction_pct(v2.bytes_per_token_at(claim.kv_bits), base)
        out["dsv2_kv_bits"] = format_number(claim.kv_bits)
        out["dsv2_quantized_reduction_pct"] = f"{format_number(saving, 1)} %"
    return out
