"""Owns reshaping the 4-D teaching world: adding, removing and renaming tokens and changing
its width d, as pure functions from one `LabState` to the next (no Qt).

The document turns each into one undo step; the rules here (name limits, token counts, the
width's range) are the single place both the document and the editor's controls ask.
Roles (the lesson's "query" 给了, "object" 苹果 …) follow the token's *name*: a removed or
renamed role token no longer plays it, and the lesson's selection falls back (see
`role_row`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from app.model.jsonfile import describe
from app.model.lesson.data import MAX_TOKENS, LessonData
from app.model.scoring import SCORERS
from app.model.state import LabState, Options, frozen_array
from app.model.token_names import MAX_NAME as MAX_NAME  # the editor and document ask here
from app.model.token_names import MIN_TOKENS as MIN_TOKENS  # (so the names are exported)
from app.model.token_names import NAME_RULES
from app.model.token_names import name_problem as name_problem

MIN_DIM, MAX_DIM = 2, 8
"""The teaching world's width: 2 still shows a plane's worth, 8 still fits the editor's boxes."""
FALLBACK_ROLES = {"query": -1, "object": 0}
"""Where a role goes when its token is gone: the query is the last token (it looks back at the
sentence), the object the first one."""


def tokens_of(state: LabState, data: LessonData) -> tuple[str, ...]:
    """The teaching world's token names now: the state's own after a reshape, else the data's."""
    if state.teaching_tokens is not None:
        return state.teaching_tokens
    return tuple(data.teaching.tokens)


def colour_slots(state: LabState, data: LessonData) -> tuple[int, ...]:
    """Each teaching token's colour slot, in row order. A token keeps its slot through a
    rename and while others come and go, so its colour in every panel follows the token,
    not the row it happens to sit in."""
    if state.teaching_colours is not None:
        return state.teaching_colours
    return tuple(range(len(tokens_of(state, data))))


def world_colour_slots(state: LabState, data: LessonData) -> tuple[int, ...]:
    """The active world's key colour slots: the teaching world's own, any other world's by
    row (its tokens are never added or removed)."""
    if state.world == "teaching":
        return colour_slots(state, data)
    return tuple(range(len(state.vectors[1])))


def free_slot(slots: tuple[int, ...]) -> int:
    """The lowest slot no token holds: an added token takes the colour a removed one left."""
    return next(slot for slot in range(len(slots) + 1) if slot not in slots)


def new_name(tokens: tuple[str, ...], stem: str) -> str:
    """The first free "stem N" name (N counting from the next position), for an added token."""
    number = len(tokens) + 1
    while f"{stem}{number}" in tokens:
        number += 1
    return f"{stem}{number}"


def role_index(state: LabState, data: LessonData, role: str) -> int | None:
    """The token playing `role` in the current world, found by the data's name for it; None
    when that token was removed or renamed."""
    name = data.teaching.tokens[data.teaching.index(role)]
    tokens = tokens_of(state, data)
    return tokens.index(name) if name in tokens else None


def role_row(state: LabState, data: LessonData, role: str) -> int:
    """The role's token, or where the role falls back to (`FALLBACK_ROLES`): always a valid
    row of the teaching world, so panels quoting "the query's row" never index past it."""
    found = role_index(state, data, role)
    if found is not None:
        return found
    count = len(tokens_of(state, data))
    return FALLBACK_ROLES.get(role, 0) % count


def teaching_selection(state: LabState, data: LessonData) -> tuple[int, int]:
    """The lesson's pair in the current teaching world: the query token against its object,
    or their fallbacks when the world no longer has them."""
    return role_row(state, data, "query"), role_row(state, data, "object")


def count_problem(count: int) -> str | None:
    """Why a world of `count` tokens cannot be made ("too_few" / "too_many"), or None."""
    if count < MIN_TOKENS:
        return "too_few"
    if count > MAX_TOKENS:
        return "too_many"
    return None


