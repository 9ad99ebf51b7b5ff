"""Which indexed trajectories cover a task's reference solution, by names alone (no page needed).

A demonstration covers reference steps when its steps, in order, name what those
steps do. The comparison, step by step:
- the demonstration's scrolls, hovers and drags are left out (the replay policy does
  not carry them out), and an Enter pressed right after typing is part of the typing;
- the reference's `clear` of a field is part of the typing that follows into it (the
  replay clears a field on its own), and its `stop` ends what can be covered;
- a demonstrated click matches a reference click; a demonstrated choice (`select`)
  matches a reference click on an option (or typing into a menu), compared by the
  option chosen; typing matches typing, compared by the field's name (the typed
  text is the task's, put in by the policy); keys and addresses must be the same;
- names match (`names_match`) when they agree as labels are scored
  (processing/labeling_accuracy.py: equal, one inside the other, or half their words
  shared) or are one or two letters apart (an OCR misreading): an exact match; or,
  standing in, when the reference's name is a value the task names and the
  demonstrated one is a value it does not name, of the same shape (`shape`: a star
  rating, a number, one word written as a value rather than a label, such as
  a forum ("history", "DIY", not "Alphabetical"), a title of four or more words
  such as a product or a post; for a choice also a short capitalised name such as a
  colour or a size): the tutorial's value in the place where the task has its own.
  A task names a value when all its words stand in the intent, or, for a title, its
  first three (a product named short); a rating also as "5-star".

`covering` ranks a task's trajectories by how many of the reference's next steps they
cover in a row (from their first step: what the replay policy follows; or from any of
their steps: what a model shown the whole trajectory can use), then by how many of
those are exact matches, then the fewest steps, then the index's order.
`cover_chain` walks a whole reference solution through them (which trajectory covers
which steps, and which steps none covers).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from agent.oracles.reference import ReferenceStep
from processing.labeling_accuracy import names_agree, normalise_name
from foundation.records.trajectory import LabeledAction, Trajectory

NOT_REPLAYED = frozenset({"scroll", "hover", "drag"})
CLICKS = frozenset({"click", "right_click"})
SPELLING = 0.9  # names this alike letter by letter are one name misread
LONG_NAME_WORDS = 4  # a name this long (a product, a post title) is named by its first words
NAMED_BY_FIRST_WORDS = 3


def demonstrated_steps(actions: list[LabeledAction]) -> list[int]:
    """Indices of the actions a demonstration carries out, in order (see the module docstring)."""
    kept: list[int] = []
    for index, action in enumerate(actions):
        if action.kind in NOT_REPLAYED:
            continue
        if _is_enter(action) and kept and actions[kept[-1]].kind == "type":
            continue  # the Enter that ends the typing before it
        kept.append(index)
    return kept


def reference_steps_to_cover(steps: list[ReferenceStep]) -> list[ReferenceStep]:
    """The reference steps a demonstration can do, up to its stop: clears are part of the typing after them."""
    kept: list[ReferenceStep] = []
    for position, step in enumerate(steps):
        if step.verb == "stop":
            break
        following = steps[position + 1] if position + 1 < len(steps) else None
        if step.verb == "clear" and following is not None and following.verb == "type":
            continue
        kept.append(step)
    return kept


EXACT, STANDING_IN = 2, 1  # how a step matches (0: it does not)
VALUE_SHAPES = frozenset({"rating", "number", "word", "title"})  # values a click may stand in for


def step_match(action: LabeledAction, step: ReferenceStep, intent: str) -> int:
    """How a demonstrated action does what the reference step does: EXACT, STANDING_IN or 0 (module docstring)."""
    if step.chooses or (step.verb == "type" and step.target is not None and step.target.role == "combobox"):
        if action.kind == "select":
            chosen = action.text if step.chooses else action.target
            return names_match(chosen, step.name, intent, choice=True)
        if step.chooses and action.kind in CLICKS:
            return names_match(action.target, step.name, intent, choice=True)
        return 0
    if step.verb in ("click", "type", "hover"):
        kinds = CLICKS if step.verb == "click" else {step.verb}
        return names_match(action.target, step.name, intent) if action.kind in kinds else 0
    if step.verb == "press":
        return EXACT if action.kind == "press" and action.text.strip().lower() == step.value.strip().lower() else 0
    if step.verb == "goto":
        return EXACT if action.kind == "goto" and same_address(action.text, step.value) else 0
    return 0


def names_match(demonstrated: str, reference: str, intent: str, choice: bool = False) -> int:
    """EXACT, STANDING_IN (the tutorial's value where the task has its own) or 0."""
    a, b = normalise_name(demonstrated), normalise_name(reference)
    if not a or not b:
        return 0
    if names_agree(demonstrated, reference) or SequenceMatcher(None, a, b).ratio() >= SPELLING:
        return EXACT
    form = shape(reference)
    standing_in = (
        (choice or form in VALUE_SHAPES)
        and form == shape(demonstrated)
        and named_by_task(reference, intent)
        and not named_by_task(demonstrated, intent)
    )
    return STANDING_IN if standing_in else 0


def named_by_task(name: str, intent: str) -> bool:
    """The task names it: all its words (a rating also as "5-star"), or a title's first three, stand in the intent."""
    words = normalise_name(name).split()
    if not words:
        return False
    said = f" {normalise_name(intent)} "
    spellings = [words] + ([words[:-1] + [words[-1][:-1]]] if shape(name) == "rating" else [])
    if any(f" {' '.join(spelled)} " in said for spelled in spellings):
        return True
    return len(words) >= LONG_NAME_WORDS and f" {' '.join(words[:NAMED_BY_FIRST_WORDS])} " in said


def shape(name: str) -> str:
    """What sort of value a name looks like (module docstring)."""
    text = " ".join(name.split())
    if re.fullmatch(r"\d+ stars?", text.lower()):
        return "rating"
    if re.fullmatch(r"[\d.,$]+", text):
        return "number"
    words = text.split()
    if len(words) >= LONG_NAME_WORDS:
        return "title"
    if len(words) == 1:  # "Alphabetical", "Subscribers": a page's own label; "history", "DIY", "AskReddit": a value
        return "label" if text[:1].isupper() and text[1:].islower() else "word"
    return f"name of {len(words)}" if text[:1].isupper() else "other"


def same_address(a: str, b: str) -> bool:
    from urllib.parse import urlsplit

    def key(url: str) -> tuple[str, str]:
        parts = urlsplit(url.strip() if "://" in url else f"http://{url.strip()}")
        return parts.path.rstrip("/") or "/", parts.query

    return key(a) == key(b)


@dataclass
class Cover:
    """How much of the reference's next steps a trajectory covers."""

    trajectory: Trajectory
    start: int  # index in trajectory.actions of its first matched step
    matched: int  # reference steps covered, in a row, from the first one given
    exact: int  # of those, the ones matched by name, not standing in
    steps: list[int]  # the matched actions' indices

    def to_dict(self) -> dict[str, Any]:
        return {
            "trajectory_id": self.trajectory.trajectory_id,
            "objective": self.trajectory.objective,
            "covers": self.matched,
            "exact": self.exact,
            "from_step": self.start + 1,
        }


def cover(trajectory: Trajectory, steps: list[ReferenceStep], intent: str, from_start: bool = True) -> Cover | None:
    """The longest run of `trajectory`'s steps doing `steps` from the first one on; None when none does."""
    wanted = reference_steps_to_cover(steps)
    done = demonstrated_steps(trajectory.actions)
    starts = done[:1] if from_start else done
    best: Cover | None = None
    for first in starts:
        position = done.index(first)
        matched: list[int] = []
        exact = 0
        for index, step in zip(done[position:], wanted):
            how = step_match(trajectory.actions[index], step, intent)
            if not how:
                break
            matched.append(index)
            exact += how == EXACT
        if matched and (best is None or (len(matched), exact) > (best.matched, best.exact)):
            best = Cover(trajectory, first, len(matched), exact, matched)
    return best


def covering(
    trajectories: list[Trajectory], steps: list[ReferenceStep], intent: str, from_start: bool = True
) -> list[Cover]:
    """The trajectories that cover the first of `steps`, best first: most steps covered, then most of them exactly,
    then the fewest steps, then the order given (the index's order: the videos' order, then the tutorial's)."""
    found = [(order, c) for order, t in enumerate(trajectories) if (c := cover(t, steps, intent, from_start))]
    found.sort(key=lambda item: (-item[1].matched, -item[1].exact, len(demonstrated_steps(item[1].trajectory.actions)),
                                 item[0]))  # fmt: skip
    return [c for _, c in found]


def _is_enter(action: LabeledAction) -> bool:
    return action.kind == "press" and action.text.strip().lower() in ("enter", "return")


def cover_chain(
    trajectories: list[Trajectory], steps: list[ReferenceStep], intent: str, from_start: bool = True
) -> tuple[list[Cover], list[ReferenceStep]]:
    """The whole reference solution walked through, by names alone: at each step the best-ranked trajectory that
    covers it (the steps it covers are passed), or, when none does, that step listed as uncovered and the next
    one tried. A bound on what any selection could show from these trajectories, page aside."""
    wanted = reference_steps_to_cover(steps)
    chain: list[Cover] = []
    uncovered: list[ReferenceStep] = []
    position = 0
    while position < len(wanted):
        found = covering(trajectories, wanted[position:], intent, from_start)
        if found:
            chain.append(found[0])
            position += found[0].matched
        else:
            uncovered.append(wanted[position])
            position += 1
    return chain, uncovered
