"""Where the lesson's numbers come from: each model says whether a public config or only the
lesson gives its numbers, each claim whether it was reported or only stated by the lesson, and
DeepSeek-V2's reported saving is reproduced from the KV precision its report assumes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.model.errors import DataError
from app.model.lesson.data import load_lesson_data
from app.model.lesson.figures import lesson_figures, rounds_to
from app.model.memory import kv_cache, reduction_pct

ANCHOR, FRONTIER = "anchor-model.json", "frontier-models.json"


def test_the_anchor_is_named_as_the_lesson_names_it_and_says_whose_config_it_uses() -> None:
    anchor = load_lesson_data().anchor
    assert anchor.display_name == "Qwen3.8-27B" and "/" not in anchor.display_name
    assert anchor.config_of == "Qwen/Qwen3.5-27B" and anchor.config_of in anchor.source
    assert anchor.provenance == "config"


def test_figures_the_lesson_states_without_a_public_source_are_marked_as_the_lessons() -> None:
    data = load_lesson_data()
    assert {key: m.provenance for key, m in data.frontier.models.items()} == {
        "deepseek-llm-67b": "config", "deepseek-v2": "config", "deepseek-v3": "config",
        "glm-5.3": "lesson"}
    lesson_claims = {c.id for c in data.frontier.claims if c.provenance == "lesson"}
    assert lesson_claims == {"dsv41_global_kv_per_token"}


def test_dsv2_reported_saving_is_reproduced_from_its_kv_quantization() -> None:
    """The report's −93.3 % is not BF16 (that is 82.2 %): at the ~6 bits it assumes, the same
    latent gives the reported figure, in the same sign convention as the BF16 one."""
    data = load_lesson_data()
    claim = data.frontier.claim("dsv2_kv_reduction_vs_67b")
    assert claim.kv_bits == 6 and claim.value < 0
    v2 = kv_cache(data.frontier.models["deepseek-v2"], "MLA")
    base = kv_cache(data.frontier.models["deepseek-llm-67b"], "GQA").bytes_per_token
    quantized = reduction_pct(v2.bytes_per_token_at(claim.kv_bits), base)
    assert rounds_to(quantized, f"{-claim.value:g}")
    bf16 = lesson_figures()["dsv2_vs_67b_reduction_pct"]
    assert bf16.matches() and reduction_pct(v2.bytes_per_token, base) == bf16.value
    assert v2.bytes_per_token_at(16) == v2.bytes_per_token  # BF16 is 16 bits: no change
    with pytest.raises(ValueError, match="bits"):
        v2.bytes_per_token_at(0)


def _edit(data_dir: Path, edit_data, name: str, change) -> DataError:
    edit_data(name, change)
    with pytest.raises(DataError) as info:
        load_lesson_data(data_dir)
    return info.value


def _claim(index: int, key: str, value: Any):
    return lambda doc: doc["claims"][index].__setitem__(key, value)


@pytest.mark.parametrize(("name", "change", "field", "problem"), [
    (ANCHOR, lambda d: d.__setitem__("provenance", "rumour"), "provenance", "must be one of"),
    (ANCHOR, lambda d: d.pop("provenance"), "provenance", "missing"),
    (ANCHOR, lambda d: d.__setitem__("config_of", ""), "config_of", "non-empty text"),
    (FRONTIER, lambda d: d["models"]["glm-5.3"].__setitem__("provenance", None),
     "models.glm-5.3.provenance", "must be one of"),
    (FRONTIER, _claim(0, "provenance", "config"), "claims[0].provenance", "must be one of"),
    (FRONTIER, _claim(0, "kv_bits", 64), "claims[0].kv_bits", "at most 32"),
    (FRONTIER, _claim(0, "kv_bits", 0), "claims[0].kv_bits", None),
])
def test_the_loader_refuses_a_provenance_it_cannot_show(data_dir, edit_data, name, change,
                                                       field, problem) -> None:
    error = _edit(data_dir, edit_data, name, change)
    assert error.path.name == name and error.field == field
    if problem is not None:
        assert problem in error.problem