def add_token(state: LabState, data: LessonData, name: str) -> LabState:
    """Append a token named `name` whose q and k start at zero (to be dragged into place).
    The caller has checked the name and the count."""
    tokens = (*tokens_of(state, data), name)
    slots = colour_slots(state, data)
    d = state.teaching_q.shape[1]
    zeros = np.zeros((1, d))
    return replace(state, teaching_tokens=tokens, teaching_colours=(*slots, free_slot(slots)),
                   teaching_q=frozen_array(np.vstack([state.teaching_q, zeros])),
                   teaching_k=frozen_array(np.vstack([state.teaching_k, zeros])))


def rename_token(state: LabState, data: LessonData, index: int, name: str) -> LabState:
    tokens = list(tokens_of(state, data))
    tokens[index] = name
    return replace(state, teaching_tokens=tuple(tokens),
                   teaching_colours=colour_slots(state, data))


def remove_token(state: LabState, data: LessonData, index: int) -> LabState:
    """Drop one token's q and k. The selected pair keeps pointing at the same tokens; a
    selected token that is gone falls back to the lesson's pair (by roles)."""
    tokens = tokens_of(state, data)
    kept = tokens[:index] + tokens[index + 1:]
    slots = colour_slots(state, data)
    moved = replace(state, teaching_tokens=kept, teaching_colours=slots[:index] + slots[index + 1:],
                    teaching_q=frozen_array(np.delete(state.teaching_q, index, axis=0)),
                    teaching_k=frozen_array(np.delete(state.teaching_k, index, axis=0)))
    if state.world != "teaching":
        return moved
    fallback = teaching_selection(moved, data)

    def follow(selected: int, spare: int) -> int:
        if selected == index:
            return spare
        return selected - 1 if selected > index else selected

    return replace(moved, query=follow(state.query, fallback[0]),
                   key=follow(state.key, fallback[1]))


def weights_fit(state: LabState, data: LessonData) -> bool:
    """The data's learned weights (additive W₁, W₂, v; QK-norm's gain) are per dimension of
    the lesson's width: they still apply while the world keeps that width, and only then."""
    return bool(state.teaching_q.shape[1] == data.teaching.W_Q.shape[1])


def needs_weights(scorer: str) -> bool:
    """The scorer reads learned weights (additive, QK-norm) rather than q and k alone."""
    return SCORERS[scorer].needs is not None


def scorer_problem(state: LabState, lesson_d: int, scorer: str) -> str | None:
    """Why `scorer` cannot score the state's world, in English (for a file or the command
    line), or None when it can. The one check behind the greyed-out scorer list, the scenario
    reader and the headless export: learned weights that do not fit a reshaped teaching world
    (`lesson_d` is the lesson's width), or that an imported capture does not carry."""
    if state.world == "imported" and state.imported is not None:
        if state.imported.available(scorer):
            return None
        return (f"{state.imported.source} has no learned weights for {scorer} (see README, "
                "Bring your own model)")
    d = state.teaching_q.shape[1]
    if state.world == "teaching" and needs_weights(scorer) and d != lesson_d:
        return (f"{scorer} needs the learned weights of the lesson's d = {lesson_d}; this "
                f"world has d = {d}")
    return None


def scorer_usable(state: LabState, data: LessonData, scorer: str) -> bool:
    """False for a scorer whose learned weights do not fit the reshaped teaching world, or
    that needs weights an imported capture does not carry (see `scorer_problem`)."""
    return scorer_problem(state, data.teaching.W_Q.shape[1], scorer) is None


def usable_scorer(state: LabState, data: LessonData) -> LabState:
    """The same state, on the dot product if its scorer cannot score this world."""
    if scorer_usable(state, data, state.scorer):
        return state
    return replace(state, scorer="dot")


