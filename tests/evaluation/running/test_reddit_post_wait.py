"""`run.reddit_post_wait_s`: the wait before each forum posting task that AgentOccam's runner makes (30 minutes
before WebArena's tasks 600-649 and 681-688, eval_webarena.py); `--harness agentoccam` sets it, the others leave it 0.

A posting task is on the reddit site and its WebArena id (the config's webarena_task_id or original_task_id, else
its task_id) is in `run.reddit_post_tasks`. Played here through the runner with the stop policy on the sandbox forum.
"""

from __future__ import annotations

import argparse
from dataclasses import replace

import pytest

from evaluation.running.task_runner import TaskRunner, reddit_post_wait_s
from foundation.errors import UserError
from settings.schema import RunSettings
from tasks.loading import SANDBOX_CONFIGS_DIR, load_tasks


def _task(task_id: int, **config):
    task = next(task for task in load_tasks(SANDBOX_CONFIGS_DIR) if task.task_id == task_id)
    return replace(task, config={**task.config, **config})


def test_which_tasks_wait_and_how_long() -> None:
    run = RunSettings(reddit_post_wait_s=1800)
    forum, shop = _task(36), _task(1)  # a forum task and a shop task
    assert reddit_post_wait_s(replace(forum, task_id=600), run) == 1800  # WebArena's own numbering
    assert reddit_post_wait_s(replace(forum, task_id=688), run) == 1800
    assert reddit_post_wait_s(replace(forum, task_id=650), run) == 0  # a reply, not a post: AgentOccam waits not
    assert reddit_post_wait_s(_task(36, webarena_task_id=615), run) == 1800  # the config names its original
    assert reddit_post_wait_s(replace(_task(36, original_task_id=681), task_id=1), run) == 1800
    assert reddit_post_wait_s(replace(_task(36, webarena_task_id=27), task_id=610), run) == 0  # the named id wins
    assert reddit_post_wait_s(replace(shop, task_id=600), run) == 0  # only tasks on the forum
    assert reddit_post_wait_s(replace(forum, task_id=600), RunSettings()) == 0  # the default: no wait
    assert reddit_post_wait_s(replace(forum, task_id=36), replace(run, reddit_post_tasks=["36"])) == 1800
    with pytest.raises(UserError, match="run.reddit_post_tasks holds 'six hundred'; use WebArena task ids"):
        reddit_post_wait_s(replace(forum, task_id=600), replace(run, reddit_post_tasks=["six hundred"]))


def test_the_runner_waits_before_a_posting_task_and_records_it(sandbox, test_settings, tmp_path) -> None:
    settings = replace(test_settings, run=replace(test_settings.run, reddit_post_wait_s=1.5))
    runner = TaskRunner(settings, "stop", argparse.Namespace(), tmp_path)
    try:
        posting = runner.run(_task(36, webarena_task_id=600))
        other = runner.run(_task(36))
    finally:
        runner.close()
    def before_the_episode(record) -> float:  # the task's time outside its episode and its scoring
        timings = record.timings
        return timings["total_s"] - timings["episode_s"] - timings["evaluation_s"]

    assert posting.timings["reddit_post_wait_s"] == 1.5 and before_the_episode(posting) >= 1.5
    assert "reddit_post_wait_s" not in other.timings and before_the_episode(other) < 1.0
    assert posting.status == other.status and posting.steps == other.steps == 1
