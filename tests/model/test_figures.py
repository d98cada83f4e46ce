"""Every figure the lesson prints is computed from data/ and equals its published value at the
printed precision; editing a data file changes exactly the figures that depend on it."""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.model.errors import DataError
from app.model.lesson.data import load_lesson_data, load_teaching_world
from app.model.lesson.figures import (
    PUBLISHED,
    Figure,
    decimals_of,
    lesson_figures,
    live_teaching_figures,
    rounds_to,
)
from app.model.scoring import score_matrix
from app.model.scoring.breakdown import breakdown, disagreements

PUBLISHED_TABLE = Path(__file__).resolve().parents[1] / "data" / "published_figures.csv"
"""Every figure the lesson prints, as printed: key, published text, unit (copied from the
lesson's figure list, so a plain clone checks the model against the lesson)."""


def _published_table() -> dict[str, str]:
    """key -> published text; a missing or empty table stops collection rather than letting
    every comparison below quietly run on nothing."""
    if not PUBLISHED_TABLE.is_file():
        raise FileNotFoundError(f"{PUBLISHED_TABLE} is missing: the lesson's figures are "
                                "checked against it")
    with PUBLISHED_TABLE.open(encoding="utf-8", newline="") as file:
        rows = {row["key"]: row["published"] for row in csv.DictReader(file)}
    if not rows:
        raise ValueError(f"{PUBLISHED_TABLE} holds no figures")
    return rows


TABLE = _published_table()
ALL_KEYS = tuple(TABLE)


@pytest.fixture(scope="module")
def figures() -> dict[str, Figure]:
    return lesson_figures()


def test_one_figure_per_published_key(figures: dict[str, Figure]) -> None:
    assert set(figures) == set(ALL_KEYS) == set(PUBLISHED)


@pytest.mark.parametrize("key", ALL_KEYS)
def test_figure_equals_published_at_printed_precision(figures: dict[str, Figure],
                                                       key: str) -> None:
    figure = figures[key]
    assert figure.key == key
    assert figure.matches(), f"{key}: computed {figure.value!r}, published {figure.published!r}"


@pytest.mark.parametrize(("key", "cell"), sorted(TABLE.items()))
def test_the_models_published_values_are_the_lessons(key: str, cell: str) -> None:
    """The model's copy of each published value says what the lesson prints."""
    published = PUBLISHED[key][0]
    texts = published if isinstance(published, tuple) else (published,)
    printed = re.findall(r"[\u4e00-\u9fff]+|−?-?[\d.]+(?:e\d+)?", cell)
    assert [t.replace("−", "-") for t in printed] == [t.replace("−", "-") for t in texts]


def _bump_e(doc: dict[str, Any]) -> None:
    doc["E"][0][0] = round(doc["E"][0][0] + 0.3, 1)


def _interval_2(doc: dict[str, Any]) -> None:
    doc["full_attention_interval"] = 2
    del doc["layer_types"]


DIALOGUE_KEYS = {k for k in ALL_KEYS if k.startswith("dialogue_")}
TEACHING_KEYS = {"embed_cos_self", "embed_rank_last3", "qk_rank_top3", "given_row_scaled",
                 "names_k_cos", "unmasked_weight_on_answer", "masked_weight_apple",
                 "masked_weight_xiaoming", "head_a_weight_xiaoming", "head_b_weight_apple",
                 "apple_row_scaled", "apple_row_weights"}

