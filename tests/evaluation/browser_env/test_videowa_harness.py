"""`--harness videowa`: VWA's Set-of-Marks observation, viewport, step limit, and its early-stop rules and answers."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from evaluation.actions import parse_action
from evaluation.early_stop import stop_reason
from evaluation.evaluate import evaluate_task
from settings import load_settings

from tests.evaluation.browser_env.browser_env_helpers import EpisodeTask

SOM_LINE = re.compile(r"^\[(\d*)\] \[([A-Za-z]+)\] \[(.*)\]$")


@pytest.fixture
def videowa_settings(env_settings):
    settings = load_settings(harness="videowa")
    settings.paths, settings.sandbox = env_settings.paths, env_settings.sandbox
    return settings


def test_the_preset_sets_the_reference_conditions(videowa_settings) -> None:
    browser, agent = videowa_settings.browser, videowa_settings.agent
    assert (browser.viewport_width, browser.viewport_height, agent.max_steps) == (1280, 2048, 30)
    assert (agent.history_length, agent.observation_format, agent.early_stop) == (1, "som", "videowa")
    assert (browser.wait_after_action_s, browser.program_html_wait_s) == (2.5, 3.0)
    assert load_settings(harness="method").agent.max_steps == load_settings().agent.max_steps == 20


def test_observation_is_set_of_marks_text_and_early_stop_answers_as_the_reference(
    sandbox, make_env, videowa_settings
) -> None:
    videowa_settings.browser.wait_after_action_s = 0.1  # the preset's 2.5 s only slows the test
    env = make_env(settings=videowa_settings)
    observation = env.reset(EpisodeTask(start_url=sandbox.shop_url, sites=["shopping"]))

    lines = observation.tree_text.splitlines()
    assert lines and all(SOM_LINE.match(line) for line in lines), [l for l in lines if not SOM_LINE.match(l)][:3]
    marked = [SOM_LINE.match(line) for line in lines if not line.startswith("[] ")]
    assert {m[2] for m in marked} >= {"A", "INPUT", "BUTTON"}
    assert any(line.startswith("[] [StaticText] [") for line in lines)
    assert set(observation.nodes) == {m[1] for m in marked}  # the ids one can act on are the marked ones
    assert observation.set_of_marks and "RootWebArea" not in observation.text
    assert Image.open(io.BytesIO(observation.screenshot)).size == (1280, 2048)

    # Five scrolls down in a row: the reference stops with its own answer.
    for _ in range(4):
        assert not env.step("scroll [down]").done
    result = env.step("scroll [down]")
    assert result.done and result.stop_reason == "repeated_action"
    assert result.answer == env.record.answer == "Early stop: Same action for 5 times"
    # string_match reads it like any answer (a task whose reference is "N/A" style text fails, not errors).
    block = {"eval_types": ["string_match"], "reference_answers": {"must_include": ["Early stop"]}}
    scored = evaluate_task({"intent": "x", "eval": block}, None, result.answer, env.url)
    assert [verdict.status for verdict in scored.verdicts] == ["passed"]

    # `type` into one element five times in the episode, even with other actions between.
    observation = env.reset(EpisodeTask(start_url=sandbox.shop_url, sites=["shopping"]))
    search = next(m[1] for m in marked if m[2] == "INPUT")
    for word in ("kettle", "mug", "tea", "lamp"):
        assert not env.step(f"type [{search}] [{word}] [0]").done
        assert not env.step("scroll [up]").done
    result = env.step(f"type [{search}] [coffee] [0]")
    assert result.done and result.answer == "Early stop: Same typing action for 5 times"


def test_the_reference_rules_in_order() -> None:
    click, other = parse_action("click [7]"), parse_action("click [8]")
    assert stop_reason([click] * 4, 30, 3, 5) is None
    assert stop_reason([click] * 5, 30, 3, 5) == ("repeated_action", "Same action for 5 times")
    assert stop_reason([click] * 4 + [other], 30, 3, 5) is None
    assert stop_reason([other] + [None] * 3, 30, 3, 5) == ("parse_failures", "Failed to parse actions for 3 times")
    assert stop_reason([click, None] * 15, 30, 3, 5) == ("max_steps", "Reach max steps 30")
    typed = [parse_action(f"type [7] [{word}] [1]") for word in "abcd"]
    assert stop_reason([typed[0], click, typed[1], typed[2], other], 30, 3, 5) is None
    assert stop_reason(typed + [other, typed[0]], 30, 3, 5) == ("repeated_action", "Same typing action for 5 times")
