"""Where a failed task was lost: the first stage that lost it, decided from its records against the reference.

    lost = lost_at(record, episode, reference_steps(solution.actions), tutorials)
    # {"stage": "covering_not_chosen", "evidence": {...}, "reason": "..."}

The episode is followed along the task's reference solution by the one reference tracker
(tasks/reference/progress.py: `episode_acts` gives what each step acted on; clears, hovers
and scrolls of the reference only prepare the next step). The first reference step not
done is where the episode left the reference's route, and what happened there names the
stage. Which trajectories show that step is the one coverage engine's answer
(tasks/reference/coverage.py: by names, a tutorial's value standing in for the task's),
asked of the labeled trajectories of the videos the policy had (what it could use) and
of those tutorials' ground-truth logs (what they show):

- `wrong_value`: it acted on that step's field or menu with another value; or it did
  every step and answered otherwise than the reference;
- `no_covering_trajectory`: not even the logs of the videos the policy had show the
  step, or the policy had no video at all;
- `mislabeled`: a tutorial's log shows it, but no labeled trajectory covers it (the labels
  lost it: the ladder's labels oracle is the fix);
- `covering_not_chosen`: labeled trajectories cover it, but the policy followed none of
  them from there on (the selection oracle's rung);
- `step_not_grounded`: it followed one, and the replay's records show that trajectory's step
  did not ground on the page, grounded on another element, or kept the tutorial's value where
  the task has its own (the grounding oracle's rung; the evidence sets the label beside the log);
- `evaluator`: the episode did every step of the reference, nothing else, and answered as it
  does, yet was scored failed;
- `other`: the episode did every step but others too (which of them the evaluator objected to
  is not decided), it ended before deciding anything, or the policy shows no demonstrations;
- `unknown`: what the records cannot decide: no reference solution, no index or no logs for
  the tutorials in question, an element the records do not name, a demonstration followed by
  a policy that does not record which of its steps it carried out (the method: its model
  grounds), or a reference step naming the n-th of several same-named elements.
A run that takes another route than the reference is judged where it leaves the reference's.
"""

from __future__ import annotations

import re
from typing import Any

from evaluation.reports.indexed_tutorials import IndexedTutorials
from evaluation.running.episode_acts import episode_acts
from foundation.records.task_record import TaskRecord
from tasks.reference.coverage import Cover, covering
from tasks.reference.names import answers_agree, names_agree, normalise_name
from tasks.reference.progress import OTHER_VALUE, Act, covers_ahead, does, follow, nth_words
from tasks.reference.steps import ReferenceStep

STAGES = (
    "no_covering_trajectory", "mislabeled", "covering_not_chosen", "step_not_grounded", "wrong_value", "evaluator",
    "other", "unknown",
)  # fmt: skip
# The oracle ladder's rung (cli/ladder.py) that replaces the stage a task was lost at; the other stages no oracle
# replaces. The same-blame test holds the ladder's oracles and this account to it.
RUNG_OF_STAGE = {"mislabeled": "labels", "covering_not_chosen": "selection", "step_not_grounded": "grounding"}
_NEVER_REPLAYED = ("scroll", "hover", "drag")  # the replay skips these by design; a skip of them is no failure
_SKIPPED = re.compile(r"^(?P<what>.*): does not ground here$")
_CONTINUATION = re.compile(r"its step (?P<n>\d+) \((?P<what>.*)\) does not ground here")


def lost(stage: str, reason: str, **evidence: Any) -> dict[str, Any]:
    assert stage in STAGES, stage
    return {"stage": stage, "evidence": {k: v for k, v in evidence.items() if v is not None}, "reason": reason}


def lost_at(
    record: TaskRecord,
    episode: dict[str, Any] | None,
    steps: list[ReferenceStep] | None,
    tutorials: IndexedTutorials | None,
    missing_reference: str = "no reference solution for this task",
    no_index: str = "no trajectory index to read",
) -> dict[str, Any]:
    """The account of one failed task (`record` and its episode.json); `steps` None when it has no reference,
    `tutorials` None when there is no index (the two texts say why, for the reason)."""
    info = record.policy_info or {}
    videos = _videos_available(info, tutorials)
    if steps is None:
        if videos == []:
            return _no_videos(info)
        return lost("unknown", f"{missing_reference}, so its episode cannot be compared with one")
    unnamed = [s for s in steps if s.verb in ("click", "type") and s.target is None]
    if unnamed:
        return lost("unknown", f"the reference solution's step {unnamed[0].number} ({unnamed[0].text}) names its "
                    "element by id, so the episode cannot be compared with it", reference_step=unnamed[0].number)
    acts = episode_acts(episode or {})
    followed = follow(acts, steps)
    stuck = followed.progress.stuck_at
    if stuck is not None:
        return _diverged(record, stuck, steps, acts, followed.left_at, info, videos, tutorials, no_index)
    return _completed(record, steps, [s for s in steps if s.judged], acts, followed.done)


