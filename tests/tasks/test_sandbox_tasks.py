"""The bundled sandbox tasks: every reference solution passes all its evaluators on a freshly reset
sandbox, doing nothing fails every task, and `videodemo tasks list` shows a clean, varied set."""

from __future__ import annotations

import argparse
import copy
import re
from collections import Counter

import pytest

from cli.main import main
from tasks.reference.solutions import load_solutions
from evaluation.running.task_record import iter_records
from evaluation.running.runner import RunSpec, run
from tasks.loading import SANDBOX_CONFIGS_DIR, load_task_set
from tasks.sandbox.tutorials.script import load_all

SOLUTIONS_DIR = SANDBOX_CONFIGS_DIR.parent / "solutions"
# Playing all tasks takes minutes on a small machine; the suite-wide limit is too short for that.
FULL_RUN_TIMEOUT_S = 1800


@pytest.fixture(scope="module")
def task_set():
    return load_task_set(SANDBOX_CONFIGS_DIR)


def play_all(sandbox, policy: str, out_dir, **policy_args) -> dict[str, dict]:
    """Run every sandbox task with `policy` from a freshly reset sandbox; records by task key. No step
    screenshots (`run.step_screenshots` off): no evaluator reads them, and they are a fifth of Chromium's work."""
    sandbox.reset()
    settings = copy.deepcopy(sandbox.settings)
    settings.run.step_screenshots = False
    spec = RunSpec(
        tasks_path=SANDBOX_CONFIGS_DIR,
        policy=policy,
        policy_args=argparse.Namespace(**policy_args),
        out_dir=out_dir,
        fresh=True,
        progress=False,
        workers=2,  # a task mostly waits on the browser and the site: two at once (resets still run alone)
    )
    run_dir = run(spec, settings)
    assert not list(run_dir.glob("tasks/*/step_*.png"))  # the setting took: these policies read no screenshot
    return {record.task_key: record.to_dict() for record in iter_records(run_dir)}


def test_the_set_has_both_kinds_every_eval_form_and_a_tutorial_per_task(task_set) -> None:
    tasks = task_set.tasks
    assert not task_set.file_problems and all(not task.problems for task in tasks)
    kinds = Counter(task.kind for task in tasks)
    assert kinds["skill"] >= 40 and kinds["factual"] >= 15
    assert len({task.task_id for task in tasks}) == len(tasks)
    assert {task.difficulty for task in tasks} == {"easy", "medium", "hard"}
    assert {site for task in tasks for site in task.sites} == {"shopping", "reddit"}

    tutorials = {script.name for script in load_all()}
    assert all(task.video in tutorials for task in tasks)
    assert {task.video for task in tasks} == tutorials  # every tutorial helps with some task

    eval_blocks = [task.config["eval"] for task in tasks]
    eval_types = {kind for block in eval_blocks for kind in block["eval_types"]}
    assert eval_types == {"string_match", "url_match", "program_html"}
    url_notes = {block.get("url_note") for block in eval_blocks if "url_match" in block["eval_types"]}
    assert url_notes == {"EXACT", "GOLD in PRED"}
    entries = [entry for block in eval_blocks for entry in block.get("program_html") or []]
    urls = {"last" if e["url"] == "last" else "func" if e["url"].startswith("func:") else "plain" for e in entries}
    assert urls == {"last", "func", "plain"}
    locators = {re.match(r"(document\.|lambda:|func:|)", e["locator"]).group(1) or "page" for e in entries}
    assert locators == {"document.", "lambda:", "func:", "page"}
    for task in tasks:
        if task.kind == "factual":
            assert task.config["intermediate_eval"]["eval_types"] == ["string_match"]


def test_every_task_has_a_reference_solution_that_ends_with_stop(task_set) -> None:
    solutions = load_solutions(SOLUTIONS_DIR)
    for task in task_set.tasks:
        solution = solutions.find(task.source, task.task_id)
        assert solution is not None, f"no solution for {task.key}"
        assert solution.actions and solution.actions[-1].startswith("stop ["), task.key
        assert (solution.intermediate_answer is not None) == (task.kind == "factual"), task.key


@pytest.mark.timeout(FULL_RUN_TIMEOUT_S)
def test_reference_solutions_pass_every_evaluator(sandbox, task_set, tmp_path) -> None:
    records = play_all(sandbox, "scripted", tmp_path / "scripted", solutions=str(SOLUTIONS_DIR))
    assert set(records) == {task.key for task in task_set.tasks}
    failures = []
    for task in task_set.tasks:
        record = records[task.key]
        verdicts = {verdict["eval_type"]: verdict["status"] for verdict in record["verdicts"]}
        if record["status"] != "passed" or record["score"] != 1.0 or set(verdicts) != set(task.eval_types):
            failures.append(f"{task.key}: {record['status']} {verdicts} errors={record.get('errors')}")
        if task.kind == "factual" and record["intermediate_score"] != 1.0:
            answer, score = record["intermediate_answer"], record["intermediate_score"]
            failures.append(f"{task.key}: intermediate answer {answer!r} scored {score}")
    assert not failures, "\n".join(failures)


@pytest.mark.timeout(FULL_RUN_TIMEOUT_S)
def test_doing_nothing_fails_every_task(sandbox, task_set, tmp_path) -> None:
    records = play_all(sandbox, "stop", tmp_path / "stop")
    assert set(records) == {task.key for task in task_set.tasks}
    wrongly_passed = [key for key, record in records.items() if record["status"] != "failed" or record["score"] != 0.0]
    assert not wrongly_passed, f"tasks not failed by an empty stop: {wrongly_passed}"
    assert not [key for key, record in records.items() if record.get("intermediate_score")]


def test_tasks_list_shows_both_kinds_every_eval_type_and_no_problems(capsys) -> None:
    assert main(["tasks", "list"]) == 0
    out = capsys.readouterr().out
    for word in ("skill", "factual", "string_match", "url_match", "program_html", "shopping", "reddit"):
        assert re.search(rf"^{word}\s+\d+$", out, re.M), f"{word} missing from:\n{out}"
    assert "tasks with problems: none" in out
