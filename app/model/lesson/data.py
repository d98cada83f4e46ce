"""Owns the lesson's data files: typed, frozen, validated views of data/*.json.

Nothing is cached: every call reads the files again, so a figure computed after a teacher edits
a file reflects the edit. Any problem with a file raises `DataError` (file, field, problem).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt

from app.model.errors import DataError
from app.model.jsonfile import JsonFile, join
from app.model.lesson.bundled import bundled_dir
from app.model.modelconfig import MAX_CONTEXT, Claim, ModelConfig, read_claims, read_model
from app.model.scoring.additive import AdditiveWeights
from app.model.scoring.qknorm import QKNormWeights
from app.model.state import EDIT_LIMIT, MAX_HEADS, POSITION_LIMIT
from app.model.token_names import MIN_TOKENS, NAME_RULES, name_problem

__all__ = [
    "ANCHOR_FILE",
    "DEFAULT_DATA_DIR",
    "DIALOGUE_FILE",
    "FRONTIER_FILE",
    "TEACHING_FILE",
    "Claim",
    "DialogueWorld",
    "FrontierModels",
    "LessonData",
    "ModelConfig",
    "TeachingWorld",
    "load_anchor",
    "load_dialogue",
    "load_frontier",
    "load_lesson_data",
    "load_teaching_world",
]

DEFAULT_DATA_DIR = bundled_dir("data")
"""The lesson's data/ as shipped with the app (inside the installed package, or the checkout's)."""
DIALOGUE_FILE = "dialogue-2d.json"
TEACHING_FILE = "teaching-world.json"
ANCHOR_FILE = "anchor-model.json"
FRONTIER_FILE = "frontier-models.json"


@dataclass(frozen=True, eq=False)
class DialogueWorld:
    """The 2-D sample: one query vector `q` (2,) and key vectors `keys` (n, 2), read-only."""

    path: Path
    about: str
    query_token: str
    query_gloss: str
    q: npt.NDArray[np.float64]
    key_tokens: tuple[str, ...]
    key_glosses: tuple[str, ...]
    keys: npt.NDArray[np.float64]
    positions: npt.NDArray[np.float64]  # RoPE positions: the query's first, then one per key
    roles: Mapping[str, int]  # role name -> key index, e.g. "opposite" -> 汽车
    additive: AdditiveWeights
    qk_norm: QKNormWeights

    def key_index(self, role: str) -> int:
        """Index of the key playing `role`, so figures never look tokens up by spelling."""
        return _role(self.path, self.roles, role)


@dataclass(frozen=True, eq=False)
class TeachingWorld:
    """The 4-D sentence: embeddings E (T, d) and projections; Q, K, V are derived, never stored.

    Keeping only E and W in the file is what makes Q = E·W_Q true by construction.
    """

    path: Path
    about: str
    tokens: tuple[str, ...]
    glosses: tuple[str, ...]
    E: npt.NDArray[np.float64]
    W_Q: npt.NDArray[np.float64]
    W_K: npt.NDArray[np.float64]
    W_V: npt.NDArray[np.float64]
    n_heads: int
    roles: Mapping[str, int]  # role name -> token index, e.g. "query" -> 给了
    additive: AdditiveWeights
    qk_norm: QKNormWeights

    @property
    def Q(self) -> npt.NDArray[np.float64]:
        return _frozen(self.E @ self.W_Q)

    @property
    def K(self) -> npt.NDArray[np.float64]:
        return _frozen(self.E @ self.W_K)

    @property
    def V(self) -> npt.NDArray[np.float64]:
        return _frozen(self.E @ self.W_V)

    def index(self, role: str) -> int:
        """Token index playing `role`: "query" 给了, "answer" 小王, "giver" 小明, "object" 苹果."""
        return _role(self.path, self.roles, role)


@dataclass(frozen=True)
class FrontierModels:
    """Configs of the models the lesson compares against, plus reported claims with sources."""

    path: Path
    about: str
    models: Mapping[str, ModelConfig]
    claims: tuple[Claim, ...]

    def __getitem__(self, key: str) -> ModelConfig:
        return self.models[key]

    def claim(self, claim_id: str) -> Claim:
        for claim in self.claims:
            if claim.id == claim_id:
                return claim
        raise DataError(self.path, "claims", f"no claim with id {claim_id!r}")


@dataclass(frozen=True)
class LessonData:
    """All four files of one data folder, loaded together."""

    dialogue: DialogueWorld
    teaching: TeachingWorld
    anchor: ModelConfig
    frontier: FrontierModels
    data_dir: Path = field(default=DEFAULT_DATA_DIR)


def _frozen(array: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    array.setflags(write=False)
    return array


def _role(path: Path, roles: Mapping[str, int], role: str) -> int:
    if role not in roles:
        raise DataError(path, join("roles", role), "is required but missing")
    return roles[role]


def _dir(data_dir: Path | str | None) -> Path:
    return DEFAULT_DATA_DIR if data_dir is None else Path(data_dir)


MAX_TOKENS = 32
"""More tokens or keys than a projected heatmap can label; also keeps the editor's layout cheap."""
MAX_WIDTH = 64
"""Widest vector (d, d_a) a world may use: the editor shows one entry box per dimension."""
MAX_LAYERS = 100_000
MAX_CONFIG_INT = 2**40
"""Far above any real config, far below what would make a layer list or a size hang the app."""
MIN_LENGTH = 0.01
"""Shortest vector the lesson accepts (the editor's step): cosine divides by |q|·|k|, so a
zero-length query or key would make a figure NaN, which no formatter can print."""
MIN_SCORE_SUM = 0.01
"""The lesson divides the car's dot score by the sum of the query's dot scores (the
"proportional share"); a sum nearer 0 makes that figure NaN or astronomically large."""