# ---- the episode did every step ---------------------------------------------------------------------


def _completed(
    record: TaskRecord, steps: list[ReferenceStep], needed: list[ReferenceStep], acts: list[Act], done: dict[int, int]
) -> dict[str, Any]:
    used = set(done.values())
    last = max(used) if used else -1
    extra = [(i, act) for i, act in enumerate(acts) if act.acting and i not in used]
    after = [act for i, act in extra if i > last]
    finished = acts[last].step if used else None
    nth = next((s for s in needed if s.nth), None)
    stop = next((s for s in steps if s.verb == "stop"), None)
    answer = str(record.answer or "")
    besides = f" (with {len(extra)} other action(s) besides, first at step {extra[0][1].step})" if extra else ""
    if stop is not None and stop.value.strip() and not answers_agree(stop.value, answer):
        if nth is not None:
            return lost("unknown", f"the episode did every step of the reference solution{besides} and answered "
                        f"{answer!r} where it answers {stop.value!r}, but its step {nth.number} names "
                        f"{nth_words(nth)}, and the records do not say which of them was used",
                        reference_step=nth.number)  # fmt: skip
        return lost("wrong_value", f"the episode did every step of the reference solution{besides} but answered "
                    f"{answer!r} where the reference answers {stop.value!r}", step=_stop_step(acts),
                    element="answer", expected=stop.value, given=answer)  # fmt: skip
    if extra:
        where = f"then {len(after)} more" if after else f"with {len(extra)} other"
        first = (after or [act for _, act in extra])
        listed = "; ".join(f"step {act.step} {act.describe()}" for act in first[:3])
        return lost("other", f"the episode did every step of the reference solution (by step {finished}), {where} "
                    f"action(s): {listed}; which of them the evaluator objected to is not decided",
                    step=first[0].step, element=first[0].describe())  # fmt: skip
    if nth is not None:
        return lost("unknown", f"the episode did every step of the reference solution and nothing else, but its "
                    f"step {nth.number} names {nth_words(nth)}, and the records do not say which of them was used",
                    reference_step=nth.number)  # fmt: skip
    failing = [v for v in record.verdicts or [] if v.status == "failed"]
    judged = ", ".join(v.eval_type + (f": {v.message}" if v.message else "") for v in failing)
    return lost("evaluator", "the episode did every step of the reference solution, nothing else, and answered as "
                f"it does, yet was scored failed ({judged or 'no failing verdict recorded'})", step=finished,
                element=", ".join(v.eval_type for v in failing) or None)  # fmt: skip


# ---- where the episode left the reference --------------------------------------------------------


def _diverged(
    record: TaskRecord,
    step: ReferenceStep,
    steps: list[ReferenceStep],
    acts: list[Act],
    start: int,
    info: dict[str, Any],
    videos: list[str] | None,
    tutorials: IndexedTutorials | None,
    no_index: str,
) -> dict[str, Any]:
    """The account when the episode never did `step`; `acts[start:]` is what it did after the step before."""
    window = acts[start:]
    needed = f"step {step.number} of the reference solution ({step.describe()})"
    anonymous = next((act for act in window if act.acting and act.element_id and not act.known), None)
    if anonymous is not None:
        return lost("unknown", f"the episode never did {needed}; its step {anonymous.step} acted on element "
                    f"[{anonymous.element_id}], which its records do not name", step=anonymous.step,
                    reference_step=step.number)  # fmt: skip
    wrong = _other_value(step, window)
    if wrong is not None:
        return wrong
    if videos == []:
        return _no_videos(info, step)
    if tutorials is None:
        return lost("unknown", f"the episode never did {needed}; with {no_index}, which trajectories demonstrate it "
                    "is not known", reference_step=step.number, element=step.describe())
    intent = str(record.intent or "")
    remaining = steps[steps.index(step):]
    covers = covering(tutorials.trajectories(videos or []), remaining, intent, from_start=False)
    if not covers:
        return _not_covered(record, step, remaining, needed, videos or [], tutorials)
    by_id: dict[str, Cover] = {}
    for cover in sorted(covers_ahead(covers, acts[:start]), key=lambda c: c.position):  # still ahead of the policy
        by_id.setdefault(cover.trajectory_id, cover)
    shown = [(act, act.shown_trajectory) for act in window]
    foreign = next((tid for _, tid in shown if tid and tutorials.video_of(tid) is None), None)
    if foreign is not None:
        return lost("unknown", f"the episode never did {needed}; it followed {foreign}, which the index "
                    f"{tutorials.source} no longer holds (rebuilt since the run?)", trajectory_id=foreign,
                    reference_step=step.number)  # fmt: skip
    # The demonstration being followed when the step before was done, then those shown after it.
    carrying = [(acts[start - 1], acts[start - 1].shown_trajectory)] if start > 0 else []
    followed = next(((act, tid) for act, tid in carrying + shown if tid in by_id), None)
    if followed is not None:
        # Only the replay records which demonstrated step each action carried out and where it grounded.
        grounding = any("replayed" in act.extra or "demonstrated" in act.extra for act in acts)
        return _not_grounded(step, needed, window, followed[0], by_id[followed[1]], tutorials, grounding)
    if not _shows_demonstrations(window, info):
        if not window:
            return lost("other", f"the episode ended ({record.stop_reason or 'no reason recorded'}) before "
                        f"{needed}", reference_step=step.number, element=step.describe())  # fmt: skip
        return lost("other", f"the episode never did {needed}, and the policy's records name no demonstration it "
                    "followed", reference_step=step.number, element=step.describe())  # fmt: skip
    return _not_chosen(step, needed, window, covers, shown, carrying[0][1] if carrying else None)


