"""Playing the bundled sandbox tasks with a policy, one site at a time, and the two checks every task must meet:
its reference solution passes all its evaluators, and doing nothing fails it.

One site's tasks per test file (tests/tasks/test_sandbox_plays_*.py): `make test` gives each file to one worker
(`--dist loadfile`), so the four plays spread over both workers instead of one worker playing all 201 tasks twice
while the other waits (issue 65). Each worker's sandbox is its own, so two plays at once do not meet."""

from __future__ import annotations

import argparse
import copy
from pathlib import Path
from typing import TYPE_CHECKING

from evaluation.running.runner import RunSpec, run
from evaluation.running.task_record import iter_records
from tasks.loading import SANDBOX_CONFIGS_DIR, load_task_set

if TYPE_CHECKING:
    from tests.conftest import Sandbox

SOLUTIONS_DIR = SANDBOX_CONFIGS_DIR.parent / "solutions"
# Every task runs on exactly one of these (tests/tasks/test_sandbox_tasks.py checks), and each has its files here.
PLAYED_SITES = ("shopping", "reddit")
# Playing a site's tasks takes minutes on a small machine; the suite-wide limit is too short for that.
FULL_RUN_TIMEOUT_S = 1800


def site_tasks(site: str) -> list:
    return [task for task in load_task_set(SANDBOX_CONFIGS_DIR).tasks if site in task.sites]


def play_site(sandbox: Sandbox, site: str, policy: str, out_dir: Path, **policy_args) -> dict[str, dict]:
    """Run every sandbox task of `site` with `policy` from a freshly reset sandbox; records by task key. No step
    screenshots (`run.step_screenshots` off): no evaluator reads them, and they are a fifth of Chromium's work."""
    sandbox.reset()
    settings = copy.deepcopy(sandbox.settings)
    settings.run.step_screenshots = False
    spec = RunSpec(
        tasks_path=SANDBOX_CONFIGS_DIR,
        policy=policy,
        policy_args=argparse.Namespace(**policy_args),
        out_dir=out_dir,
        site=site,
        fresh=True,
        progress=False,
        workers=2,  # a task mostly waits on the browser and the site: two at once (resets still run alone)
    )
    run_dir = run(spec, settings)
    assert not list(run_dir.glob("tasks/*/step_*.png"))  # the setting took: these policies read no screenshot
    return {record.task_key: record.to_dict() for record in iter_records(run_dir)}


def check_reference_solutions_pass(sandbox: Sandbox, site: str, out_dir: Path) -> None:
    """Every task of `site`: its reference solution passes, with every evaluator the task names, and a factual
    task's intermediate answer scores 1."""
    tasks = site_tasks(site)
    records = play_site(sandbox, site, "scripted", out_dir, solutions=str(SOLUTIONS_DIR))
    assert set(records) == {task.key for task in tasks}
    failures = []
    for task in tasks:
        record = records[task.key]
        verdicts = {verdict["eval_type"]: verdict["status"] for verdict in record["verdicts"]}
        if record["status"] != "passed" or record["score"] != 1.0 or set(verdicts) != set(task.eval_types):
            failures.append(f"{task.key}: {record['status']} {verdicts} errors={record.get('errors')}")
        if task.kind == "factual" and record["intermediate_score"] != 1.0:
            answer, score = record["intermediate_answer"], record["intermediate_score"]
            failures.append(f"{task.key}: intermediate answer {answer!r} scored {score}")
    assert not failures, "\n".join(failures)


def check_doing_nothing_fails(sandbox: Sandbox, site: str, out_dir: Path) -> None:
    """Every task of `site` fails an empty stop, and no factual task's intermediate answer scores."""
    records = play_site(sandbox, site, "stop", out_dir)
    assert set(records) == {task.key for task in site_tasks(site)}
    wrongly_passed = [key for key, record in records.items() if record["status"] != "failed" or record["score"] != 0.0]
    assert not wrongly_passed, f"tasks not failed by an empty stop: {wrongly_passed}"
    assert not [key for key, record in records.items() if record.get("intermediate_score")]
