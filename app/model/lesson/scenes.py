"""Owns the lesson's scenes: `data/lesson-scenes.json`, validated on load, and the state each
scene sets up.

A scene is data a teacher can edit: which world, scorer, selection and options it starts from,
which panels it shows (data first), what to look at, and an answer that may stay hidden until
the teacher reveals it. The file holds no words: each text is a catalogue key, so a language's
one catalogue carries the scenes too. Texts never carry a figure: numbers are {placeholders}
filled by the UI from computed values, so `check_texts` refuses any digit outside braces.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from dataclasses import replace as replace_fields
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, overload

from app.model.answers.poll import Localized, Poll, parse_poll
from app.model.errors import DataError
from app.model.jsonfile import JsonFile, describe, join
from app.model.lesson.data import DEFAULT_DATA_DIR, LessonData
from app.model.lesson.scene_setup import Pair, parse_moves, parse_pair, with_moves
from app.model.scoring import SCORERS
from app.model.state import WORLDS, LabState, Options, World, option_problem
from app.model.timeline import STAGES
from app.model.view import initial_state

__all__ = ["BLOCKS", "SCENES_FILE", "Lesson", "Scene", "SceneLayout",
           "Text", "check_texts", "load_scenes", "scene_state"]

SCENES_FILE = "lesson-scenes.json"
TEXT_KEY = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$")
"""How the file names a text: its catalogue key (`scene.design.prompt`)."""
PANEL_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
"""How a scene names a panel; which panels there are is the interface's to say."""
BLOCKS = ("intro", "step1", "step2", "measure", "step3", "checklist", "myth", "evidence",
          "summary", "next", "faq", "ask")
"""The guide's own blocks a scene may show under its notes (measure it here, the checklist…)."""
MAX_PANELS = 3
MAX_TEXT = 400
"""A scene says what to look at in one or two lines; longer text belongs in the blocks."""
LESSON_NUMBERS = ("this", "weights", "mask")
"""Course lesson numbers the texts may name ({lesson_weights}: softmax and √d come there)."""
_SETTABLE = tuple(f.name for f in fields(Options))


@dataclass(frozen=True)
class Text:
    """One text of a scene, by its catalogue key: the interface words it in the language on
    screen, filling its {placeholders} with computed values."""

    key: str


GUIDE_SHARE = 0.34
"""The guide's column's share of the window's width unless a scene asks for another."""
GUIDE_SHARES = (0.2, 0.5)
TOP_SHARE = 0.55
"""The first panel's share of the left column's height when another panel sits under it."""
TOP_SHARES = (0.25, 0.75)


@dataclass(frozen=True)
class SceneLayout:
    """How a scene shares the screen: the guide's column's width; the first panel's share
    of the left column's height (`top`), the next panel taking the rest; and a panel that
    sits in the guide's column under its notes (the `aside`, while another panel is shown
    to take the left) so the panel on the left keeps the full height. A teacher's projector
    can be as small as 1024×768, so a table and a plane cannot always share one column."""

    guide: float = GUIDE_SHARE
    aside: str | None = None
    top: float = TOP_SHARE


