"""The sandbox tutorials teach their tasks, as VideoWA built its benchmark: every skill task's reference solution is
done step by step in its own tutorial (at most one in ten listed as impossible, with the reason), no tutorial uses a
value of one of its own tasks, every skill template has several instances, and every tutorial has factual tasks of
each kind of VideoWA's taxonomy."""

from __future__ import annotations

from collections import Counter, defaultdict
from types import SimpleNamespace

import pytest

from foundation.records.trajectory import LabeledAction
from tasks.loading import SANDBOX_CONFIGS_DIR, load_task_set
from tasks.reference.solutions import ReferenceSolutions
from tasks.reference.steps import reference_steps
from tasks.reference.teaching import (
    FACTUAL_KINDS,
    UNCOVERABLE,
    VALUE_EXCEPTIONS,
    factual_kinds,
    tutorial_logs,
    uncovered_tasks,
    values_shown,
)
from tasks.sandbox.tutorials.script import load_all

# Paired comparisons over the skill tasks should see a 10-point difference: at least this many tasks.
MIN_SKILL_TASKS = 135
MIN_INSTANCES_PER_TEMPLATE = 3
MIN_FACTUAL_PER_TUTORIAL = 4


@pytest.fixture(scope="module")
def task_set():
    return load_task_set(SANDBOX_CONFIGS_DIR)


@pytest.fixture(scope="module")
def logs(sandbox):
    """Every tutorial's ground-truth log (recorded, or copied from the recordings store)."""
    from tasks.sandbox.tutorials.recorder import record_tutorials

    results = record_tutorials(sandbox.settings, workers=2)
    return tutorial_logs(results[0].files.actions.parent)


def test_every_skill_task_is_done_step_by_step_by_its_own_tutorial(sandbox, task_set, logs) -> None:
    references = ReferenceSolutions(sandbox.settings)
    skill = [task for task in task_set.tasks if task.kind == "skill"]
    assert {script.name for script in load_all()} == set(logs)
    uncovered = {item.task_key: item for item in uncovered_tasks(skill, lambda t: references.steps(t, "test"), logs)}
    unlisted = [item.line() for key, item in uncovered.items() if key not in UNCOVERABLE]
    assert not unlisted, "\n".join(unlisted)
    assert set(UNCOVERABLE) <= set(uncovered), f"listed as uncoverable but covered: {set(UNCOVERABLE) - set(uncovered)}"
    assert all(reason.strip() for reason in UNCOVERABLE.values())
    assert len(UNCOVERABLE) * 10 <= len(skill), f"{len(UNCOVERABLE)} of {len(skill)} skill tasks are not taught"


def test_no_tutorial_uses_a_value_of_its_own_tasks(task_set, logs) -> None:
    shown = values_shown(task_set.tasks, logs)
    assert not shown, "\n".join(item.line() for item in shown)
    # Each listed exception is one the tutorial really makes (the list does not go stale) and says why.
    excepted = {key for key, _ in VALUE_EXCEPTIONS}
    tasks = [task for task in task_set.tasks if task.key in excepted]
    with_exceptions = values_shown(tasks, logs, exceptions={})
    assert {(item.task_key, item.value) for item in with_exceptions} == set(VALUE_EXCEPTIONS)
    assert all(reason.strip() for reason in VALUE_EXCEPTIONS.values())


def test_every_tutorial_is_narrated_on_an_audio_track_as_long_as_its_video(logs, sandbox) -> None:
    """All 13 carry the spoken narration (tests/tasks/test_tutorials.py checks its timing on two; the real-server tier
    transcribes one within a stated word error rate)."""
    from tasks.sandbox.tutorials.ground_truth import load_record
    from tasks.sandbox.tutorials.recorder import TutorialFiles, tutorials_dir
    from tests.tasks.video_checks import audio_streams

    for name in logs:
        files = TutorialFiles.of(tutorials_dir(sandbox.settings), name)
        (stream,) = audio_streams(files.video)
        assert stream["codec_name"] == "aac", name
        assert abs(float(stream["duration"]) - load_record(files.actions).duration_s) <= 0.05, name


