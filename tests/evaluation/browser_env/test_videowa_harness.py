"""`--harness videowa`: VWA's Set-of-Marks observation, viewport, step limit, its early-stop rules and answers,
the reference's drawing of the marks, and the pause and fresh observation after an unparseable reply."""

from __future__ import annotations

import io
import re
import time

import pytest
from PIL import Image

from evaluation.browser_env.actions import parse_action
from evaluation.browser_env.early_stop import stop_reason
from evaluation.scoring.evaluate import evaluate_task
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
    assert (agent.action_parser, videowa_settings.video_context.intermediate_answer) == ("videowa", "reply")
    judge, policy = videowa_settings.models.judge, videowa_settings.models.policy
    assert (judge.model, judge.temperature, judge.max_tokens) == ("gpt-4-1106-preview", 0.0, 768)
    decoding = (policy.temperature, policy.max_tokens, policy.extra_body, policy.reasoning_effort)
    assert decoding == (1.0, 4096, {"top_p": 0.9}, "")


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
    # Numbered 1..N in document order; every listed number can be acted on (small elements are numbered unlisted).
    assert sorted(observation.nodes, key=int) == [str(n) for n in range(1, len(observation.nodes) + 1)]
    assert [int(m[1]) for m in marked] == sorted(int(m[1]) for m in marked) and {m[1] for m in marked} <= set(
        observation.nodes
    )
    assert observation.set_of_marks and "RootWebArea" not in observation.text and "Tab 0" not in observation.text
    assert Image.open(io.BytesIO(observation.screenshot)).size == (1280, 2048)

    # Five scrolls down in a row: the reference stops with its own answer (actions are read from a fence only).
    for _ in range(4):
        assert not env.step("```scroll [down]```").done
    result = env.step("```scroll [down]```")
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
        assert not env.step(f"```type [{search}] [{word}] [0]```").done
        assert not env.step("```scroll [up]```").done
    result = env.step(f"```type [{search}] [coffee] [0]```")
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


def test_marks_follow_the_reference_page_rules_and_survive_a_reload(pages_url, make_env, videowa_settings) -> None:
    videowa_settings.browser.wait_after_action_s = 0.0
    env = make_env(settings=videowa_settings)
    observation = env.reset(EpisodeTask(start_url=f"{pages_url}/marks.html"))
    assert observation.text.splitlines() == [
        "[] [StaticText] [Plain words]",
        "[1] [BUTTON] [Search]",  # the page-wide focusable box (over 80% of the viewport) is dropped
        # "Search" again as text is not repeated; the 5x5 button is number 2, neither drawn nor listed
        "[3] [IMG] [Shop logo]",
        "[4] [INPUT] []",
        # "N/A" is missing after the reference's CSV round trip; CSS-like text is skipped
        "[] [StaticText] [" + ("Lorem " * 50)[:200] + "]",
        "[5] [A] [Next page]",
        # the button 3000 px down is outside the viewport: no number
    ]
    assert sorted(observation.nodes) == ["1", "2", "3", "4", "5"]
    env.page.reload()
    assert env.observe().text == observation.text
    result = env.step("In summary, the next action I will perform is ```click [5] to go on```")
    assert result.ok, result.error
    assert env.url.endswith("/third.html")


NEXT_PAGE = re.compile(r"^\[(\d+)\] \[A\] \[Next page\]$", re.M)


def test_five_clicks_on_next_page_stop_the_episode(pages_url, make_env, videowa_settings) -> None:
    # Pages of one layout, from the second (Previous is there from then on). (The sandbox shop's listing
    # pages differ in review links, stock and swatches, so there the reference's numbers move too.)
    videowa_settings.browser.wait_after_action_s = 0.0
    env = make_env(settings=videowa_settings)
    observation = env.reset(EpisodeTask(start_url=f"{pages_url}/catalogue.html?p=2"))
    next_id = NEXT_PAGE.search(observation.text)[1]
    urls = []
    for click in range(1, 6):
        reply = f"Let's think step-by-step. More results are on the next page. ```click [{next_id}] to see them```"
        result = env.step(reply)
        assert result.ok, result.error
        urls.append(env.url)
        if click < 5:
            assert not result.done
            assert NEXT_PAGE.search(result.observation.text)[1] == next_id  # the same number on every page
    assert [url.rsplit("=", 1)[1] for url in urls] == ["3", "4", "5", "6", "7"]
    assert result.done and result.answer == "Early stop: Same action for 5 times"


