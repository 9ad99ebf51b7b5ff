"""Harness presets: `--harness videowa` and `--harness method`, shown by `videodemo settings show`."""

from __future__ import annotations

import pytest
import yaml

from cli.main import main
from settings import SettingsError, load_settings


def _show(capsys, *args: str) -> tuple[str, dict]:
    assert main(["settings", "show", *args]) == 0
    out = capsys.readouterr().out
    return out.splitlines()[0], yaml.safe_load(out)


def test_settings_show_prints_either_preset(capsys) -> None:
    header, videowa = _show(capsys, "--harness", "videowa")
    assert header.startswith("# harness: videowa (presets: agentoccam, method, videowa")
    assert videowa["agent"]["max_steps"] == 30 and videowa["agent"]["observation_format"] == "som"
    assert videowa["browser"]["viewport_height"] == 2048 and videowa["agent"]["early_stop"] == "videowa"
    header, method = _show(capsys, "--harness", "method")
    assert header.startswith("# harness: method") and method["agent"]["max_steps"] == 20
    _, default = _show(capsys)
    assert default == method  # no --harness: the method's own


def test_settings_show_says_the_no_video_baseline_decodes_384_tokens_under_videowa(capsys) -> None:
    assert main(["settings", "show", "--harness", "videowa"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == ("# policies without videos (--policy base|react|agentoccam, --no-videos) send max_tokens 384 "
                        "(agent.no_video_max_tokens), not models.policy.max_tokens")  # fmt: skip
    assert main(["settings", "show"]) == 0
    assert "policies without videos" not in capsys.readouterr().out


def test_the_agentoccam_preset_has_its_own_decoding_and_viewport(capsys) -> None:
    """`--harness agentoccam`: AgentOccam alone as its code runs it (gpt.py's call_gpt_with_messages, eval_webarena.py)."""
    header, occam = _show(capsys, "--harness", "agentoccam")
    assert header.startswith("# harness: agentoccam")
    policy = occam["models"]["policy"]
    assert (policy["temperature"], policy["extra_body"]["top_p"], policy["reasoning_effort"]) == (0.5, 0.95, "")
    assert (occam["browser"]["viewport_width"], occam["browser"]["viewport_height"]) == (1920, 1080)
    assert occam["agent"]["early_stop"] == "none" and occam["agent"]["max_steps"] == 20
    assert occam["agent"]["use_screenshot"] is False  # its actor reads the text alone
    # Its cleaner, re-asks, failed actions and forum waits (obs_opt.py, AgentOccam.py, env.py, eval_webarena.py).
    options = occam["agentoccam"]
    assert (options["characters"], options["max_invalid_reasks"], options["observe_after_failed_action"]) == (
        "original", 0, False
    )
    assert (options["prompt_source"], options["checkout"]) == ("original", "")  # its own prompt, from your checkout
    assert occam["run"]["reddit_post_wait_s"] == 1800 and occam["run"]["reddit_post_tasks"] == ["600-649", "681-688"]
    # Scored by its own evaluator (evaluation_harness/evaluators.py): its rules, its 3 s page wait, its judge.
    assert occam["evaluation"]["rules"] == "agentoccam" and occam["browser"]["program_html_wait_s"] == 3.0
    judge = occam["models"]["judge"]
    assert (judge["model"], judge["temperature"], judge["max_tokens"]) == ("gpt-4-1106-preview", 0.0, 768)
    _, method = _show(capsys, "--harness", "method")
    assert method["models"]["policy"]["temperature"] is None  # the method's gpt-5-mini: its default
    options = method["agentoccam"]  # ours: currency kept, at most 10 re-asks, the page observed again; no wait
    assert (options["characters"], options["max_invalid_reasks"], options["observe_after_failed_action"]) == (
        "readable", 10, True
    )
    assert options["prompt_source"] == "ours"
    assert method["run"]["reddit_post_wait_s"] == 0
    assert method["evaluation"]["rules"] == "videowa"
    assert (method["browser"]["viewport_width"], method["agent"]["early_stop"]) == (1280, "none")


def test_config_and_set_apply_on_top_of_the_preset(tmp_path) -> None:
    config = tmp_path / "mine.yaml"
    config.write_text("agent:\n  max_steps: 40\n")
    settings = load_settings(config, ["browser.viewport_height=1024"], harness="videowa")
    assert (settings.agent.max_steps, settings.browser.viewport_height) == (40, 1024)
    assert settings.agent.observation_format == "som"
    with pytest.raises(SettingsError, match="no harness preset 'webarena'; known: agentoccam, method, videowa"):
        load_settings(harness="webarena")


def test_a_run_under_the_other_harness_is_another_run(tmp_path) -> None:
    import argparse

    from evaluation.running.runner import RunSpec, default_run_dir

    spec = RunSpec(tasks_path=tmp_path, policy="base", policy_args=argparse.Namespace())
    method, videowa = load_settings(), load_settings(harness="videowa")
    videowa.agent.max_steps = method.agent.max_steps  # even with the same step limit
    assert "harness" not in spec.identity(method)  # run folders made before presets existed still resume
    assert spec.identity(videowa)["harness"]["agent.observation_format"] == "som"
    assert default_run_dir(method, spec) != default_run_dir(videowa, spec)


def test_element_ids_other_than_the_harness_own_make_another_run(tmp_path) -> None:
    import argparse

    from evaluation.running.runner import RunSpec

    def identity(harness: str | None, *overrides: str) -> dict:
        spec = RunSpec(tasks_path=tmp_path, policy="base", policy_args=argparse.Namespace(harness=harness))
        return spec.identity(load_settings(harness=harness, overrides=list(overrides)))

    # Each harness with its own ids keeps the identity its runs had before the setting existed.
    assert "harness" not in identity(None) and identity(None) == identity("method")
    for harness in ("agentoccam", "videowa"):
        assert "agent.stable_element_ids" not in identity(harness)["harness"]
        assert identity(harness, "agent.stable_element_ids=true")["harness"]["agent.stable_element_ids"] is True
    assert identity(None, "agent.stable_element_ids=false")["harness"] == {"agent.stable_element_ids": False}