EDITS = [
    ("dialogue-2d.json", lambda d: d["keys"][0].__setitem__("vector", [2, 1]),
     {"dialogue_scores", "dialogue_car_share_proportional"}),
    ("dialogue-2d.json", lambda d: d["keys"][2].__setitem__("vector", [-1, -0.5]),
     DIALOGUE_KEYS),
    ("teaching-world.json", _bump_e, {"given_row_scaled", "names_k_cos", "apple_row_scaled",
                                      "unmasked_weight_on_answer", "head_a_weight_xiaoming"}),
    ("anchor-model.json", lambda d: d.__setitem__("head_dim", 128),
     {"anchor_head_dim", "anchor_rope_dims", "unscaled_dot_std", "anchor_mha_kib_per_token",
      "anchor_mha_gib_native", "anchor_mqa_kib_per_token", "anchor_mqa_gib_native",
      "anchor_gqa_kib_per_token", "anchor_gqa_gib_native"}),
    ("anchor-model.json", lambda d: d.__setitem__("dtype_bytes", 4),
     {"additive_intermediate_gib", "dot_scores_mib", "anchor_mha_kib_per_token",
      "anchor_mha_gib_native", "anchor_mqa_kib_per_token", "anchor_mqa_gib_native",
      "anchor_gqa_kib_per_token", "anchor_gqa_gib_native"}),
    ("anchor-model.json", lambda d: d.__setitem__("max_position_embeddings", 131072),
     {"anchor_pairs_per_head", "anchor_mha_gib_native", "anchor_mqa_gib_native",
      "anchor_gqa_gib_native"}),
    ("anchor-model.json", _interval_2,
     {"anchor_mha_kib_per_token", "anchor_mha_gib_native", "anchor_mqa_kib_per_token",
      "anchor_mqa_gib_native", "anchor_gqa_kib_per_token", "anchor_gqa_gib_native",
      "anchor_linear_state_mib", "anchor_linear_layers", "anchor_full_layers"}),
    ("frontier-models.json", lambda d: d["models"]["deepseek-v2"].__setitem__(
        "num_hidden_layers", 59), {"dsv2_bytes_per_token", "dsv2_vs_67b_reduction_pct"}),
    ("frontier-models.json", lambda d: d["models"]["deepseek-v2"].__setitem__(
        "kv_lora_rank", 256), {"mla_numbers_per_layer", "dsv2_bytes_per_token",
                               "dsv2_vs_67b_reduction_pct"}),
    ("frontier-models.json", lambda d: d["models"]["deepseek-llm-67b"].__setitem__(
        "num_key_value_heads", 16), {"dsllm67b_bytes_per_token", "dsllm67b_gib_1m",
                                     "dsv2_vs_67b_reduction_pct"}),
]


@pytest.mark.parametrize(("name", "change", "expected"), EDITS)
def test_editing_a_data_file_changes_exactly_the_dependent_figures(
    data_dir: Path, edit_data, figures: dict[str, Figure], name: str,
    change: Callable[[dict[str, Any]], None], expected: set[str],
) -> None:
    edit_data(name, change)
    edited = lesson_figures(data_dir)
    changed = {k for k in figures if edited[k].value != figures[k].value}
    if name == "teaching-world.json":  # which softmax shares move depends on the numbers
        assert expected <= changed <= TEACHING_KEYS
    else:
        assert changed == expected


def test_a_wrong_number_in_the_data_shows_as_a_mismatch(data_dir: Path, edit_data) -> None:
    edit_data("anchor-model.json", lambda d: d.__setitem__("head_dim", 128))
    figure = lesson_figures(data_dir)["anchor_mha_kib_per_token"]
    assert figure.value == 192 and not figure.matches()


def test_teaching_row_is_exact_not_just_rounded() -> None:
    world = load_teaching_world()
    q, obj = world.index("query"), world.index("object")
    np.testing.assert_allclose(world.K @ world.Q[q], [3.68, -2.08, 4.4, -2.4, 4.08], atol=1e-12)
    np.testing.assert_allclose(world.K[: obj + 1] @ world.Q[obj], [0.08, 0.72, 0.0], atol=1e-12)
    assert np.argmin(world.K @ world.Q[q]) == q  # 给了 ranks itself last


def test_three_kinds_of_match_disagree_because_key_lengths_differ() -> None:
    world = load_teaching_world()
    Q, K, q = world.Q, world.K, world.index("query")
    dot = score_matrix("dot", Q[q : q + 1], K)[0]
    cosine = score_matrix("cosine", Q[q : q + 1], K)[0]
    swaps = disagreements(dot, cosine)
    assert swaps, "dot and cosine rank q_给了's keys the same way"
    lengths = np.linalg.norm(K, axis=1)
    for swap in swaps:
        assert abs(lengths[swap.key_a] - lengths[swap.key_b]) > 0.1


def test_one_product_dominates_given_dot_apple() -> None:
    world = load_teaching_world()
    parts = breakdown(world.Q[world.index("query")], world.K[world.index("object")])
    assert parts.dominant_share > 0.6
    assert parts.products[parts.dominant] > 0