def _other_value(step: ReferenceStep, window: list[Act]) -> dict[str, Any] | None:
    """wrong_value when an act did the step's field or menu with another value."""
    for act in window:
        if does(act, step) != OTHER_VALUE:
            continue
        what = "typed" if act.kind == "type" else "chose"
        substitutions = (act.extra.get("replayed") or {}).get("substitutions")
        filled = "; the replay put no task value in its place" if "replayed" in act.extra and not substitutions \
            else ""  # fmt: skip
        expected = step.chosen or step.value
        return lost("wrong_value", f"at step {act.step} the episode {what} {act.value!r} in {act.role} "
                    f"{act.name!r} where step {step.number} of the reference solution has {expected!r}{filled}",
                    step=act.step, reference_step=step.number, trajectory_id=act.shown_trajectory, element=act.name,
                    expected=expected, given=act.value, substitutions=substitutions)  # fmt: skip
    return None


def _not_covered(
    record: TaskRecord,
    step: ReferenceStep,
    remaining: list[ReferenceStep],
    needed: str,
    videos: list[str],
    tutorials: IndexedTutorials,
) -> dict[str, Any]:
    """No labeled trajectory of `videos` covers `step`: mislabeled when a tutorial's log shows it."""
    intent = str(record.intent or "")
    shown = covering(tutorials.truths(videos), remaining, intent, from_start=False)
    if shown:
        truth = shown[0]
        return lost("mislabeled", f"the episode never did {needed}; the log of {truth.trajectory.video_id} shows it "
                    f"({truth.label} at {truth.trajectory.actions[truth.start].start_s:.1f} s), but no labeled "
                    f"trajectory of the index {tutorials.source} covers it: the labels lost it",
                    reference_step=step.number, element=step.describe(), videos=videos,
                    truth=truth.label)  # fmt: skip
    unlogged = tutorials.unlogged(videos)
    if unlogged:
        return lost("unknown", f"the episode never did {needed}; no logged tutorial demonstrates it, and "
                    f"{', '.join(unlogged)} have no ground-truth log ({tutorials.videos[unlogged[0]].log_path}), so "
                    "whether they do is not known", reference_step=step.number, element=step.describe())
    own = [v for v in _task_videos(record) if v not in videos]
    why = (f"its tutorial {', '.join(own)} is not among them (not in the index {tutorials.source})" if own
           else "no tutorial's log shows it")  # fmt: skip
    return lost("no_covering_trajectory", f"the episode never did {needed}, and no trajectory of the videos it had "
                f"({', '.join(videos)}) demonstrates it: {why}", reference_step=step.number, element=step.describe(),
                videos=videos, missing_tutorials=own or None)  # fmt: skip


