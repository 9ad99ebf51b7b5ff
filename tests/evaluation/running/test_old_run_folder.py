"""A run folder made by an earlier version (main 173f8cb, before evaluation/ was split into its four packages)
still resumes, rescores and reports: users keep run folders for months and compare them with new ones.

The fixture is the scripted run of `task_set.py` with tasks 9 and 10 removed (as if the run had been killed
before them), screenshots and HTML pages left out to keep it small. The folder it was made in is written
`@FIXTURE@` and the shop's address `@SHOP@`; the test puts the folder it copies it to and the test sandbox's
shop in their place (a user who keeps a run folder keeps their sites' address too).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from model_access.scripted_server import ScriptedServer
from settings import PROJECT_ROOT

from tests.evaluation.running.task_set import EXPECTED, SOURCE
from tests.evaluation.running.test_runner import JUDGE_SCRIPT, by_id, environment

FIXTURE = Path(__file__).parent / "data" / "run_before_the_move"


@pytest.fixture(scope="module")
def old_run(tmp_path_factory, sandbox) -> Path:
    """The fixture copied to a fresh folder, its recorded paths pointing there and its shop at the test's."""
    root = tmp_path_factory.mktemp("old-run")
    shutil.copytree(FIXTURE, root, dirs_exist_ok=True)
    for path in root.rglob("*.json"):
        text = path.read_text()
        if "@FIXTURE@" in text or "@SHOP@" in text:
            path.write_text(text.replace("@FIXTURE@", str(root)).replace("@SHOP@", sandbox.shop_url.rstrip("/")))
    return root


def videodemo(test_settings, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli.main", *args], env=environment(test_settings),
                          cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300)  # fmt: skip


def test_an_old_run_folder_resumes_rescores_and_reports(sandbox, test_settings, old_run) -> None:
    run, tasks, solutions = old_run / "run", old_run / "taskset" / f"{SOURCE}.json", old_run / "taskset" / "solutions.json"
    before = {task_id: record["status"] for task_id, record in by_id(run).items()}
    assert before == {task_id: status for task_id, status in EXPECTED.items() if task_id <= 8}
    sandbox.reset()
    with ScriptedServer(JUDGE_SCRIPT) as judge:
        # The same command as the one that made it: the 8 finished tasks stay, 9 and 10 are played.
        done = videodemo(test_settings, "run", "--tasks", str(tasks), "--policy", "scripted", "--solutions",
                         str(solutions), "--out", str(run), "--no-progress", "--workers", "1",
                         "--set", "sandbox.reset_token=test-reset-token",
                         "--judge-url", judge.base_url, "--judge-model", "judge")  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        assert "8 task(s) already finished" in done.stderr
        assert {task_id: record["status"] for task_id, record in by_id(run).items()} == EXPECTED

        rescored = videodemo(test_settings, "rescore", str(run), "--judge-url", judge.base_url,
                             "--judge-model", "judge")  # fmt: skip
        assert rescored.returncode == 0, rescored.stdout + rescored.stderr
        assert {task_id: record["status"] for task_id, record in by_id(run).items()} == EXPECTED

    report = videodemo(test_settings, "report", str(run))
    assert report.returncode == 0, report.stderr
    overall = next(line for line in report.stdout.splitlines() if line.startswith("all "))
    scored = sum(status in ("passed", "failed") for status in EXPECTED.values())
    passed = sum(status == "passed" for status in EXPECTED.values())
    assert overall.split()[2:6] == [str(len(EXPECTED)), str(scored), str(passed), f"{passed / scored:.1%}"]
    assert (run / "index.html").is_file()