def with_dimension(state: LabState, data: LessonData, d: int) -> LabState:
    """Change the width to `d`: new columns are zero, dropped columns are gone. The caller
    has checked the range. A scorer whose learned weights no longer fit gives way to the dot
    product, and two heads need an even width, so an odd one goes back to one head."""
    old = state.teaching_q.shape[1]

    def fitted(matrix: np.ndarray) -> np.ndarray:
        if d <= old:
            return frozen_array(matrix[:, :d])
        return frozen_array(np.hstack([matrix, np.zeros((len(matrix), d - old))]))

    moved = replace(state, teaching_tokens=tokens_of(state, data),
                    teaching_colours=colour_slots(state, data),
                    teaching_q=fitted(state.teaching_q), teaching_k=fitted(state.teaching_k))
    moved = usable_scorer(moved, data)
    if moved.options.heads > 1 and d % moved.options.heads:
        moved = replace(moved, options=replace(moved.options, heads=1))
    return moved


def heads_problem(state: LabState, options: Options) -> tuple[str, str] | None:
    """Heads split the teaching world's columns evenly: two heads need an even width."""
    d = state.teaching_q.shape[1]
    if options.heads > 1 and d % options.heads:
        return "heads", f"{options.heads} heads need a width d they divide; d is {d}"
    return None


# ---- the scenario file's part -----------------------------------------------------------

Fail = Callable[[str, str], Exception]


def read_tokens(value: Any, fail: Fail) -> tuple[str, ...] | None:
    """A scenario's `teaching_tokens` (absent or null: the data's), by the editor's rules."""
    if value is None:
        return None
    where = "teaching_tokens"
    if not isinstance(value, list):
        raise fail(where, f"must be a list of token names, found {describe(value)}")
    if count_problem(len(value)) is not None:
        raise fail(where, f"must name {MIN_TOKENS} to {MAX_TOKENS} tokens, found {len(value)}")
    names: tuple[str, ...] = ()
    for i, name in enumerate(value):
        if not isinstance(name, str):
            raise fail(f"{where}[{i}]", f"must be a name, found {describe(name)}")
        problem = name_problem(name, names)
        if problem is not None:
            raise fail(f"{where}[{i}]", NAME_RULES[problem])
        names += (name,)
    return names


def read_colours(value: Any, tokens: tuple[str, ...] | None, fail: Fail) -> tuple[int, ...] | None:
    """A scenario's `teaching_colours` (absent or null: each token's row): one distinct slot
    per named token, so every token keeps the colour it was saved with."""
    if value is None:
        return None
    where = "teaching_colours"
    if tokens is None:
        raise fail(where, "needs teaching_tokens: colours belong to named tokens")
    if not isinstance(value, list) or len(value) != len(tokens):
        raise fail(where, f"must be a list of {len(tokens)} whole numbers (one per token), "
                   f"found {describe(value)}")
    slots: tuple[int, ...] = ()
    for i, slot in enumerate(value):
        if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < MAX_TOKENS:
            raise fail(f"{where}[{i}]", f"must be a whole number from 0 to {MAX_TOKENS - 1}, "
                       f"found {describe(slot)}")
        if slot in slots:
            raise fail(f"{where}[{i}]", "appears twice; each token has its own colour")
        slots += (slot,)
    return slots


def teaching_shape(rows: Any, tokens: tuple[str, ...] | None, lesson: tuple[int, ...],
                   fail: Fail) -> tuple[int, int]:
    """The (T, d) a scenario's teaching Q and K must have: the lesson's, or for a reshaped
    world one row per name and the width of its first row, within MIN_DIM … MAX_DIM."""
    if tokens is None:
        return lesson[0], lesson[1]
    first = rows[0] if isinstance(rows, list) and rows else None
    if not isinstance(first, list):
        return len(tokens), lesson[1]  # the matrix reader names what is wrong
    if not (MIN_DIM <= len(first) <= MAX_DIM or len(first) == lesson[1]):
        raise fail("vectors.teaching.Q[0]", f"must have {MIN_DIM} to {MAX_DIM} numbers "
                   f"(the width d), found {len(first)}")
    return len(tokens), len(first)
