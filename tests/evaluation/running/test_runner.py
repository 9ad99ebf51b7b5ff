"""`videodemo run` with the scripted policy on a small sandbox task set, as a user runs it: in a
subprocess, killed half-way and started again, with one worker and with two, then `videodemo report`; and
`--ray` on a real local Ray (127.0.0.1, two worker actors) against the two-worker run: the same verdicts in the
same run-folder layout, a Ray worker killed mid-run loses no record, and the command again runs nothing recorded.

The judge is a scripted OpenAI-compatible server reached through `--judge-url`, so the fuzzy
task is judged through the real client; no VLM is configured, so the VQA task is unscorable.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evaluation.reports.run_index import REPORTS_FILE
from evaluation.running.run_records import task_folder
from evaluation.running.task_record import iter_records
from foundation.records.task_record import RECORD_FILE
from model_access.scripted_server import ScriptedServer
from settings import PROJECT_ROOT
from tests.evaluation.running.task_set import EXPECTED, SOURCE, TASKS, write_task_set

needs_ray = pytest.mark.skipif(
    importlib.util.find_spec("ray") is None, reason="ray is not installed; `pip install -e .[scale]` runs these tests"
)
JUDGE_SCRIPT = {"name": "judge", "rules": [{"contains": "One Stop Market", "reply": "correct"}], "default": "incorrect"}


@pytest.fixture(scope="module")
def judge_server():
    with ScriptedServer(JUDGE_SCRIPT) as server:
        yield server


@pytest.fixture(scope="module")
def task_files(tmp_path_factory):
    return write_task_set(tmp_path_factory.mktemp("task-set"))


def command(task_files, out: Path, judge_server, *extra: str) -> list[str]:
    tasks, solutions = task_files
    return [
        sys.executable, "-m", "cli.main", "run", "--tasks", str(tasks), "--policy", "scripted",
        "--solutions", str(solutions), "--out", str(out), "--no-progress",
        "--set", "sandbox.reset_token=test-reset-token",
        "--judge-url", judge_server.base_url, "--judge-model", "judge", *extra,
    ]  # fmt: skip


def environment(test_settings) -> dict[str, str]:
    # SHOPPING and REDDIT point at the test sandbox (exported by the `sandbox` fixture).
    return dict(os.environ, VIDEODEMO_CACHE=str(test_settings.paths.cache_dir), PYTHONUNBUFFERED="1")


def finish(cmd: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, env=env, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=540)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def by_id(run_dir: Path) -> dict[int, dict]:
    """Each finished task's record.json, as a user reads it, by task id."""
    return {record.task_id: record.to_dict() for record in iter_records(run_dir)}


@pytest.fixture(scope="module")
def resumed_run(sandbox, test_settings, task_files, judge_server, tmp_path_factory):
    """Run A: one worker, killed after its first record, then the same command again."""
    sandbox.reset()
    out = tmp_path_factory.mktemp("runs") / "run-a"
    env = environment(test_settings)
    cmd = command(task_files, out, judge_server, "--workers", "1")
    process = subprocess.Popen(
        cmd, env=env, cwd=PROJECT_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    deadline = time.monotonic() + 300
    while not list(out.glob(f"tasks/*/{RECORD_FILE}")):
        assert process.poll() is None, f"the run ended before any record: {process.stderr.read().decode()[-2000:]}"
        assert time.monotonic() < deadline, "no record appeared"
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)  # a crash: no clean-up code runs
    process.wait()
    process.stderr.close()
    before_restart = {record.task_key: record for record in iter_records(out)}
    mtimes = {key: (out / "tasks" / r.folder / RECORD_FILE).stat().st_mtime_ns for key, r in before_restart.items()}
    done = finish(cmd, env)
    return out, before_restart, mtimes, done


@pytest.fixture(scope="module")
def two_worker_run(resumed_run, test_settings, task_files, judge_server, tmp_path_factory):
    """Run B: two workers, after run A changed the sites (so the reset task depends on its reset)."""
    out = tmp_path_factory.mktemp("runs") / "run-b"
    done = finish(command(task_files, out, judge_server, "--workers", "2"), environment(test_settings))
    return out, done


def test_a_killed_run_resumes_without_redoing_finished_tasks(resumed_run) -> None:
    out, before_restart, mtimes, done = resumed_run
    assert 1 <= len(before_restart) < len(TASKS), "the kill should land half-way"
    after = {record.task_key: record for record in iter_records(out)}
    assert len(after) == len(TASKS)
    for key, record in before_restart.items():
        assert after[key].started_at == record.started_at
        assert (out / "tasks" / record.folder / RECORD_FILE).stat().st_mtime_ns == mtimes[key]
    assert f"{len(before_restart)} task(s) already finished" in done.stderr
    sessions = json.loads((out / "run.json").read_text())["sessions"]
    assert [s["outcome"] for s in sessions] == ["running", "finished"]  # the killed session never closed
    assert sessions[1]["git"]["revision"] and sessions[1]["packages"]["playwright"]


