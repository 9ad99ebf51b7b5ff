"""`run.step_screenshots`: on (the default) every episode takes a screenshot at each step; off, only the
episodes of a policy that looks at them do."""

from __future__ import annotations

import pytest

from agent.replay.policy import ReplayPolicy
from evaluation.browser_env.episode_options import EpisodeOptions
from evaluation.running.policies.scripted import ScriptedPolicy
from evaluation.running.policies.stop import StopPolicy
from evaluation.running.policy import declared_episode_options
from settings import load_settings


class ModelPolicy:
    """A policy that declares nothing: it may show the screenshot to its model."""

    name = "model"


@pytest.mark.parametrize("policy", [StopPolicy, ScriptedPolicy, ReplayPolicy, ModelPolicy])
def test_screenshots_are_left_out_only_when_the_run_keeps_none_and_the_policy_reads_none(policy) -> None:
    defaults = EpisodeOptions.from_agent_settings(load_settings().agent)
    assert load_settings().run.step_screenshots  # the default keeps them
    shown = policy.__new__(policy)  # the attribute is the class's: no policy needs building here
    assert declared_episode_options(shown, defaults).observation.screenshot
    kept = declared_episode_options(shown, defaults, step_screenshots=False).observation.screenshot
    assert kept == (policy is ModelPolicy)
