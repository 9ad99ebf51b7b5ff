"""`agent.max_steps` has one reader, the episode options (`EpisodeOptions.from_agent_settings`): the progress line
counts against the options a policy plays under, and verification bounds its episodes through options of its own,
never by changing the settings."""

from __future__ import annotations

import argparse
import copy
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

from agent.verification.stage import TRAJECTORY_STEP_BOUND, verification_episode
from evaluation.browser_env.episode_options import EpisodeOptions
from evaluation.running.policies.stop import StopPolicy
from evaluation.running.task_runner import TaskRunner
from settings import load_settings, settings_as_dict

SHORT = 3


class ShortPolicy(StopPolicy):
    """Stops at once, in episodes it asks to be at most `SHORT` steps long."""

    def episode_options(self, defaults: EpisodeOptions) -> EpisodeOptions:
        return replace(defaults, max_steps=SHORT)


def build_short_policy(settings: Any, args: argparse.Namespace) -> ShortPolicy:
    return ShortPolicy()


class OneStepEnv:
    """Plays any reply as one step that ends the episode; keeps the options it was reset with."""

    def reset(self, task: Any, options: EpisodeOptions) -> None:
        self.options, self.done, self.observation = options, False, None
        self.record = SimpleNamespace(steps=[], model_calls_kept=False)

    def step(self, reply: str) -> None:
        self.record.steps.append(SimpleNamespace(index=len(self.record.steps) + 1))
        self.done = True


def test_the_progress_line_counts_against_the_options_the_policy_plays_under(tmp_path) -> None:
    settings = load_settings(overrides=["run.keep_model_calls=false"])
    settings.paths.cache_dir = tmp_path / "cache"
    lines: list[str] = []
    policy = f"{__name__}:build_short_policy"
    runner = TaskRunner(settings, policy, argparse.Namespace(), tmp_path / "run", progress=lines.append)
    runner._env = OneStepEnv()
    try:
        runner.progress.start("shop/1")
        assert runner._episode(SimpleNamespace(key="shop/1"), tmp_path) is None
        runner.progress.stop()
    finally:
        runner._env = None
        runner.close()
    shown = next(line for line in lines if ": step " in line)
    assert shown.startswith(f"shop/1: step 1/{SHORT},") and settings.agent.max_steps == 20


def test_verification_bounds_its_episodes_without_changing_the_settings() -> None:
    settings = load_settings(harness="videowa")  # its own step limit (30) and early-stop rules
    before = copy.deepcopy(settings_as_dict(settings))
    options = verification_episode(settings)
    assert options.max_steps == TRAJECTORY_STEP_BOUND and options.early_stop == "none"
    assert options.observation == EpisodeOptions.from_agent_settings(settings.agent).observation
    assert settings_as_dict(settings) == before and settings.agent.max_steps == 30


def test_verify_index_hands_the_browser_its_bound_and_the_settings_untouched(tmp_path, monkeypatch) -> None:
    """The stage as it runs: its browser gets the verification's options with the settings as they came."""
    from agent.verification import stage
    from evaluation.browser_env import environment
    from foundation.records.trajectory import LabeledAction, Trajectory

    settings = load_settings(overrides=["verification.reset_site=false", "verification.read_address_bar=false"])
    settings.paths.cache_dir = tmp_path / "cache"
    before = copy.deepcopy(settings_as_dict(settings))
    opened: list[tuple[Any, EpisodeOptions]] = []

    class Browser:
        def __init__(self, given: Any, episode: EpisodeOptions) -> None:
            opened.append((given, episode))

        def __enter__(self) -> Browser:  # noqa: PYI034 - a stand-in, never subclassed
            return self

        def __exit__(self, *exc: object) -> None:
            pass

    class Verifier:
        def __init__(self, *args: Any) -> None:
            pass

        def verify(self, trajectory: Any, start: Any, task: Any, prefix: Any = None) -> dict[str, Any]:
            return {"verdict": "verified", "carried_out": 1, "steps": 1, "reason": "carried out",
                    "start_page": start.to_dict(), "mean_similarity": None}  # fmt: skip

    class Index:  # the one trajectory to check, no verdict kept yet
        def __init__(self) -> None:
            self.kept: dict[str, Any] = {}

        def videos(self) -> list[str]:
            return ["v"]

        def trajectories(self, video: str) -> list[Trajectory]:
            return [Trajectory(trajectory_id="v/0-0", video_id="v", objective="search", step_keyframes=[""],
                               actions=[LabeledAction("click", "Go")], first_frame="", last_frame="", start_s=0.0,
                               end_s=1.0, span=(0, 0))]  # fmt: skip

        def verdicts(self) -> dict[str, Any]:
            return {}

        def video(self, video: str) -> None:
            return None

        def set_verdict(self, trajectory: Trajectory, record: dict[str, Any]) -> None:
            self.kept[trajectory.trajectory_id] = record

    monkeypatch.setattr(environment, "BrowserEnv", Browser)
    monkeypatch.setattr(stage, "TrajectoryVerifier", Verifier)
    index = Index()
    task = SimpleNamespace(key="shop/1", video="v", videos=["v"], sites=["shopping"], start_urls=["http://shop/"],
                           storage_state=None)  # fmt: skip
    monkeypatch.setattr(stage, "task_for_video", lambda video, tasks: task)
    run = stage.verify_index(index, settings, [task], report=lambda line: None)
    assert run.checked == 1 and index.kept["v/0-0"]["verdict"] == "verified" and len(opened) == 1
    given, episode = opened[0]
    assert given is settings and settings_as_dict(settings) == before
    assert episode.max_steps == TRAJECTORY_STEP_BOUND and episode.early_stop == "none"