@dataclass(frozen=True)
class Scene:
    """One step of the lesson: its setup, its panels and its words."""

    id: str
    title: Text
    look: Text
    world: World
    scorer: str
    query_role: str | None
    key_role: str
    options: MappingProxyType[str, Any]  # checked by option_problem when read
    panels: tuple[str, ...]
    blocks: tuple[str, ...] = ()
    prompt: Text | None = None
    answer: Text | None = None
    answer_panels: tuple[str, ...] = ()
    layout: SceneLayout = SceneLayout()
    withheld: tuple[str, ...] = ()
    """Panels that keep back what would answer the question until it is revealed."""
    answer_blocks: tuple[str, ...] = ()
    """Guide blocks that answer the question: on the stage's notes band only once revealed."""
    answer_values: tuple[str, ...] = ()
    """The computed values ({placeholders}) that answer the question: never on the stage
    before Reveal (the tests look for them)."""
    poll: Poll | None = None
    question: Text | None = None
    """A question the stage puts to the class with no answer held back (the scene's talk is
    about it); a guess-first scene asks its `prompt` instead."""
    moves: MappingProxyType[str, tuple[float, ...]] = field(
        default_factory=lambda: MappingProxyType({}))
    """Keys of the 2-D sample this scene starts elsewhere, by role: the case it asks about."""
    reveal_select: Pair | None = None
    """The pair Reveal selects, by role: the one the answer speaks of."""
    answer_words: tuple[Text, ...] = ()
    """Words that would answer the question (a caption's \"only the direction\"): never on the
    stage before Reveal (the tests look for them)."""

    @property
    def hides_answer(self) -> bool:
        return self.answer is not None

    @property
    def texts(self) -> tuple[Localized, ...]:
        """Every text the scene shows, before and after Reveal."""
        choices = self.poll.choices if self.poll is not None else ()
        return tuple(text for text in (self.title, self.look, self.question, self.prompt,
                                       self.answer, *choices, *self.answer_words)
                     if text is not None)


@dataclass(frozen=True)
class Lesson:
    """Every scene in order, and the lesson numbers the texts refer to."""

    scenes: tuple[Scene, ...]
    lesson_numbers: MappingProxyType[str, int]
    path: Path

    def __len__(self) -> int:
        return len(self.scenes)


def _text_problem(text: str) -> str | None:
    """Why a scene text cannot be shown (a typed figure, a broken placeholder), or None."""
    if len(text) > MAX_TEXT:
        return f"is longer than {MAX_TEXT} characters"
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError as error:
        return f"has a broken {{placeholder}} ({error})"
    for literal, name, _spec, _conv in parts:
        if any(ch.isascii() and ch.isdigit() for ch in literal):
            return "types a number; write it as a {placeholder} the app computes"
        if name is not None and not name.isidentifier():
            return f"placeholder {{{name}}} must be a plain name"
    return None


@overload
def _text(f: JsonFile, node: dict[Any, Any], base: str, key: Any,
          required: Literal[True] = ...) -> Text: ...
@overload
def _text(f: JsonFile, node: dict[Any, Any], base: str, key: Any,
          required: bool) -> Text | None: ...
def _text(f: JsonFile, node: dict[Any, Any], base: str, key: Any,
          required: bool = True) -> Text | None:
    """The catalogue key at `node[key]`; its words are checked per language by `check_texts`."""
    if not required and key not in node:
        return None
    value = f.get(node, base, key)
    if not isinstance(value, str) or not TEXT_KEY.match(value):
        raise f.fail(join(base, key), f"must be a catalogue key such as scene.design.title, "
                                      f"found {describe(value)}")
    return Text(value)


def _names(f: JsonFile, node: dict[str, Any], base: str, key: str,
           allowed: tuple[str, ...] | None, required: bool = True,
           most: int | None = None) -> tuple[str, ...]:
    """A list of distinct names, each one of `allowed` (None: any plain lower-case name)."""
    if not required and key not in node:
        return ()
    values = f.items(node, base, key)
    where = join(base, key)
    if most is not None and len(values) > most:
        raise f.fail(where, f"must name at most {most}, found {len(values)}")
    for i, value in enumerate(values):
        if allowed is None and not (isinstance(value, str) and PANEL_NAME.match(value)):
            raise f.fail(join(where, i), f"must be a panel's name, found {describe(value)}")
        if allowed is not None and value not in allowed:
            raise f.fail(join(where, i), f"must be one of {', '.join(allowed)}, "
                                         f"found {describe(value)}")
        if value in values[:i]:
            raise f.fail(join(where, i), f"{value} is named twice")
    return tuple(values)


def _options(f: JsonFile, node: dict[str, Any], base: str) -> MappingProxyType[str, Any]:
    obj = f.obj(node, base, "options", required=False) or {}
    where = join(base, "options")
    for name in obj:
        if name not in _SETTABLE:
            raise f.fail(join(where, name), f"is not an option; use {', '.join(_SETTABLE)}")
    stage_id = obj.get("stage")
    if stage_id is not None and stage_id not in {s.id for s in STAGES}:
        raise f.fail(join(where, "stage"), f"must be a timeline stage, found {describe(stage_id)}")
    problem = option_problem(replace_fields(Options(), **obj))
    if problem is not None:
        raise f.fail(join(where, problem[0]), problem[1])
    return MappingProxyType(dict(obj))


