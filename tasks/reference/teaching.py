"""Whether the sandbox tutorials teach their tasks, as VideoWA built its benchmark.

Three questions, asked of the recorded tutorials (their ground-truth logs) and the task set:
- coverage: every skill task's reference solution is done, step by step, somewhere in its own
  tutorial's log, under the project's one coverage rule (tasks/reference/coverage.py: exact names,
  or the tutorial's value standing in for the task's). A task that cannot be is listed in
  `UNCOVERABLE` with its reason; the test allows at most one in ten.
- values: a tutorial never performs one of its own skill tasks with that task's values (an
  `instantiation_dict` value typed, chosen, clicked or opened in the log); `VALUE_EXCEPTIONS` lists
  the one pair two old tasks force, with the reason.
- factual kinds: every tutorial has factual-retention tasks of each kind of VideoWA's taxonomy
  (visual perception, audio perception, full-video understanding, temporal reasoning).

`python -m tasks.reference.teaching [TUTORIALS_DIR]` prints all three for the recorded
tutorials (default: `<cache>/sandbox/tutorials`).
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from foundation.records.trajectory import LabeledAction
from tasks.reference.coverage import NOT_REPLAYED, cover_chain, truth_trajectory
from tasks.reference.logs import LOG_SUFFIX, read_log
from tasks.reference.names import normalise_name
from tasks.reference.steps import ReferenceStep

# Skill tasks whose solution no tutorial step can show, with the reason (at most one in ten).
_A_SETTING = (
    "its value is a checkbox's own name, and a checkbox's name cannot stand in for another's (no value shape, and "
    "names alone do not say the element is a checkbox); the tutorial may not click any of this template's three, "
    "so forum_profile_settings turns on another ('Open external links in new tab')"
)
UNCOVERABLE: dict[str, str] = {"forum:58": _A_SETTING, "forum:5801": _A_SETTING, "forum:5802": _A_SETTING}
# (skill task, value) pairs its tutorial must use, with the reason: two old tasks that cannot change ask for it.
VALUE_EXCEPTIONS: dict[tuple[str, str], str] = {
    ("shop:30", "4"): "factual task shop:31 asks for the tutorial's own star rating, 4 stars, which skill task shop:30 "
    "also gives; neither config may change (old task ids keep their meaning)",
}

# VideoWA's factual-retention taxonomy, by the config flag that marks each kind. A visual task needs
# something only shown and an audio task something only said, so each flag stands alone on those two.
FACTUAL_KINDS = {
    "visual perception": "visual_reasoning",
    "audio perception": "audio_reasoning",
    "full-video understanding": "multihop_reasoning",
    "temporal reasoning": "temporal_reasoning",
}
SENSES = frozenset({"visual_reasoning", "audio_reasoning"})
NUMBER_WORDS = {word: str(n) for n, word in enumerate("zero one two three four five six seven eight nine ten".split())}


@dataclass(frozen=True)
class Uncovered:
    task_key: str
    video: str
    steps: tuple[str, ...]  # the reference steps no part of the log does

    def line(self) -> str:
        return f"{self.task_key} ({self.video}): not shown: {'; '.join(self.steps)}"


@dataclass(frozen=True)
class ValueShown:
    task_key: str
    video: str
    value: str
    action: str  # the logged action that used it

    def line(self) -> str:
        return f"{self.task_key} ({self.video}): its value {self.value!r} is used by the tutorial: {self.action}"


def tutorial_logs(folder: Path) -> dict[str, list[LabeledAction]]:
    """Each recorded tutorial's ground-truth log, by name."""
    logs = {}
    for path in sorted(folder.glob(f"*{LOG_SUFFIX}")):
        log = read_log(path)
        if log is not None:
            logs[path.name[: -len(LOG_SUFFIX)]] = log
    return logs


def uncovered_tasks(tasks, steps_of, logs: dict[str, list[LabeledAction]]) -> list[Uncovered]:
    """Skill tasks whose reference steps (`steps_of(task)`) their own tutorial's log does not all do."""
    found = []
    for task in tasks:
        if task.kind != "skill" or task.video not in logs:
            continue
        whole = truth_trajectory(task.video, logs[task.video])
        _, missing = cover_chain([whole], steps_of(task), task.intent, from_start=False)
        if missing:
            found.append(Uncovered(task.key, task.video, tuple(step.text for step in missing)))
    return found


