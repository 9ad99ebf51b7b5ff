"""What a user sees when the agent's setup is incomplete: no policy model, no trajectory index."""

from __future__ import annotations

from cli.main import main
from tests.agent.world import DEMONSTRATION, POLICY, action, record, rules_for, steps


def test_without_a_policy_model_the_run_stops_with_the_fix(sandbox, test_settings, tmp_path, capsys) -> None:
    code = main([
        "run", "--ids", "1", "--out", str(tmp_path / "run"), "--no-progress",
        "--set", f"paths.cache_dir={test_settings.paths.cache_dir}",
    ])  # fmt: skip
    assert code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert "model role 'policy' is not configured" in error and "--set models.policy.base_url=" in error


def test_without_any_index_tasks_run_without_demonstrations_and_say_so(run_agent, tmp_path) -> None:
    rules = rules_for("Coffee & Tea", POLICY, [action("stop [$13.49]")])
    run = run_agent(rules, "1", "--index", str(tmp_path / "no-index-here"))
    assert run.exit_code == 0, run.stdout
    assert [request.kind for request in run.requests] == ["policy"]
    assert DEMONSTRATION not in run.requests[0].text
    reason = record(run.out, 1)["policy_info"]["reason"]
    assert "video shop_search_sort not processed: there is no trajectory index in" in reason
    assert steps(run.out, 1)[0]["extra"]["reason"] == reason


def test_base_and_video_are_registered_policies(tmp_path) -> None:
    from argparse import Namespace

    from evaluation.running.policies import build_policy
    from settings import load_settings

    settings = load_settings(overrides=["models.policy.base_url=http://127.0.0.1:9/v1", "models.policy.model=m"])
    settings.paths.cache_dir = tmp_path
    base, video = build_policy("base", settings, Namespace()), build_policy("video", settings, Namespace())
    try:
        assert (base.name, video.name) == ("base", "video")
        assert video.mode.value == "selection" and video.index is None  # no index built in this cache yet
    finally:
        base.close()
        video.close()