def test_each_task_gets_the_verdict_its_solution_earns(resumed_run) -> None:
    out, *_ = resumed_run
    records = by_id(out)
    assert {task_id: record["status"] for task_id, record in records.items()} == EXPECTED
    assert records[5]["score"] is None and "url_note" in records[5]["verdicts"][0]["message"]
    assert records[8]["score"] is None and "VLM" in records[8]["verdicts"][0]["message"]
    assert records[6]["intermediate_score"] == 1.0 and records[6]["difficulty"] == "easy"
    assert records[7]["usage"]["evaluation"]["totals"]["scripted"] >= 1  # judged through the model stack
    assert any("Teleport Me" in error for error in records[10]["errors"])
    review_steps = json.loads((task_folder(out, records[3]["task_key"]) / "episode.json").read_text())["steps"]
    assert "in the full page" in review_steps[0]["extra"]["target"]  # the first target was below the fold
    assert records[3]["state"]["counts_changed"] is True  # the review count moved
    assert records[1]["state"]["counts_changed"] is False and records[1]["state"]["changed"] is False
    assert records[4]["state"]["changed"] is True  # require_reset: taken to change state


def test_a_record_has_the_keys_an_earlier_version_wrote_in_its_order(resumed_run) -> None:
    """The same tasks as the run folder made before the house move (tests/evaluation/running/data): a played task and
    the config-error one (5, never played: no answer, state, usage, ...) write the keys that version wrote, in its
    order, plus `rules` (which came later) after `worker_pid`."""
    out, *_ = resumed_run
    old_run = Path(__file__).parent / "data" / "run_before_the_move" / "run"
    for task_id in (1, 5):
        old = list(json.loads((task_folder(old_run, f"{SOURCE}:{task_id}") / RECORD_FILE).read_text()))
        old.insert(old.index("worker_pid") + 1, "rules")
        assert list(json.loads((task_folder(out, f"{SOURCE}:{task_id}") / RECORD_FILE).read_text())) == old


def test_report_prints_the_table_and_counts_what_was_not_scored(resumed_run, test_settings) -> None:
    out, *_ = resumed_run
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "report", str(out)],
        env=environment(test_settings), cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    header, _, overall, *rows = done.stdout.splitlines()
    assert header.split()[:6] == ["group", "value", "tasks", "scored", "passed", "success"]
    scored = sum(status in ("passed", "failed") for status in EXPECTED.values())
    passed = sum(status == "passed" for status in EXPECTED.values())
    # all / all / tasks / scored / passed / rate / unscorable / config err / errored / intermediate
    assert overall.split() == ["all", "all", str(len(TASKS)), str(scored), str(passed), f"{passed / scored:.1%}",
                               "1", "1", "0", "1/1"]  # fmt: skip
    assert any(line.split()[:2] == ["site", "reddit"] for line in rows)
    assert "SCRIPTED (not a model result)" in done.stdout
    assert f"site row counts changed (1): {SOURCE}:3" in done.stdout
    assert (out / "index.html").is_file() and (out / "summary.json").is_file()


def test_two_workers_give_the_same_verdicts_and_resets_run_alone(resumed_run, two_worker_run) -> None:
    run_a, run_b = resumed_run[0], two_worker_run[0]
    a, b = by_id(run_a), by_id(run_b)

    def verdicts(record: dict) -> list[tuple[str, str]]:
        return [(v["eval_type"], v["status"]) for v in record["verdicts"]]

    assert {i: verdicts(r) for i, r in b.items()} == {i: verdicts(r) for i, r in a.items()}
    shared_phase = [r for i, r in b.items() if not TASKS[i - 1]["require_reset"]]
    assert len({r["worker_pid"] for r in shared_phase}) == 2
    # Run A already removed an item; only the reset before the task brings it back for run B.
    reset_task = b[4]
    assert reset_task["status"] == "passed"
    assert any(message.startswith("shop: reset") for message in reset_task["state"]["reset"]["reset"])
    assert reset_task["started_at"] >= max(r["finished_at"] for r in shared_phase)


