"""How far an episode has come along a reference solution: the one progress tracker.

An act (`Act`: one action an episode carried out, its element by role and name) does a
reference step when it is the same kind of action on the same element (roles equal,
names agree exactly as `tasks/reference/names.py` compares names read off one page tree,
the n-th of several same-named elements where the step names one and the act says which
it was) with the same value: a choice (a click on an option, or an option typed into a
menu) by the option, typing by the text (in a search field, one holding the other's
words), keys and addresses as they are. An act on the step's element with another value
is `OTHER_VALUE`.

The position is the first reference step not yet done. Only the step at the position
counts, or the step a selection oracle aimed at when it passed over steps no
demonstration covers (`aim`); steps that only prepare the next (a clear, a hover, a
scroll) may be passed over by an act that does the step after them. Any other act leaves
the position where it was. `values_count=False` counts an act on the right element
with another value as done (the oracles: the value is the policy's business).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tasks.reference.coverage import Cover
from tasks.reference.names import names_agree, same_address, values_agree
from tasks.reference.steps import MENU_ROLES, OPTION_ROLES, ReferenceStep, ordinal

DONE, OTHER_VALUE = "done", "other value"  # how an act does a step ("": it does not)
ACTING_KINDS = frozenset({"click", "type", "select", "goto", "press", "go_back", "go_forward", "new_tab",
                          "close_tab", "tab_focus"})  # fmt: skip


@dataclass
class Act:
    """One action an episode carried out, in the terms of a reference solution."""

    step: int  # the episode step (1-based)
    kind: str  # click, type, select, clear, hover, scroll, goto, press, stop, ... ("none": no readable action)
    ok: bool
    element_id: str = ""
    role: str = ""
    name: str = ""
    known: bool = True  # False: an element action whose element the records do not name
    value: str = ""  # typed text, chosen option, address, keys or answer
    nth: int | None = None  # which of several same-named elements it was (None: not known)
    extra: dict[str, Any] = field(default_factory=dict)  # the step's policy info

    @classmethod
    def of(cls, step: int, kind: str, ok: bool, element_id: str = "", role: str = "", name: str = "",
           value: str = "", known: bool = True, nth: int | None = None,
           extra: dict[str, Any] | None = None) -> Act:  # fmt: skip
        """An act as carried out, a choice made a `select`: an option typed into a menu, a click on an option."""
        if kind == "type" and role in MENU_ROLES:
            kind = "select"
        elif kind == "click" and role in OPTION_ROLES:
            kind, value = "select", name
        return cls(step, kind, ok, element_id, role, name, known, value, nth, extra or {})

    @property
    def shown_trajectory(self) -> str | None:
        """The trajectory the step's policy info says was shown (its `demonstration` record), if any."""
        demonstration = self.extra.get("demonstration")
        return demonstration.get("trajectory_id") if isinstance(demonstration, dict) else None

    @property
    def demonstrated_step(self) -> int | None:
        """Which step (from 1) of the shown trajectory this act carried out, where the policy records it (replay)."""
        demonstrated = self.extra.get("demonstrated")
        return demonstrated.get("step") if isinstance(demonstrated, dict) else None

    @property
    def acting(self) -> bool:
        """Whether it could change what the task is judged on (not a scroll, hover, clear or failed step)."""
        return self.ok and self.kind in ACTING_KINDS

    def describe(self) -> str:
        element = f"{self.role} {self.name!r}" if self.known and self.role else f"[{self.element_id}]"
        if self.kind == "type":
            return f"type {self.value!r} into {element}"
        if self.kind == "select":
            return f"choose {self.value!r} in {element}" if self.role in MENU_ROLES else f"choose {self.value!r}"
        if self.kind in ("goto", "press", "stop"):
            return f"{self.kind} [{self.value}]"
        return f"{self.kind} {element}" if self.element_id else self.kind


def does(act: Act, step: ReferenceStep) -> str:
    """DONE, OTHER_VALUE or "" (module docstring)."""
    if not act.ok:
        return ""
    if step.kind == "select":
        if act.kind != "select":
            return ""
        if names_agree(act.value, step.chosen, exact=True):
            return DONE
        same_menu = step.types_into_menu and act.known and names_agree(act.name, step.name, exact=True)
        return OTHER_VALUE if same_menu else ""
    if act.kind != step.verb:
        return ""
    if step.verb == "goto":
        return DONE if same_address(act.value, step.value) else ""
    if step.verb == "press":
        return DONE if act.value.strip().casefold() == step.value.strip().casefold() else ""
    if step.target is None or not act.known or act.role != step.role:
        return ""
    if not names_agree(act.name, step.name, exact=True):
        return ""
    if step.nth and act.nth is not None and act.nth != step.nth:
        return ""
    if step.verb == "type" and not values_agree(act.value, step.value, "search" in f"{step.role} {step.name}".lower()):
        return OTHER_VALUE
    return DONE