@pytest.mark.parametrize(("value", "published", "ok"), [
    (1.8400000000000003, "1.84", True), (1.845, "1.84", False), (1.8449, "1.84", True),
    (2.2, "2.2", True), (2.26, "2.2", False), (-2.7e-17, "0.00", True), (0.005, "0.00", False),
    (77.04, "77.0", True), (76.94, "77.0", False), (29.958, "30", True), (30.6, "30", False),
    (485165195.4, "4.9e8", True), (4.96e8, "4.9e8", False), (87.75, "87.75", True),
    (-44.444, "-44.4", True), (-44.444, "−44.4", True), (68719476736, "68719476736", True),
])
def test_rounds_to_uses_the_printed_precision(value: float, published: str, ok: bool) -> None:
    assert rounds_to(value, published) is ok


def test_decimals_are_read_from_the_printed_text() -> None:
    assert decimals_of("1.000") == (3, False)
    assert decimals_of("16") == (0, False)
    assert decimals_of("4.9e8") == (1, True)


def test_figure_comparisons() -> None:
    assert Figure("k", -0.992, "-0.9", "cos", "", "at_most").matches()
    assert not Figure("k", -0.85, "-0.9", "cos", "", "at_most").matches()
    assert Figure("k", ("b", "a"), ("a", "b"), "set", "", "set").matches()
    assert not Figure("k", ("b", "a"), ("a", "b"), "order", "", "order").matches()
    assert not Figure("k", (1.0, 2.0), ("1", "2", "3"), "score", "").matches()


@pytest.mark.parametrize(("change", "field"), [
    (lambda d: d["models"].pop("glm-5.3"), "models.glm-5.3"),
    (lambda d: d["models"]["glm-5.3"].pop("max_position_embeddings"),
     "models.glm-5.3.max_position_embeddings"),
])
def test_a_cited_model_missing_from_the_file_is_a_data_error(data_dir: Path, edit_data, change,
                                                             field) -> None:
    edit_data("frontier-models.json", change)
    with pytest.raises(DataError) as info:
        lesson_figures(data_dir)
    assert info.value.path.name == "frontier-models.json" and info.value.field == field


def test_data_that_would_make_a_figure_nan_is_refused_by_name(data_dir: Path,
                                                               edit_data) -> None:
    """A NaN figure would reach the cards' formatter at start-up, so data that would give one
    (a zero-length vector, scores summing to 0) is refused when loaded."""
    edit_data("dialogue-2d.json", lambda d: d["keys"][2].__setitem__("vector", [-2, -3]))
    with pytest.raises(DataError) as info:
        lesson_figures(data_dir)
    assert (info.value.path.name, info.value.field) == ("dialogue-2d.json", "keys")
    assert "sum to 0" in info.value.problem
    edit_data("dialogue-2d.json", lambda d: d["keys"][2].__setitem__("vector", [-0.5, -1]))
    edit_data("teaching-world.json", lambda d: d["E"].__setitem__(4, [0, 0, 0, 0]))
    with pytest.raises(DataError) as info:
        lesson_figures(data_dir)
    assert (info.value.path.name, info.value.field) == ("teaching-world.json", "E[4]")
    assert "has length 0" in info.value.problem


def test_live_figures_asked_for_by_key_are_those_of_the_full_pass() -> None:
    """A card asks for the few figures it quotes at every drag step: each one equals the
    same figure of a pass that works out all of them, at the class's own vectors too."""
    data = load_lesson_data()
    Q, K = data.teaching.Q, 1.5 * data.teaching.K
    full = live_teaching_figures(data, Q, K)
    assert set(full) == {key for key in PUBLISHED if key in full} and len(full) >= 10
    for keys in (("masked_weight_apple",), ("head_b_weight_apple", "qk_rank_top3"),
                 tuple(full)):
        some = live_teaching_figures(data, Q, K, keys)
        assert list(some) == [key for key in full if key in keys]
        assert all(some[key] == full[key] for key in keys)
    assert full["masked_weight_apple"] != live_teaching_figures(
        data, data.teaching.Q, data.teaching.K)["masked_weight_apple"]  # the vectors count