def _not_chosen(
    step: ReferenceStep,
    needed: str,
    window: list[Act],
    covers: list[Cover],
    shown: list[tuple[Act, str | None]],
    carried: str | None,
) -> dict[str, Any]:
    """`carried`: the demonstration followed when the step before was done."""
    covering = list(dict.fromkeys(cover.trajectory_id for cover in covers))
    deciding = next((act for act, _ in shown if _decision(act) is not None), window[0] if window else None)
    if deciding is None:
        return lost("other", f"the episode ended before {needed}", reference_step=step.number)
    decision = _decision(deciding) or {}
    chosen = deciding.shown_trajectory or (carried if not decision else None)
    candidates = [c.get("trajectory_id") for c in decision.get("candidates") or [] if isinstance(c, dict)]
    offered = [tid for tid in covering if tid in candidates]
    passed = [entry for entry in (decision.get("stage1") or {}).get("passed_over") or []
              if str(entry).split(" ", 1)[0] in covering]  # fmt: skip
    how = f"followed {chosen}" if chosen else f"chose none ({decision.get('reason') or 'no reason recorded'})"
    if offered:
        how += f"; {offered[0]} was a candidate and lost"
    elif passed:
        how += f"; {passed[0]}"
    elif decision.get("candidates") is not None:
        how += "; none of them was a candidate"
    if deciding.extra.get("stop_reason") and deciding.kind == "stop":
        how += f", and stopped: {deciding.extra['stop_reason']}"
    return lost("covering_not_chosen", f"the episode never did {needed}; {len(covering)} trajectory(ies) demonstrate "
                f"it (e.g. {covering[0]}), but at step {deciding.step} the policy {how}", step=deciding.step,
                reference_step=step.number, trajectory_id=chosen, element=step.describe(), covering=covering[:5])


def _not_grounded(
    step: ReferenceStep,
    needed: str,
    window: list[Act],
    first: Act,
    cover: Cover,
    tutorials: IndexedTutorials,
    grounding: bool,
) -> dict[str, Any]:
    """The policy followed `cover`'s trajectory from `first` on; `grounding`: its records say where steps grounded."""
    tid, position = cover.trajectory_id, cover.position
    base = {"reference_step": step.number, "trajectory_id": tid}
    if not grounding:
        return lost("unknown", f"the episode never did {needed}; {tid} demonstrates it (its step {position + 1}) and "
                    f"was shown from step {first.step}, but the policy's records do not say which demonstrated step "
                    "its actions followed, so whether that step failed to ground is not known", step=first.step,
                    element=cover.label, **base)  # fmt: skip
    following = [act for act in window if act.shown_trajectory == tid]
    carried = [act for act in following if act.demonstrated_step == position + 1 and act.kind != "clear" and act.ok]
    if carried:
        act = carried[-1]
        if not cover.first_exact and act.kind == step.kind and (step.kind == "select" or act.role == step.role):
            # The grounding oracle grounds a stand-in on the task's own element: its rung replaces this.
            shown = cover.trajectory.actions[position]
            own = step.chosen or step.value or step.name
            return lost("step_not_grounded", f"at step {act.step} the replay carried out {tid}'s step {position + 1} "
                        f"({cover.label}) on {act.describe()}: the task's own {own!r} was not put in place of the "
                        f"tutorial's {shown.text or shown.target!r}", step=act.step, element=cover.label,
                        grounded_on=act.describe(), expected=own, given=act.value or act.name, **base)  # fmt: skip
        note = _label_note(tutorials, tid, position)
        return lost("step_not_grounded", f"the episode never did {needed}; at step {act.step} the replay grounded "
                    f"{tid}'s step {position + 1} ({cover.label}) on {act.describe()}{note}", step=act.step,
                    element=cover.label, grounded_on=act.describe(), **base)  # fmt: skip
    failed = _failed_step(window, tid, position + 1)
    if failed is None:
        ended = following[-1].step if following else first.step
        return lost("other", f"the episode never did {needed}; it followed {tid} (which demonstrates it at its step "
                    f"{position + 1}) from step {first.step} and left it by step {ended} without a step that failed "
                    "to ground", step=first.step, element=cover.label, **base)  # fmt: skip
    at, number, what = failed
    while what.split(" ", 1)[0] in _NEVER_REPLAYED and (nxt := tutorials.labeled_at(tid, number)) is not None:
        number, what = number + 1, nxt.describe()  # the replay names the scroll it stands at; the next step failed
    before = f", before its step {position + 1} that demonstrates it" if number < position + 1 else ""
    return lost("step_not_grounded", f"the episode never did {needed}; it was following {tid} at step {first.step}, "
                f"but at step {at} its step {number} ({what}) did not ground on the page{before}"
                f"{_label_note(tutorials, tid, number - 1)}", step=at, element=what, trajectory_step=number,
                **base, **_label_evidence(tutorials, tid, number - 1))  # fmt: skip