def _within(f: JsonFile, array: np.ndarray, where: str, limit: float = EDIT_LIMIT,
            problem: str = "") -> None:
    """Values must fit the editing range, so the lesson's first state is editable and savable."""
    outside = np.argwhere(~(np.abs(array) <= limit))
    if outside.size:
        index = tuple(int(i) for i in outside[0])
        field = where + "".join(f"[{i}]" for i in index)
        raise f.fail(field, problem or f"must be between −{limit:g} and {limit:g}, "
                     f"found {float(array[index]):g}")


def _long_enough(f: JsonFile, array: np.ndarray, where: str, what: str = "") -> None:
    """Every row (or the vector) must have length ≥ MIN_LENGTH, so its direction is defined."""
    rows = np.atleast_2d(array)
    lengths = np.sqrt(np.sum(rows * rows, axis=1))
    short = np.flatnonzero(~(lengths >= MIN_LENGTH))
    if short.size:
        i = int(short[0])
        field = where if array.ndim == 1 else join(where, i)
        raise f.fail(field, f"{what}has length {float(lengths[i]):.3g}; it must be at least "
                     f"{MIN_LENGTH:g}, because cosine divides by the vectors' lengths")


def _at_most(f: JsonFile, count: int, limit: int, where: str, what: str) -> None:
    if count > limit:
        raise f.fail(where, f"has {count} {what}; at most {limit} fit on screen")


def _bounded_config(f: JsonFile, node: Any, base: str) -> None:
    """Reject absurd whole numbers before a config is read: a layer count of 10¹² would
    otherwise build a list of 10¹² layer types and hang the start-up."""
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        limit = {"num_hidden_layers": MAX_LAYERS,
                 "max_position_embeddings": MAX_CONTEXT}.get(key, MAX_CONFIG_INT)
        if type(value) is int and value > limit:
            raise f.fail(join(base, key), f"must be at most {limit}, found {value}")


# ---- shared pieces --------------------------------------------------------------------------


def _token(f: JsonFile, node: Any, where: str) -> tuple[str, str]:
    if not isinstance(node, dict):
        raise f.fail(where, "must be an object with \"token\" and \"gloss\"")
    return f.text(node, where, "token"), f.text(node, where, "gloss")


def _unique(f: JsonFile, names: tuple[str, ...], where: str) -> None:
    for i, name in enumerate(names):
        if name in names[:i]:
            raise f.fail(join(join(where, i), "token"), f"{name!r} appears twice")


def _roles(f: JsonFile, root: dict[str, Any], count: int,
           required: tuple[str, ...]) -> Mapping[str, int]:
    node = f.obj(root, "", "roles")
    roles: dict[str, int] = {}
    for name in required:
        f.get(node, "roles", name)
    for name, value in node.items():
        index = f.check_integer(value, join("roles", name), minimum=0)
        if index >= count:
            raise f.fail(join("roles", name), f"index {index} is past the last token ({count - 1})")
        roles[name] = index
    return MappingProxyType(roles)


