"""Model health counts every step whose reply gave no action, whatever words its policy used to say so (issue 39)."""

from __future__ import annotations

from evaluation.browser_env.episode import StepRecord
from evaluation.running.run_health import health_text, run_health, task_health
from foundation.records.task_record import TaskRecord


def _step(index: int, action: dict | None, error: str | None, extra: dict | None = None) -> StepRecord:
    return StepRecord(index, "reply", action, error is None, error, "http://a/", "http://a/", "", extra=extra or {})


def test_steps_without_a_readable_action_are_counted_for_each_policy() -> None:
    agentoccam = "the ACTION section holds no command (11 replies; agentoccam.max_invalid_reasks)"
    steps = [
        _step(1, {"kind": "click"}, None),
        _step(2, None, agentoccam, {"unparseable": agentoccam}),  # AgentOccam gave up re-asking
        _step(3, None, "unparseable reply: no fenced action", {"unparseable": "no fenced action"}),  # ReAct
        _step(4, None, "target 'Go' is not on the page"),  # a scripted policy's miss: a reply was read
    ]
    health = task_health(steps, {"truncated": 1, "cut_streams": 2})
    assert health["unparseable_steps"] == 2
    assert health["cut_streams"] == 2
    summary = run_health([TaskRecord(model_health=health, stop_reason="max_steps")])
    text = health_text(summary, steps=4)
    assert "steps with no readable action" in text and "streams cut by the server" in text
    line = next(line for line in text.splitlines() if line.startswith("steps with no readable action"))
    assert line.split()[-2:] == ["2", "1"]


def test_a_step_and_a_run_whose_server_reported_no_tokens_say_n_a() -> None:
    from evaluation.reports.report import cost_per_step, cost_table
    from evaluation.running.run_health import step_usage

    before = {"calls": 2, "prompt_tokens": 100, "completion_tokens": 10, "no_usage": 0}
    after = {"calls": 4, "prompt_tokens": 100, "completion_tokens": 10, "no_usage": 2, "latency_s": 3.0}
    usage = step_usage(before, after)
    assert usage["calls"] == 2 and usage["prompt_tokens"] == "n/a" and usage["completion_tokens"] == "n/a"
    reported = step_usage(before, {**after, "no_usage": 0, "prompt_tokens": 180})
    assert reported["prompt_tokens"] == 80

    rows = [{"stage": "policy", "role": "policy", "calls": 6, "cache_hits": 0, "failures": 0, "no_usage": 6,
             "prompt_tokens": 0, "completion_tokens": 0, "images": 0}]  # fmt: skip
    table = cost_table({"steps": 3, "policy_cost_per_step": cost_per_step({"rows": rows}, 3)})
    assert table.splitlines()[-1].split() == ["policy", "2.00", "n/a", "n/a", "0.00"]


def test_replies_cut_at_the_length_limit_are_counted_in_the_health_table_not_printed(
    scripted_server, tmp_path, caplog
) -> None:
    """A small model cut at its `max_tokens` every reply: one line per reply flooded the progress (issue 59)."""
    import logging

    from model_access.client import ModelClient
    from model_access.messages import user_message
    from settings import load_settings

    server = scripted_server({"default": "one two three four five six seven eight"})
    settings = load_settings()
    settings.paths.cache_dir = tmp_path
    settings.models.policy.base_url, settings.models.policy.model = server.base_url, "small"
    settings.models.policy.max_tokens = 3
    with ModelClient(settings) as client, caplog.at_level(logging.INFO):
        for turn in range(3):
            client.chat("policy", [user_message(f"act {turn}")], stage="policy")
        totals = client.ledger.to_dict()["totals"]
    assert "length limit" not in caplog.text
    health = task_health([_step(1, {"kind": "click"}, None)], totals)
    assert health["truncated_replies"] == 3
    text = health_text(run_health([TaskRecord(model_health=health, stop_reason="max_steps")]), steps=1)
    assert "replies cut at the length limit" in text
