"""The bundled sandbox tasks: a clean, varied set that `videodemo tasks list` shows, each with a reference solution.
Every reference solution passing on a freshly reset sandbox, and doing nothing failing every task, are checked one
site per file (tests/tasks/test_sandbox_plays_*.py, tests/tasks/sandbox_plays.py)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from cli.main import main
from tasks.loading import SANDBOX_CONFIGS_DIR, load_task_set
from tasks.reference.solutions import load_solutions
from tasks.sandbox.tutorials.script import load_all
from tests.tasks.sandbox_plays import PLAYED_SITES, SOLUTIONS_DIR, site_tasks

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def task_set():
    return load_task_set(SANDBOX_CONFIGS_DIR)


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


def test_the_site_plays_together_play_every_task(task_set) -> None:
    """The reference and do-nothing plays run one site per test file (tests/tasks/sandbox_plays.py): together they
    play every task, each once."""
    assert all(len(task.sites) == 1 and task.sites[0] in PLAYED_SITES for task in task_set.tasks)
    assert {task.key for site in PLAYED_SITES for task in site_tasks(site)} == {task.key for task in task_set.tasks}
    for site in PLAYED_SITES:
        short = {"shopping": "shop", "reddit": "forum"}[site]
        assert all((HERE / f"test_sandbox_plays_{check}_{short}.py").is_file() for check in ("reference", "nothing"))


def test_tasks_list_shows_both_kinds_every_eval_type_and_no_problems(capsys) -> None:
    assert main(["tasks", "list"]) == 0
    out = capsys.readouterr().out
    for word in ("skill", "factual", "string_match", "url_match", "program_html", "shopping", "reddit"):
        assert re.search(rf"^{word}\s+\d+$", out, re.M), f"{word} missing from:\n{out}"
    assert "tasks with problems: none" in out