def _scorer_params(
    f: JsonFile, root: dict[str, Any], d: int
) -> tuple[AdditiveWeights, QKNormWeights]:
    """Per-world weights of the additive and QK-norm scorers, checked against the world's d."""
    add = f.obj(root, "", "additive")
    W1 = f.matrix(add, "additive", "W1", None, d)
    _at_most(f, W1.shape[0], MAX_WIDTH, "additive.W1", "rows")
    W2 = f.matrix(add, "additive", "W2", W1.shape[0], d)
    v = f.vector(add, "additive", "v", W1.shape[0])
    norm = f.obj(root, "", "qk_norm")
    gain = f.vector(norm, "qk_norm", "gain", d)
    for array, where in ((W1, "additive.W1"), (W2, "additive.W2"), (v, "additive.v"),
                         (gain, "qk_norm.gain")):
        _within(f, array, where)
    eps = f.number(norm, "qk_norm", "eps", positive=True)
    return AdditiveWeights(W1=W1, W2=W2, v=v), QKNormWeights(gain=gain, eps=eps)


# ---- loaders --------------------------------------------------------------------------------


def load_dialogue(data_dir: Path | str | None = None) -> DialogueWorld:
    """The 2-D dialogue sample; 2-D because the score landscape and RoPE demo draw a plane."""
    f = JsonFile(_dir(data_dir) / DIALOGUE_FILE)
    root = f.root
    query = f.obj(root, "", "query")
    query_token, query_gloss = _token(f, query, "query")
    q = f.vector(query, "query", "vector", 2)
    _within(f, q, "query.vector")
    _long_enough(f, q, "query.vector")
    keys_node = f.items(root, "", "keys")
    _at_most(f, len(keys_node), MAX_TOKENS, "keys", "keys")
    tokens, glosses, rows = [], [], []
    for i, node in enumerate(keys_node):
        where = join("keys", i)
        token, gloss = _token(f, node, where)
        tokens.append(token)
        glosses.append(gloss)
        rows.append(f.vector(node, where, "vector", 2))
        _within(f, rows[-1], join(where, "vector"))
        _long_enough(f, rows[-1], join(where, "vector"))
    key_tokens = tuple(tokens)
    _unique(f, key_tokens, "keys")
    positions_node = f.get(root, "", "positions")
    if not isinstance(positions_node, list) or len(positions_node) != len(rows) + 1:
        raise f.fail("positions", f"must list {len(rows) + 1} positions (the query's, then one "
                     "per key)")
    positions = [f.check_integer(p, join("positions", i), 0) for i, p in enumerate(positions_node)]
    for i, position in enumerate(positions):
        if position > POSITION_LIMIT:
            raise f.fail(join("positions", i),
                         f"must be at most {POSITION_LIMIT}, found {position}")
    total = float(np.sum(np.vstack(rows) @ q))
    if not abs(total) >= MIN_SCORE_SUM:
        raise f.fail("keys", f"the query's dot scores with the keys sum to {total:.3g}; the "
                     f"lesson divides by this sum, so it must be at least {MIN_SCORE_SUM:g} "
                     "away from 0")
    additive, qk_norm = _scorer_params(f, root, 2)
    return DialogueWorld(
        path=f.path,
        about=root["about"],
        query_token=query_token,
        query_gloss=query_gloss,
        q=q,
        key_tokens=key_tokens,
        key_glosses=tuple(glosses),
        keys=_frozen(np.vstack(rows)),
        positions=_frozen(np.array(positions, dtype=np.float64)),
        roles=_roles(f, root, len(rows), ("opposite",)),
        additive=additive,
        qk_norm=qk_norm,
    )


TEACHING_ROLES = ("query", "answer", "giver", "object")