def _failed_step(window: list[Act], tid: str, wanted: int) -> tuple[int, int, str] | None:
    """(episode step, trajectory step, what) where `tid`'s step was found not to ground: the step `wanted` when it
    was (skipped, whole video), else the one that made the policy leave `tid` (the next selection's continuation
    says so), else the first one skipped. Scrolls and hovers, never replayed, are passed over."""
    skipped, left = [], None
    for act in window:
        decision = act.extra.get("selection") if isinstance(act.extra.get("selection"), dict) else {}
        continuation = decision.get("continuation") or {}
        if left is None and decision.get("previous") == tid and continuation.get("relevant") is False:
            match = _CONTINUATION.search(str(continuation.get("reason") or ""))
            if match:
                left = (act.step, int(match["n"]), match["what"])
        if act.shown_trajectory == tid:
            for entry in act.extra.get("skipped") or []:
                match = _SKIPPED.match(str(entry))
                if match and match["what"].split(" ", 1)[0] not in _NEVER_REPLAYED:
                    skipped.append((act.step, _skipped_number(act, match["what"]), match["what"]))
    return next((found for found in skipped if found[1] == wanted), None) or left or (skipped[0] if skipped else None)


def _skipped_number(act: Act, what: str) -> int:
    """The trajectory step a whole-video skip names (the demonstration record lists the steps' descriptions)."""
    actions = (act.extra.get("demonstration") or {}).get("actions") or []
    shown_at = act.demonstrated_step or len(actions) + 1
    places = [n for n, text in enumerate(actions, start=1) if text == what and n < shown_at]
    return places[-1] if places else 0


def _label_evidence(tutorials: IndexedTutorials, tid: str, position: int) -> dict[str, Any]:
    labeled, truth = tutorials.labeled_at(tid, position), tutorials.truth_of(tid, position)
    if labeled is None or truth is None:
        return {}
    agrees = label_agrees(labeled.target, truth.target)
    return {"label": labeled.describe(), "truth": truth.describe(), "label_agrees": agrees}


def label_agrees(label: str, truth: str) -> bool:
    """A label names the logged element: the names agree, or the label is the start of it (a name cut short)."""
    words, whole = normalise_name(label).split(), normalise_name(truth).split()
    return not truth or names_agree(label, truth) or (len(words) >= 2 and whole[: len(words)] == words)


def _label_note(tutorials: IndexedTutorials, tid: str, position: int) -> str:
    found = _label_evidence(tutorials, tid, position)
    if not found or found["label_agrees"]:
        return ""
    return f"; its label reads {found['label']} where the tutorial's log has {found['truth']}"


# ---- records -----------------------------------------------------------------------------------------


def _shows_demonstrations(window: list[Act], info: dict[str, Any]) -> bool:
    """Whether the policy records demonstrations at all (what it showed or chose, or its mode)."""
    keys = ("demonstration", "selection", "whole_video_choice")
    return any(key in act.extra for act in window for key in keys) or "shown" in info or "mode" in info


def _decision(act: Act) -> dict[str, Any] | None:
    """The record of a choice made at this step: a selection that chose anew (or none), or the whole-video choice."""
    selection = act.extra.get("selection")
    if isinstance(selection, dict) and selection.get("decision") != "continued":
        return selection
    choice = act.extra.get("whole_video_choice")
    return choice if isinstance(choice, dict) else None


def _videos_available(info: dict[str, Any], tutorials: IndexedTutorials | None) -> list[str] | None:
    """The videos the policy could draw on: as its records list them, else every video of the index (None when
    neither says)."""
    listed = info.get("videos") if isinstance(info.get("videos"), dict) else None
    if listed is not None and isinstance(listed.get("processed"), list):
        return list(listed["processed"])
    return list(tutorials.videos) if tutorials is not None else None


def _no_videos(info: dict[str, Any], step: ReferenceStep | None = None) -> dict[str, Any]:
    if info.get("mode") == "none":  # the --no-videos ablation: nothing was lost by indexing or selection
        return lost("other", f"the run showed no demonstrations: {info.get('reason') or 'videos are off'}",
                    reference_step=step.number if step else None)
    reasons = "; ".join((info.get("videos") or {}).get("not_processed", {}).values()) or str(info.get("reason") or "")
    where = f" (the episode never did step {step.number} of the reference solution, {step.describe()})" if step else ""
    return lost("no_covering_trajectory", f"the policy had no processed video to draw on{where}: "
                f"{reasons or 'none of the task videos is in the index'}", reference_step=step.number if step else None)


def _task_videos(record: TaskRecord) -> list[str]:
    video = record.video
    return [video] if isinstance(video, str) and video else []


def _stop_step(acts: list[Act]) -> int | None:
    return next((act.step for act in reversed(acts) if act.kind == "stop"), None)