def test_every_skill_template_has_several_instances_and_keeps_its_first_task(task_set) -> None:
    skill = [task for task in task_set.tasks if task.kind == "skill"]
    assert len(skill) >= MIN_SKILL_TASKS
    instances: dict[tuple[str, int], list[int]] = defaultdict(list)
    for task in skill:
        instances[(task.source, task.config["intent_template_id"])].append(int(task.task_id))
    thin = {template: ids for template, ids in instances.items() if len(ids) < MIN_INSTANCES_PER_TEMPLATE}
    assert not thin, f"templates with fewer than {MIN_INSTANCES_PER_TEMPLATE} tasks: {thin}"
    # The template's first task is the one it always had (the demo plays it); the others differ in their values.
    for (source, template), ids in instances.items():
        assert min(ids) == template, (source, template, ids)
        intents = [task.intent for task in skill
                   if task.source == source and task.config["intent_template_id"] == template]  # fmt: skip
        assert len(set(intents)) == len(intents), f"{source} template {template} repeats an intent"


def test_every_tutorial_has_four_factual_tasks_one_of_each_kind(task_set) -> None:
    factual = Counter(task.video for task in task_set.tasks if task.kind == "factual")
    kinds = factual_kinds(task_set.tasks)
    for script in load_all():
        assert factual[script.name] >= MIN_FACTUAL_PER_TUTORIAL, (script.name, factual[script.name])
        assert kinds.get(script.name) == set(FACTUAL_KINDS), (script.name, kinds.get(script.name))


# ---- the checks themselves fail where they should (no tutorial needed) ----

def _task(key: str, intent: str, values: dict, video: str = "howto", **flags) -> SimpleNamespace:
    config = {"instantiation_dict": values, **flags}
    return SimpleNamespace(key=key, kind="factual" if flags else "skill", video=video, intent=intent, config=config)


def _log(*actions: tuple[str, str, str]) -> dict[str, list[LabeledAction]]:
    return {"howto": [LabeledAction(kind, target, text, float(i), float(i) + 0.5) for i, (kind, target, text) in
                      enumerate(actions)]}  # fmt: skip


def test_the_checks_name_a_step_never_shown_and_a_value_the_tutorial_used() -> None:
    task = _task("forum:1", "Subscribe me to the history forum.", {"forum": "history"})
    steps = reference_steps(["click [link 'Forums']", "click [link 'history']", "click [button 'Subscribe']",
                             "stop []"])  # fmt: skip
    shows_it = _log(("click", "Forums", ""), ("click", "food", ""), ("click", "Subscribe", ""))
    assert uncovered_tasks([task], lambda _: steps, shows_it) == []  # "food" stands in for the task's forum
    skips_a_step = _log(("click", "food", ""), ("click", "Subscribe", ""))
    (missing,) = uncovered_tasks([task], lambda _: steps, skips_a_step)
    assert missing.steps == ("click [link 'Forums']",)
    assert values_shown([task], shows_it) == []
    (used,) = values_shown([task], _log(("click", "Forums", ""), ("goto", "", "http://127.0.0.1:9999/f/history")))
    assert used.value == "history" and used.action.startswith("goto")
    rated = _task("shop:2", "Give it 4 stars", {"stars": "4", "quantity": "two"})
    assert len(values_shown([rated], _log(("click", "4 stars", ""), ("type", "Qty", "2")))) == 2


def test_a_factual_task_counts_as_visual_or_audio_only_when_it_needs_that_alone() -> None:
    both = _task("f:1", "", {}, visual_reasoning=True, audio_reasoning=True)
    heard = _task("f:2", "", {}, visual_reasoning=False, audio_reasoning=True, temporal_reasoning=True)
    assert factual_kinds([both]) == {}
    assert factual_kinds([both, heard]) == {"howto": {"audio perception", "temporal reasoning"}}
