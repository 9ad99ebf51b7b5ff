"""`videodemo run --samples N` as a user runs it: independent samples of one task against the scripted model
server, a sample killed mid-task and resumed, and temperature 0 shared across samples (and said so)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evaluation.running.task_record import iter_records
from foundation.records.task_record import TaskRecord
from model_access.scripted_server import ScriptedServer
from settings import PROJECT_ROOT

from tests.evaluation.running.task_set import write_task_set

RIGHT = "The page shows the default address.\n```\nstop [2145 Maple Grove Ave]\n```"
WRONG = "I think it is another street.\n```\nstop [12 Elm Street]\n```"
SCROLL = "Let me look further down.\n```\nscroll [down]\n```"


@pytest.fixture(scope="module")
def task_files(tmp_path_factory):
    return write_task_set(tmp_path_factory.mktemp("task-set"))


def command(task_files, out: Path, server: ScriptedServer, *extra: str) -> list[str]:
    tasks, _ = task_files
    return [
        sys.executable, "-m", "cli.main", "run", "--tasks", str(tasks), "--ids", "1", "--policy", "react",
        "--policy-url", server.base_url, "--policy-model", "policy-model", "--out", str(out), "--no-progress",
        # The default observation, the accessibility tree: its ids read the same in every browser session
        # (agent.stable_element_ids), so a sample resumed in a new process sends the prompts it sent before.
        "--set", "agent.use_screenshot=false", *extra,
    ]  # fmt: skip


def environment(cache: Path) -> dict[str, str]:
    """The command's environment. No login beforehand: the first command logs in, a resumed one reuses the
    login, and the page still reads the same to both."""
    return dict(os.environ, VIDEODEMO_CACHE=str(cache), PYTHONUNBUFFERED="1")


def finish(cmd: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, env=env, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=540)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def only_record(run_dir: Path) -> TaskRecord:
    records = list(iter_records(run_dir))
    assert len(records) == 1, records
    return records[0]


def policy_bodies(server: ScriptedServer) -> list[str]:
    return [json.dumps(r["body"]["messages"]) for r in server.requests("/v1/chat/completions")]


def test_two_samples_at_temperature_1_draw_two_replies(sandbox, test_settings, task_files, tmp_path):
    with ScriptedServer([RIGHT, WRONG]) as server:
        out = tmp_path / "runs" / "react"
        env = environment(tmp_path / "cache")
        done = finish(command(task_files, out, server, "--samples", "2", "--set", "models.policy.temperature=1.0"), env)
        bodies = policy_bodies(server)
    assert len(bodies) == 2 and bodies[0] == bodies[1]  # the same prompt, sent twice: two draws
    first, second = only_record(out), only_record(tmp_path / "runs" / "react-sample2")
    assert (first.sample, second.sample) == (1, 2)
    assert (first.answer, first.score) == ("2145 Maple Grove Ave", 1.0)
    assert (second.answer, second.score) == ("12 Elm Street", 0.0)
    assert "the 2 samples:" in done.stdout
    manifest = json.loads((tmp_path / "runs" / "react-sample2" / "run.json").read_text())
    assert manifest["identity"]["sample"] == 2


def test_a_killed_sample_resumes_without_paying_a_call_twice(sandbox, test_settings, task_files, tmp_path):
    # Step 1 is answered at once; step 2's reply is held back long enough to kill the run while it waits.
    script = {"replies": [SCROLL, {"reply": RIGHT, "delay_s": 60}], "default": RIGHT}
    with ScriptedServer(script) as server:
        out = tmp_path / "runs" / "react"
        env = environment(tmp_path / "cache")
        cmd = command(task_files, out, server, "--sample", "2", "--set", "models.policy.temperature=1.0")
        process = subprocess.Popen(
            cmd, env=env, cwd=PROJECT_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
        )
        deadline = time.monotonic() + 300
        while len(server.requests("/v1/chat/completions")) < 2:
            assert process.poll() is None, process.stderr.read().decode()[-2000:]
            assert time.monotonic() < deadline, "the second policy call never came"
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        assert not list(iter_records(out)), "the task finished before the kill"

        finish(cmd, env)
        bodies = policy_bodies(server)
    record = only_record(out)
    assert record.sample == 2 and record.score == 1.0 and record.steps == 2
    assert "ACCESSIBILITY TREE" in bodies[0]  # the default observation
    # The answered first call is replayed from the cache (the scroll again), never sent twice; only the call
    # the kill cut before its answer is sent once more.
    assert len(bodies) == 3
    assert bodies.count(bodies[0]) == 1 and bodies[2] == bodies[1]
    # Each step keeps its model call for the task page: the messages the server got, the reply, and whether
    # the reply was replayed from the cache (run.keep_model_calls).
    episode = json.loads((out / "tasks" / str(record.folder) / "episode.json").read_text())
    calls = [call for step in episode["steps"] for call in step["model_calls"]]
    assert [(call["cached"], call["reply"]) for call in calls] == [(True, SCROLL), (False, RIGHT)]
    kept = [{"role": m["role"], "content": "".join(p["text"] for p in m["content"])} for m in calls[1]["messages"]]
    assert json.dumps(kept) == bodies[2]
    page = (out / "tasks" / str(record.folder) / "report.html").read_text()
    assert page.count('<details class="call">') == 2


def test_at_temperature_0_later_samples_share_the_first_calls_and_say_so(
    sandbox, test_settings, task_files, tmp_path
):
    with ScriptedServer([RIGHT, WRONG]) as server:
        out = tmp_path / "runs" / "react"
        env = environment(tmp_path / "cache")
        done = finish(command(task_files, out, server, "--samples", "2", "--set", "models.policy.temperature=0"), env)
        bodies = policy_bodies(server)
    assert len(bodies) == 1
    first, second = only_record(out), only_record(tmp_path / "runs" / "react-sample2")
    assert first.answer == second.answer == "2145 Maple Grove Ave"
    shared = second.usage["policy"]["totals"]["shared_cache_hits"]
    assert shared == 1 and first.usage["policy"]["totals"]["shared_cache_hits"] == 0
    assert "policy run(s) at temperature 0" in done.stderr