class ReferenceProgress:
    """The position along a task's reference steps, moved by the acts carried out (module docstring)."""

    def __init__(self, steps: list[ReferenceStep], values_count: bool = True) -> None:
        self.steps = steps
        self.values_count = values_count
        self.position = 0
        self.target = 0  # the step the next act should do: the position, or a later step selection aimed at

    def step(self, index: int) -> ReferenceStep | None:
        return self.steps[index] if 0 <= index < len(self.steps) else None

    @property
    def next_step(self) -> ReferenceStep | None:
        """The step the next act should do (None past the end)."""
        return self.step(self.target)

    @property
    def stuck_at(self) -> ReferenceStep | None:
        """The first step still to do that an episode is judged on (None: all done up to the stop)."""
        index = self.position
        while (step := self.step(index)) is not None and step.verb != "stop":
            if step.judged:
                return step
            index += 1
        return None

    @property
    def finished(self) -> bool:
        return self.stuck_at is None

    def aim(self, index: int) -> None:
        """Let the next act do step `index`, passing over the steps before it."""
        self.target = max(self.position, index)

    def why_none_chosen(self, uncovered: str) -> str:
        """Aim back at the current step and say why no demonstration is chosen for it: the reference's stop is
        next, or else `uncovered` (how the remaining steps went uncovered)."""
        self.aim(self.position)
        step = self.step(self.position)
        if step is None or step.verb == "stop":
            return f"the reference solution's next step is its stop ({step.text if step else 'none left'})"
        return uncovered

    def counts(self, how: str) -> bool:
        return how == DONE or (how == OTHER_VALUE and not self.values_count)

    def position_after(self, act: Act) -> int:
        """The position once `act` is carried out."""
        for start in dict.fromkeys((self.position, self.target)):
            index = start
            while (step := self.step(index)) is not None and step.verb != "stop":
                if self.counts(does(act, step)):
                    return index + 1
                if step.judged:
                    break
                index += 1  # a clear, hover or scroll the act may pass over
        return self.position

    def advance(self, act: Act) -> list[ReferenceStep]:
        """Move the position for `act`; the steps it did (passed over ones included)."""
        before = self.position
        self.position = self.position_after(act)
        self.target = self.position
        return self.steps[before : self.position]

    def record(self) -> dict[str, Any]:
        step = self.step(self.position)
        return {"position": self.position, "next": step.text if step else None, "of": len(self.steps)}


@dataclass
class Followed:
    """An episode followed along a reference solution, act by act."""

    progress: ReferenceProgress
    left_at: int  # index of the first act after the one that did the last judged step (where the episode left)
    done: dict[int, int]  # judged step number -> index of the act that did it


def follow(acts: list[Act], steps: list[ReferenceStep], values_count: bool = True) -> Followed:
    """Every act in turn through the tracker: how far the episode came, and which act did which step. The loss
    account and the oracles' blame both read an episode this way, so they stop at the same step."""
    progress = ReferenceProgress(steps, values_count)
    done: dict[int, int] = {}
    left_at = 0
    for index, act in enumerate(acts):
        for step in progress.advance(act):
            if step.judged:
                done[step.number], left_at = index, index + 1
    return Followed(progress, left_at, done)


def nth_words(step: ReferenceStep) -> str:
    return f"the {ordinal(step.nth + 1)} {step.role} {step.name!r} of several"


def covers_ahead(covers: list[Cover], done: list[Act]) -> list[Cover]:
    """The covers whose place in their trajectory is still ahead of what `done` carried out of that trajectory: one
    behind it was passed over, and following the trajectory on does not come back to it (a new choice would)."""
    reached: dict[str, int] = {}
    for act in done:
        tid, place = act.shown_trajectory, act.demonstrated_step
        if tid and place:
            reached[tid] = max(reached.get(tid, 0), place)
    return [cover for cover in covers if cover.position + 1 > reached.get(cover.trajectory_id, 0)]