def _layout(f: JsonFile, node: dict[str, Any], where: str,
            panels: tuple[str, ...]) -> SceneLayout:
    obj = f.obj(node, where, "layout", required=False)
    if obj is None:
        return SceneLayout()
    base = join(where, "layout")
    extra = sorted(set(obj) - {"guide", "aside", "top"})
    if extra:
        raise f.fail(join(base, extra[0]), "is not a layout choice; use guide, aside or top")
    aside = f.get(obj, base, "aside", required=False)
    if aside is not None and (aside not in panels or len(panels) < 2):
        raise f.fail(join(base, "aside"), f"must be one of the scene's panels "
                                          f"({', '.join(panels)}) when it has two or more, "
                                          f"found {describe(aside)}")
    shares = {}
    for key, default, bounds in (("guide", GUIDE_SHARE, GUIDE_SHARES),
                                 ("top", TOP_SHARE, TOP_SHARES)):
        value = f.number(obj, base, key, required=False)
        if value is not None and not bounds[0] <= value <= bounds[1]:
            raise f.fail(join(base, key), f"must be between {bounds[0]:g} and "
                                          f"{bounds[1]:g}, found {describe(value)}")
        shares[key] = default if value is None else value
    return SceneLayout(aside=aside, **shares)


def _scene(f: JsonFile, node: Any, where: str, data: LessonData | None,
           known: tuple[str, ...] | None) -> Scene:
    if not isinstance(node, dict):
        raise f.fail(where, f"must be an object, found {describe(node)}")
    world = f.get(node, where, "world")
    if world not in WORLDS:
        raise f.fail(join(where, "world"), f"must be one of {', '.join(WORLDS)}, "
                                           f"found {describe(world)}")
    scorer = f.get(node, where, "scorer")
    if scorer not in SCORERS:
        raise f.fail(join(where, "scorer"), f"must be a scorer ({', '.join(SCORERS)}), "
                                            f"found {describe(scorer)}")
    selection = f.obj(node, where, "selection")
    base = join(where, "selection")
    key_role = f.text(selection, base, "key")
    query_role = f.text(selection, base, "query", required=world == "teaching")
    if data is not None:
        roles = data.dialogue.roles if world == "dialogue" else data.teaching.roles
        for name, role in (("key", key_role), ("query", query_role)):
            if role is not None and role not in roles:
                raise f.fail(join(base, name), f"must be a role of the {world} world "
                                               f"({', '.join(roles)}), found {describe(role)}")
    answer = f.obj(node, where, "answer", required=False)
    answer_base = join(where, "answer")
    panels = _names(f, node, where, "panels", known, most=MAX_PANELS)
    hides, answer = answer is not None, answer or {}
    answer_panels = _names(f, answer, answer_base, "panels", known, required=False,
                           most=MAX_PANELS)
    shown = (*panels, *(n for n in answer_panels if n not in panels))
    blocks = _names(f, node, where, "blocks", BLOCKS, required=False)
    question = _text(f, node, where, "question", required=False)
    if question is not None and hides:
        raise f.fail(join(where, "question"), "a scene that holds an answer back asks its "
                                              "answer.prompt instead")
    return Scene(
        id=f.text(node, where, "id"),
        title=_text(f, node, where, "title"),
        look=_text(f, node, where, "look"),
        world=world, scorer=scorer, query_role=query_role, key_role=key_role,
        options=_options(f, node, where),
        panels=panels,
        blocks=blocks,
        prompt=_text(f, answer, answer_base, "prompt") if hides else None,
        answer=_text(f, answer, answer_base, "text") if hides else None,
        answer_panels=answer_panels,
        layout=_layout(f, node, where, shown),
        withheld=_names(f, answer, answer_base, "withhold", shown, required=False),
        answer_blocks=_names(f, answer, answer_base, "blocks", blocks or ("",),
                             required=False),
        answer_values=_names(f, answer, answer_base, "values", None, required=False),
        poll=(parse_poll(f, answer, answer_base, lambda obj, base, key: _text(f, obj, base, key))
              if hides else None),
        question=question,
        moves=parse_moves(f, node, where, world, data),
        reveal_select=parse_pair(f, answer, answer_base, "select", world, data),
        answer_words=_words(f, answer, answer_base),
    )