COUNT = re.compile(r"\[\] \[StaticText\] \[Count (\d+)\]")


@pytest.mark.parametrize("again", [True, False])
def test_after_an_unparseable_reply_the_page_is_observed_again_after_the_pause(
    pages_url, make_env, videowa_settings, again
) -> None:
    assert videowa_settings.agent.observe_after_unparseable  # the preset's value: the reference's no-op step
    videowa_settings.agent.observe_after_unparseable = again
    # Long enough that a loaded machine's step without the pause stays well under it.
    videowa_settings.browser.wait_after_action_s = 2.0
    env = make_env(settings=videowa_settings)
    first = int(COUNT.search(env.reset(EpisodeTask(start_url=f"{pages_url}/ticking.html")).text)[1])
    started = time.monotonic()
    result = env.step("I will click the button: click [1]")  # no fence: the reference cannot read it
    took = time.monotonic() - started
    assert result.action is None and not result.done
    after = int(COUNT.search(result.observation.text)[1])
    if again:
        assert took >= 2.0 and after > first  # the pause, then the page as it is now
    else:
        assert took < 2.0 and after == first


def _near(pixel: tuple[int, int, int], colour: str) -> bool:
    wanted = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return all(abs(a - b) <= 8 for a, b in zip(pixel, wanted))


def test_numbers_take_the_first_free_of_nine_places_and_are_drawn_after_every_box(
    pages_url, make_env, videowa_settings
) -> None:
    assert videowa_settings.agent.som_labels == "videowa"  # the preset's value
    videowa_settings.browser.wait_after_action_s = 0.0
    env = make_env(settings=videowa_settings)
    observation = env.reset(EpisodeTask(start_url=f"{pages_url}/labels.html"))
    assert [line.split("]")[0] for line in observation.text.splitlines()] == ["[1", "[2", "[3", "[4"]
    image = Image.open(io.BytesIO(observation.screenshot)).convert("RGB")
    blue, orange, green, red = "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"  # matplotlib's cycle, by number
    # Each tag's padding row just above its text, and what the box outline looks like.
    assert _near(image.getpixel((85, 83)), blue)  # 1 (box at 100,100): above its top-left corner
    assert _near(image.getpixel((105, 87)), orange)  # 2: that place would touch 1's tag, so above its left edge
    assert _near(image.getpixel((71, 73)), green)  # 3: above its top-left corner, clear of 1's tag
    assert _near(image.getpixel((5, 23)), red)  # 4 (box at 4,4): no room above or left, so below its left edge
    assert _near(image.getpixel((130, 100)), blue) and _near(image.getpixel((4 + 15, 4)), red)  # 2 px outlines
    assert all(image.getpixel((x, y)) == (255, 255, 255) for x in range(0, 4) for y in range(0, 4))  # nothing above 4
    # Box 3's top edge (y 90-91) runs through the tags of 1 and 2: drawn last, they cover it.
    assert not any(_near(image.getpixel((x, y)), green) for x in range(82, 96) for y in range(90, 92))
    assert not any(_near(image.getpixel((x, y)), green) for x in range(102, 116) for y in range(90, 92))
    assert _near(image.getpixel((200, 90)), green)  # the edge itself, away from the tags


def test_our_marks_stay_a_setting(pages_url, make_env, videowa_settings) -> None:
    videowa_settings.agent.som_labels = "ours"
    videowa_settings.browser.wait_after_action_s = 0.0
    env = make_env(settings=videowa_settings)
    image = Image.open(io.BytesIO(env.reset(EpisodeTask(start_url=f"{pages_url}/labels.html")).screenshot))
    assert not _near(image.convert("RGB").getpixel((85, 83)), "#1f77b4")  # no reference tag there


def test_a_missing_label_font_is_one_line_before_any_page(videowa_settings, tmp_path) -> None:
    from evaluation.browser_env.observation import ObservationOptions
    from foundation.errors import UserError

    videowa_settings.agent.som_font = str(tmp_path / "SourceCodePro-SemiBold.ttf")
    with pytest.raises(UserError, match=r"agent.som_font: .*SourceCodePro-SemiBold.ttf is not a readable font file"):
        ObservationOptions.from_settings(videowa_settings.agent)