def test_report_of_two_runs_shows_differences_and_flips(two_worker_run, test_settings, task_files, judge_server,
                                                         tmp_path_factory) -> None:  # fmt: skip
    run_b = two_worker_run[0]
    run_c = tmp_path_factory.mktemp("runs") / "run-c"
    tasks, _ = task_files
    env = environment(test_settings)
    finish([sys.executable, "-m", "cli.main", "run", "--tasks", str(tasks), "--policy", "stop", "--out", str(run_c),
            "--no-progress", "--ids", "1,2,5", "--set", "sandbox.reset_token=test-reset-token"], env)  # fmt: skip
    done = subprocess.run([sys.executable, "-m", "cli.main", "report", str(run_b), str(run_c)], env=env,
                          cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "tasks whose outcome differs (2)" in done.stdout
    assert f"{SOURCE}:1: passed | failed" in done.stdout and f"{SOURCE}:2: passed | failed" in done.stdout
    assert f"{SOURCE}:5:" not in done.stdout  # config_error in both runs
    overall = next(line for line in done.stdout.splitlines() if line.startswith("all "))
    scored = sum(status in ("passed", "failed") for status in EXPECTED.values())
    rate_b = sum(status == "passed" for status in EXPECTED.values()) / scored
    assert overall.rstrip().endswith(f"{-rate_b * 100:+.1f}")  # run C passed none of its tasks: points vs run 1


def test_rescore_judges_again_from_saved_evidence(resumed_run, test_settings, tmp_path) -> None:
    copy = tmp_path / "run-a-copy"
    shutil.copytree(resumed_run[0], copy)
    # Without --judge-url the fuzzy task cannot be judged again: unscorable, not a 0; the rest stand.
    done = subprocess.run([sys.executable, "-m", "cli.main", "rescore", str(copy)], env=environment(test_settings),
                          cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"{SOURCE}:7: passed -> unscorable" in done.stdout
    records = by_id(copy)
    assert {i: r["status"] for i, r in records.items()} == {**EXPECTED, 7: "unscorable"}
    assert "saved page contents" in records[3]["verdicts"][0]["message"]


def test_a_folder_holding_another_run_is_refused(resumed_run, test_settings, task_files) -> None:
    tasks, _ = task_files
    out = str(resumed_run[0])
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "run", "--tasks", str(tasks), "--policy", "stop", "--out", out],
        env=environment(test_settings), cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert "holds another run" in done.stderr and "--fresh" in done.stderr


# ---- the same task set on Ray ----


def verdicts(record: dict) -> list[tuple[str, str]]:
    return [(v["eval_type"], v["status"]) for v in record["verdicts"]]


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, stack = [], [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def task_worker_pids(root: int) -> list[int]:
    pids = []
    for pid in descendants(root):
        try:
            title = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
        except OSError:
            continue
        if title.startswith("ray::TaskWorker"):
            pids.append(pid)
    return pids


@pytest.fixture(scope="module")
def ray_run(two_worker_run, sandbox, test_settings, task_files, judge_server, tmp_path_factory):
    """`--ray --workers 2`, to compare with run B (`--workers 2`); one Ray worker is killed (SIGKILL) as soon as
    the first record exists."""
    sandbox.reset()
    out = tmp_path_factory.mktemp("runs") / "ray"
    env = environment(test_settings)
    cmd = command(task_files, out, judge_server, "--workers", "2", "--ray")
    process = subprocess.Popen(cmd, env=env, cwd=PROJECT_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)  # fmt: skip
    killed = None
    deadline = time.monotonic() + 300
    try:
        while process.poll() is None and time.monotonic() < deadline:
            pids = task_worker_pids(process.pid)
            if len(pids) == 2 and list(out.glob(f"tasks/*/{RECORD_FILE}")):
                killed = pids[0]
                os.kill(killed, signal.SIGKILL)
                break
            time.sleep(0.05)
        stdout, stderr = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 0, stdout + stderr
    return out, killed, stdout + stderr


@needs_ray
def test_ray_gives_the_verdicts_of_workers_even_with_a_worker_killed(two_worker_run, ray_run) -> None:
    out, killed, _ = ray_run
    worker_run = two_worker_run[0]
    assert killed is not None, "the kill should land while tasks were running"
    assert not list(Path(str(out)).glob("tasks/*/*.tmp"))
    ray_records, worker_records = by_id(out), by_id(worker_run)
    assert sorted(ray_records) == sorted(worker_records) == sorted(range(1, len(TASKS) + 1))
    assert {i: verdicts(r) for i, r in ray_records.items()} == {i: verdicts(r) for i, r in worker_records.items()}
    assert {i: (r["status"], r["score"]) for i, r in ray_records.items()} == {
        i: (r["status"], r["score"]) for i, r in worker_records.items()
    }
    # the same layout (run B also holds the `reports/` a later `videodemo report` wrote into it, and the note of
    # that paired report, reports.json)
    later = {"reports", REPORTS_FILE}
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in worker_run.iterdir() if p.name not in later)


@needs_ray
def test_running_the_ray_command_again_runs_nothing_already_recorded(ray_run, test_settings, task_files,
                                                                      judge_server) -> None:
    out = ray_run[0]
    mtimes = {r.task_key: (out / "tasks" / r.folder / RECORD_FILE).stat().st_mtime_ns for r in iter_records(out)}
    cmd = command(task_files, out, judge_server, "--workers", "2", "--ray")
    done = finish(cmd, environment(test_settings))
    assert f"{len(TASKS)} task(s) already finished" in done.stderr
    after = {r.task_key: (out / "tasks" / r.folder / RECORD_FILE).stat().st_mtime_ns for r in iter_records(out)}
    assert after == mtimes
