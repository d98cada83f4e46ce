"""Owns what a scene sets in its world beyond the data's own vectors and selection: the keys it
moves (so a scene can open on the case its question is about) and the pair its Reveal selects
(so what the class sees after Reveal is the answer's own case).

Both are parsed from `data/lesson-scenes.json` and applied to a `LabState` here, without Qt:
the document makes each one state, and a Reveal's selection one undo step.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import replace as replace_fields
from types import MappingProxyType
from typing import Any

import numpy as np

from app.model.jsonfile import JsonFile, describe, join
from app.model.lesson.data import LessonData
from app.model.state import EDIT_LIMIT, LabState, frozen_array

MOVABLE_WORLD = "dialogue"
"""Only the 2-D sample's keys are data a scene may move: the 4-D world's keys are E·W_K, and
the lesson's figures are computed from them."""


@dataclass(frozen=True)
class Pair:
    """A selection by role: the query's (teaching world) and the key's; None keeps it."""

    query_role: str | None = None
    key_role: str | None = None


def parse_moves(f: JsonFile, node: dict[str, Any], where: str, world: str,
                data: LessonData | None) -> MappingProxyType[str, tuple[float, ...]]:
    """A scene's `keys`: role → the vector that key starts at in this scene."""
    obj = f.obj(node, where, "keys", required=False)
    if obj is None:
        return MappingProxyType({})
    base = join(where, "keys")
    if world != MOVABLE_WORLD:
        raise f.fail(base, f"only a {MOVABLE_WORLD} scene may move keys; the {world} "
                           f"world's keys are computed from its data")
    width = data.dialogue.keys.shape[1] if data is not None else None
    moves: dict[str, tuple[float, ...]] = {}
    for role, vector in obj.items():
        at = join(base, role)
        if data is not None and role not in data.dialogue.roles:
            raise f.fail(at, f"must be a role of the {world} world "
                             f"({', '.join(data.dialogue.roles)}), found {describe(role)}")
        if not isinstance(vector, list) or not vector or (
                width is not None and len(vector) != width):
            raise f.fail(at, f"must be a list of {width or 'some'} numbers, "
                             f"found {describe(vector)}")
        numbers = tuple(f.check_number(value, join(at, i)) for i, value in enumerate(vector))
        if any(abs(value) > EDIT_LIMIT for value in numbers):
            raise f.fail(at, f"must stay within ±{EDIT_LIMIT:g}")
        moves[role] = numbers
    return MappingProxyType(moves)


def parse_pair(f: JsonFile, node: dict[str, Any], where: str, key: str, world: str,
               data: LessonData | None) -> Pair | None:
    """An optional selection by role (`answer.select`): at least one of query and key."""
    obj = f.obj(node, where, key, required=False)
    if obj is None:
        return None
    base = join(where, key)
    extra = sorted(set(obj) - {"query", "key"})
    if extra:
        raise f.fail(join(base, extra[0]), "is not part of a selection; use query or key")
    if not obj:
        raise f.fail(base, "must name a query, a key or both")
    if "query" in obj and world != "teaching":
        raise f.fail(join(base, "query"), f"the {world} world has one query to select")
    pair = Pair(f.text(obj, base, "query", required=False),
                f.text(obj, base, "key", required=False))
    if data is not None:
        roles = data.dialogue.roles if world == MOVABLE_WORLD else data.teaching.roles
        for name, role in (("query", pair.query_role), ("key", pair.key_role)):
            if role is not None and role not in roles:
                raise f.fail(join(base, name), f"must be a role of the {world} world "
                                               f"({', '.join(roles)}), found {describe(role)}")
    return pair


def with_moves(state: LabState, moves: MappingProxyType[str, tuple[float, ...]],
               data: LessonData) -> LabState:
    """`state` with the dialogue keys the scene moves at their scene positions."""
    if not moves:
        return state
    keys = np.array(state.dialogue_keys, dtype=np.float64)
    for role, vector in moves.items():
        keys[data.dialogue.key_index(role)] = vector
    return replace_fields(state, dialogue_keys=frozen_array(keys))


def with_pair(state: LabState, pair: Pair, world: str, data: LessonData) -> LabState | None:
    """`state` with `pair` selected, or None when the class has left the scene's world (the
    roles would name other tokens) or reshaped the 4-D world."""
    if state.world != world or (world == "teaching" and state.teaching_tokens is not None):
        return None
    if world == MOVABLE_WORLD:
        key = (state.key if pair.key_role is None
               else data.dialogue.key_index(pair.key_role))
        return replace_fields(state, key=key)
    teaching = data.teaching
    query = state.query if pair.query_role is None else teaching.index(pair.query_role)
    key = state.key if pair.key_role is None else teaching.index(pair.key_role)
    return replace_fields(state, query=query, key=key)
