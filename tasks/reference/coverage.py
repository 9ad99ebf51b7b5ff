"""Which trajectories cover a task's reference solution, by names alone (no page needed): the one coverage engine.

A demonstration covers reference steps when its steps, in order, do what those steps do:
- the demonstration's scrolls, hovers, drags and pauses are left out (the replay policy
  does not carry them out), and an Enter pressed right after typing is part of the typing;
- the reference's `clear` of a field is part of the typing that follows into it (the
  replay clears a field on its own), and its `stop` ends what can be covered;
- a demonstrated click matches a reference click; a demonstrated choice (`select`)
  matches a reference choice (a click on an option, or typing into a menu), compared by
  the option chosen; typing matches typing, compared by the field's name (the typed text
  is the task's, put in by the policy); keys and addresses must be the same;
- names match as `tasks/reference/names.py` says: EXACT (they agree as labels are
  scored, or are one misreading apart) or STANDING_IN (the tutorial's value in the place
  where the task has its own).

`covering` ranks trajectories by how many of the reference's next steps they cover in a
row (from their first step: what the replay policy follows; or from any of their steps:
what a model shown the whole trajectory can use), then by how many of those are exact
matches, then the fewest steps, then the order given (the index's). `cover_chain` walks a
whole reference solution through them. The same rules judge labeled trajectories (what
the index holds) and a tutorial's ground-truth log (`truth_trajectory`: what it shows).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from foundation.records.trajectory import LabeledAction, Trajectory
from tasks.reference.names import EXACT, names_match, same_address
from tasks.reference.steps import ReferenceStep

NOT_REPLAYED = frozenset({"scroll", "hover", "drag", "wait", "idle", "wander"})
CLICKS = frozenset({"click", "right_click"})


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


def step_match(action: LabeledAction, step: ReferenceStep, intent: str) -> int:
    """How a demonstrated action does what the reference step does: EXACT, STANDING_IN or 0 (module docstring)."""
    if step.kind == "select":
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


@dataclass
class Cover:
    """How much of the reference's next steps a trajectory covers."""

    trajectory: Trajectory
    start: int  # index in trajectory.actions of its first matched step
    matched: int  # reference steps covered, in a row, from the first one given
    exact: int  # of those, the ones matched by name, not standing in
    steps: list[int]  # the matched actions' indices
    first_exact: bool = True  # False: the first step is covered by the tutorial's value standing in for the task's

    @property
    def trajectory_id(self) -> str:
        return self.trajectory.trajectory_id

    @property
    def position(self) -> int:
        """The place (0-based, among all its actions) of the trajectory's action that does the first step."""
        return self.start

    @property
    def label(self) -> str:
        return self.trajectory.actions[self.start].describe()

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
        hows: list[int] = []
        for index, step in zip(done[position:], wanted):
            how = step_match(trajectory.actions[index], step, intent)
            if not how:
                break
            matched.append(index)
            hows.append(how)
        exact = sum(how == EXACT for how in hows)
        if matched and (best is None or (len(matched), exact) > (best.matched, best.exact)):
            best = Cover(trajectory, first, len(matched), exact, matched, hows[0] == EXACT)
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


def truth_trajectory(video_id: str, log: list[LabeledAction]) -> Trajectory:
    """A tutorial's whole ground-truth log as one trajectory, to ask what the tutorial shows (not what was labeled)."""
    start = log[0].start_s if log else 0.0
    end = log[-1].end_s if log else 0.0
    return Trajectory(f"{video_id}/log", video_id, "(the tutorial's ground-truth log)", list(log), [""] * len(log),
                      "", "", start, end, (0, max(len(log) - 1, 0)), objective_source="ground_truth")  # fmt: skip


def _is_enter(action: LabeledAction) -> bool:
    return action.kind == "press" and action.text.strip().lower() in ("enter", "return")