def load_teaching_world(data_dir: Path | str | None = None) -> TeachingWorld:
    """The 4-D sentence 小明 把 苹果 给了 小王, with E and W_Q/W_K/W_V."""
    f = JsonFile(_dir(data_dir) / TEACHING_FILE)
    root = f.root
    token_nodes = f.items(root, "", "tokens")
    _at_most(f, len(token_nodes), MAX_TOKENS, "tokens", "tokens")
    if len(token_nodes) < MIN_TOKENS:
        raise f.fail("tokens", f"must list at least {MIN_TOKENS} tokens, found "
                     f"{len(token_nodes)}")
    pairs = [_token(f, node, join("tokens", i)) for i, node in enumerate(token_nodes)]
    tokens = tuple(p[0] for p in pairs)
    for i, name in enumerate(tokens):  # the editor's rule: a reshaped world saves them as names
        problem = name_problem(name, tokens[:i])
        if problem is not None:
            raise f.fail(join(join("tokens", i), "token"), NAME_RULES[problem])
    E = f.matrix(root, "", "E", len(tokens), None)
    d = E.shape[1]
    W_Q = f.matrix(root, "", "W_Q", d, None)
    W_K = f.matrix(root, "", "W_K", d, W_Q.shape[1])
    W_V = f.matrix(root, "", "W_V", d, None)
    for array, where in ((E, "E"), (W_Q, "W_Q"), (W_K, "W_K"), (W_V, "W_V")):
        _at_most(f, array.shape[1], MAX_WIDTH, where, "columns")
        _within(f, array, where)
    for W, name in ((W_Q, "Q"), (W_K, "K")):
        _within(f, E @ W, name, problem=f"(E·W_{name}) falls outside the editing range "
                f"±{EDIT_LIMIT:g}; scale E or W_{name} down")
    _long_enough(f, E, "E")
    for W, name in ((W_Q, "Q"), (W_K, "K")):
        _long_enough(f, E @ W, "E", what=f"this token's {name} = E·W_{name} ")
    n_heads = f.integer(root, "", "n_heads")
    if W_Q.shape[1] % n_heads:
        raise f.fail("n_heads", f"must divide the Q/K width {W_Q.shape[1]}, found {n_heads}")
    if n_heads > MAX_HEADS:
        raise f.fail("n_heads", f"must be at most {MAX_HEADS} (the heads the timeline shows), "
                     f"found {n_heads}")
    if np.linalg.matrix_rank(E) < min(E.shape):
        raise f.fail("E", "columns are linearly dependent; E needs full column rank")
    additive, qk_norm = _scorer_params(f, root, W_Q.shape[1])
    return TeachingWorld(
        path=f.path,
        about=root["about"],
        tokens=tokens,
        glosses=tuple(p[1] for p in pairs),
        E=E,
        W_Q=W_Q,
        W_K=W_K,
        W_V=W_V,
        n_heads=n_heads,
        roles=_roles(f, root, len(tokens), TEACHING_ROLES),
        additive=additive,
        qk_norm=qk_norm,
    )


def load_anchor(data_dir: Path | str | None = None) -> ModelConfig:
    """The anchor model's config: every shape the lesson prints for "Qwen3.8-27B" comes from it."""
    f = JsonFile(_dir(data_dir) / ANCHOR_FILE)
    _bounded_config(f, f.root, "")
    model = read_model(f, f.root, "", "anchor", require_attention=True)
    return replace(model, claims=read_claims(f, f.root, required=False))


def load_frontier(data_dir: Path | str | None = None) -> FrontierModels:
    """DeepSeek / GLM configs plus reported claims (which are kept apart from configs)."""
    f = JsonFile(_dir(data_dir) / FRONTIER_FILE)
    node = f.obj(f.root, "", "models")
    if not node:
        raise f.fail("models", "must name at least one model")
    for key, value in node.items():
        _bounded_config(f, value, join("models", key))
    models = {key: read_model(f, value, join("models", key), key) for key, value in node.items()}
    return FrontierModels(
        path=f.path,
        about=f.root["about"],
        models=MappingProxyType(models),
        claims=read_claims(f, f.root, required=True),
    )


def load_lesson_data(data_dir: Path | str | None = None) -> LessonData:
    """All four files from `data_dir` (default: the repo's data/), each validated."""
    folder = _dir(data_dir)
    return LessonData(
        dialogue=load_dialogue(folder),
        teaching=load_teaching_world(folder),
        anchor=load_anchor(folder),
        frontier=load_frontier(folder),
        data_dir=folder,
    )