def values_shown(
    tasks, logs: dict[str, list[LabeledAction]], exceptions: dict[tuple[str, str], str] = VALUE_EXCEPTIONS
) -> list[ValueShown]:
    """Skill tasks one of whose values its own tutorial types, chooses, clicks or opens (but the `exceptions`)."""
    found = []
    for task in tasks:
        if task.kind != "skill" or task.video not in logs:
            continue
        for value in (task.config.get("instantiation_dict") or {}).values():
            if (task.key, str(value)) in exceptions:
                continue
            for action in logs[task.video]:
                if action.kind not in NOT_REPLAYED and _uses(action, str(value)):
                    shown = f"{action.kind} {action.target!r}" + (f" {action.text!r}" if action.text else "")
                    found.append(ValueShown(task.key, task.video, str(value), shown))
                    break
    return found


def factual_kinds(tasks) -> dict[str, set[str]]:
    """The taxonomy kinds each tutorial's factual tasks cover (visual and audio only when flagged alone)."""
    kinds: dict[str, set[str]] = defaultdict(set)
    for task in tasks:
        if task.kind != "factual" or not task.video:
            continue
        flags = {flag for flag in FACTUAL_KINDS.values() if task.config.get(flag)}
        for kind, flag in FACTUAL_KINDS.items():
            if flag in flags and not (flag in SENSES and SENSES <= flags):  # seen and heard: neither sense alone
                kinds[task.video].add(kind)
    return dict(kinds)


def _uses(action: LabeledAction, value: str) -> bool:
    wanted = _value_words(value)
    if not wanted:
        return False
    for said in (action.target, action.text):
        words = _value_words(said)
        if not words:
            continue
        if words == wanted:
            return True
        if re.fullmatch(r"\d+ stars?", words) and words.split()[0] == wanted:
            return True  # a rating clicked as "4 stars"
        several = len(wanted.split()) > 1 or action.kind == "goto"  # one word inside a longer name is chance
        if several and f" {wanted} " in f" {words} ":
            return True
    return False


def _value_words(text: str) -> str:
    return " ".join(NUMBER_WORDS.get(word, word) for word in normalise_name(text).split())


def report(tasks, steps_of, logs: dict[str, list[LabeledAction]]) -> list[str]:
    """Lines saying what the tutorials do not teach (the listed exceptions left out)."""
    lines = [item.line() for item in uncovered_tasks(tasks, steps_of, logs) if item.task_key not in UNCOVERABLE]
    lines += [item.line() for item in values_shown(tasks, logs)]
    kinds = factual_kinds(tasks)
    for video in sorted({task.video for task in tasks if task.video}):
        missing = [kind for kind in FACTUAL_KINDS if kind not in kinds.get(video, set())]
        if missing:
            lines.append(f"{video}: no factual task of kind {', '.join(missing)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    from settings import load_settings
    from tasks.loading import SANDBOX_CONFIGS_DIR, load_task_set
    from tasks.reference.solutions import ReferenceSolutions
    from tasks.sandbox.tutorials.recorder import tutorials_dir

    settings = load_settings()
    argv = sys.argv[1:] if argv is None else argv
    folder = Path(argv[0]) if argv else tutorials_dir(settings)
    logs = tutorial_logs(folder)
    if not logs:
        print(f"no recorded tutorials in {folder}; record them with `videodemo sandbox record`")
        return 1
    tasks = load_task_set(SANDBOX_CONFIGS_DIR, settings=settings).tasks
    references = ReferenceSolutions(settings)

    def steps_of(task) -> list[ReferenceStep]:
        return references.steps(task, "the coverage check")

    lines = report([task for task in tasks if task.video in logs], steps_of, logs)
    print("\n".join(lines) if lines else f"every task of the {len(logs)} tutorials in {folder} is taught")
    return 1 if lines else 0


if __name__ == "__main__":
    raise SystemExit(main())
