"""Fixtures of the agent tests: the trajectory index, and `videodemo run` against a SCRIPTED model server."""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cli.main import main
from model_access.scripted_server import ScriptedServer
from tasks.loading import SANDBOX_CONFIGS_DIR, load_tasks

from tests.agent.world import Request, build_index, chat_requests, run_command

# The sandbox tasks these tests play, and the video each must name for the scenarios to hold.
TASK_VIDEOS = {1: "shop_search_sort", 6: "shop_search_sort", 20: "shop_order_history", 37: "forum_browse_sort"}


@pytest.fixture(scope="session")
def sandbox_tasks() -> dict[int, Any]:
    tasks = {task.task_id: task for task in load_tasks(SANDBOX_CONFIGS_DIR) if task.task_id in TASK_VIDEOS}
    for task_id, video in TASK_VIDEOS.items():
        assert tasks[task_id].video == video, f"sandbox task {task_id} no longer names video {video}"
    return tasks


@pytest.fixture(scope="session")
def agent_index(tmp_path_factory) -> Path:
    with ScriptedServer({"name": "embeddings", "default": "unused"}) as server:
        return build_index(tmp_path_factory.mktemp("agent-index"), server.base_url)


@dataclass
class AgentRun:
    out: Path
    exit_code: int
    stdout: str
    requests: list[Request]
    embedding_requests: int


@pytest.fixture(scope="module")
def run_agent(sandbox, sandbox_tasks, test_settings, agent_index, tmp_path_factory):
    """run_agent(rules, ids, *flags): one `videodemo run` in this process, its model served by a SCRIPTED server."""

    def run(rules: list[dict[str, Any]], ids: str, *flags: str) -> AgentRun:
        out = tmp_path_factory.mktemp("agent-run") / "run"
        script = {"name": "agent", "rules": rules}
        with ScriptedServer(script) as server:
            command = run_command(out, agent_index, server.base_url, ids, *flags)
            command += ["--set", f"paths.cache_dir={test_settings.paths.cache_dir}"]
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                exit_code = main(command)
            embeddings = len(server.requests("/embeddings"))
            return AgentRun(out, exit_code, printed.getvalue(), chat_requests(server), embeddings)

    return run