def _words(f: JsonFile, answer: dict[str, Any], base: str) -> tuple[Text, ...]:
    """The answer's `words`: a text each."""
    if "words" not in answer:
        return ()
    by_index = dict(enumerate(f.items(answer, base, "words")))
    return tuple(_text(f, by_index, join(base, "words"), i) for i in range(len(by_index)))


def load_scenes(data_dir: Path | str | None = None, data: LessonData | None = None,
                panels: tuple[str, ...] | None = None) -> Lesson:
    """The lesson's scenes from `data_dir` (default: the repo's data/); `data`, when given,
    lets the roles of each selection be checked too, `panels` (the interface's docks) the
    panels each scene shows. Raises DataError with a field path."""
    folder = Path(data_dir) if data_dir is not None else (
        data.data_dir if data is not None else DEFAULT_DATA_DIR)
    f = JsonFile(folder / SCENES_FILE)
    numbers_node = f.obj(f.root, "", "lessons")
    numbers = {name: f.integer(numbers_node, "lessons", name) for name in LESSON_NUMBERS}
    scenes = tuple(_scene(f, node, join("scenes", i), data, panels)
                   for i, node in enumerate(f.items(f.root, "", "scenes")))
    seen: set[str] = set()
    for i, scene in enumerate(scenes):
        if scene.id in seen:
            raise f.fail(join(join("scenes", i), "id"), f"{scene.id!r} is used twice")
        seen.add(scene.id)
    return Lesson(scenes, MappingProxyType(numbers), f.path)


def check_texts(lesson: Lesson, strings: Mapping[str, str], source: Path,
                complete: bool = False) -> None:
    """One language's words for the scenes (`strings`, read from the catalogue `source`),
    checked as the scene file once checked its own: no typed figure, plain {placeholders},
    short, the answer's `values` among its placeholders and no two choices alike. A text the
    language lacks comes from its fallback, unless it is `complete` (the base language).
    Raises DataError naming the catalogue and the key."""
    for scene in lesson.scenes:
        for text in scene.texts:
            words = strings.get(text.key)
            if words is None and complete:
                raise DataError(source, text.key, "is missing; every scene text needs words "
                                                  "in this catalogue")
            problem = None if words is None else _text_problem(words)
            if problem is not None:
                raise DataError(source, text.key, problem)
        if scene.answer is not None and scene.answer.key in strings:
            for name in scene.answer_values:
                if f"{{{name}}}" not in strings[scene.answer.key]:
                    raise DataError(source, scene.answer.key, f"must hold {{{name}}}, a value "
                                                              f"the scene's answer names")
        choices = scene.poll.choices if scene.poll is not None else ()
        seen = [strings.get(choice.key) for choice in choices]
        for i, words in enumerate(seen):
            if words is not None and words in seen[:i]:
                raise DataError(source, choices[i].key, "is the same text as an earlier choice")


def scene_state(scene: Scene, data: LessonData) -> LabState:
    """What the scene starts from: the data files' vectors (the texts quote them), the scene's
    world, scorer, selection and options. Pure, so setting a scene up twice gives one state."""
    roles_query = (data.teaching.index(scene.query_role)
                   if scene.world == "teaching" and scene.query_role else 0)
    key = (data.dialogue.key_index(scene.key_role) if scene.world == "dialogue"
           else data.teaching.index(scene.key_role))
    state = with_moves(initial_state(data), scene.moves, data)
    state = state.with_world(scene.world, (roles_query, key))
    return replace_fields(state, scorer=scene.scorer,
                          options=replace_fields(Options(), **scene.options))
