"""The run's progress line tells the step and the model calls of the task in play (issue 39, item 8)."""

from __future__ import annotations

import threading
import time

from evaluation.running.progress import TaskProgress
from model_access.client import ModelClient
from model_access.messages import user_message
from model_access.scripted_server import ScriptedServer
from settings import load_settings


def test_a_slow_call_shows_as_waiting_and_counted_while_the_step_runs(tmp_path) -> None:
    settings = load_settings()
    settings.paths.cache_dir = tmp_path / "cache"
    lines: list[str] = []
    with ScriptedServer({"default": {"reply": "click [3]", "delay_s": 1.5}}) as server:
        settings.models.policy.base_url, settings.models.policy.model = server.base_url, "slow"
        progress = TaskProgress(lines.append, every_s=0.1)
        with ModelClient(settings) as client:
            progress.start("shop/7")
            progress.step(1, 20)
            client.chat("policy", [user_message("first")], stage="policy")
            progress.step(2, 20)
            call = threading.Thread(target=client.chat, args=("policy", [user_message("second")]),
                                    kwargs={"stage": "policy"})  # fmt: skip
            call.start()
            time.sleep(0.8)
            during = progress.line()
            call.join()
            progress.stop()
    assert lines[0] == "shop/7: starting, 0 model call(s)"
    assert "shop/7: step 1/20, 1 model call(s), 1 waiting on a server" in lines
    assert during == "shop/7: step 2/20, 2 model call(s), 1 waiting on a server"
    assert lines[-1] == "shop/7: step 2/20, 2 model call(s)"
