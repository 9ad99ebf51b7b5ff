"""Episodes on the fixture pages: every action kind and its effect, failed steps, early stops, the record."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from evaluation.browser_env.episode import EpisodeRecord

from tests.evaluation.browser_env.browser_env_helpers import VOTE_DELAY_S, EpisodeTask, find_id, has_line


@pytest.fixture
def controls(pages_url):
    return EpisodeTask(start_url=f"{pages_url}/controls.html")


def _field_value(env, key: str) -> str:
    return env.page.evaluate("(key) => document.querySelector(`[data-key=${key}]`).value", key)


def test_hover_moves_the_mouse_onto_the_element(make_env, controls) -> None:
    env = make_env()
    observation = env.reset(controls)
    result = env.step(f"hover [{find_id(observation, 'button', 'Hover me')}]")
    assert result.ok
    assert env.page.evaluate("document.getElementById('hover-target').textContent") == "Hovered"
    assert has_line(result.observation, "StaticText", "Hovered")


def test_type_clear_and_press_edit_a_field(make_env, controls) -> None:
    env = make_env()
    observation = env.reset(controls)
    query = find_id(observation, "textbox", "Search terms")

    assert env.step(f"type [{query}] [ shoes] [0]").ok
    assert _field_value(env, "field-query") == "old text shoes"  # type adds at the caret; clear empties first
    assert env.step(f"clear [{query}]").ok
    assert _field_value(env, "field-query") == ""
    observation = env.step(f"type [{query}] [blue shoes] [0]").observation
    assert _field_value(env, "field-query") == "blue shoes"
    assert "value: 'blue shoes'" in observation.text
    assert env.page.url == controls.start_url  # no Enter, no submit

    assert env.step("press [Control+a]").ok
    assert env.step("press [Backspace]").ok
    assert _field_value(env, "field-query") == ""
    assert env.page.evaluate("window.keys.slice(-2)") == ["Control+a", "Backspace"]


def test_type_with_enter_submits_the_form_and_waits_for_the_new_page(make_env, controls, pages_url) -> None:
    env = make_env()
    observation = env.reset(controls)
    query = find_id(observation, "textbox", "Search terms")
    env.step(f"clear [{query}]")
    result = env.step(f"```type [{query}] [red hat]```")  # Enter by default
    assert result.ok
    assert result.observation.url.startswith(f"{pages_url}/second.html?q=red+hat")
    assert has_line(result.observation, "heading", "Second page")
    assert "StaticText 'red hat'" in result.observation.text


def test_select_option_by_clicking_the_option_or_typing_its_text(make_env, controls) -> None:
    env = make_env()
    observation = env.reset(controls)
    result = env.step(f"click [{find_id(observation, 'option', 'Large')}]")
    assert result.ok
    assert _field_value(env, "field-size") == "l"
    assert env.page.evaluate("window.changes") == ["field-size=l"]
    assert "combobox 'Size' expanded: False value: 'Large'" in result.observation.text

    size = find_id(result.observation, "combobox", "Size")
    assert env.step(f"type [{size}] [extra large]").ok
    assert _field_value(env, "field-size") == "xl"
    failed = env.step(f"type [{size}] [Huge]")
    assert not failed.ok
    assert "has no option 'Huge'" in failed.error and "'Small'" in failed.error
    assert _field_value(env, "field-size") == "xl"


def test_typing_into_a_menu_as_agentoccam_presses_its_keys_and_only_enter_chooses(make_env, controls) -> None:
    """AgentOccam's type (browser_env/actions.py:1375-1381): click the menu, select all, Backspace, type the keys,
    Enter when asked; Chromium's open menu moves its highlight with the keys and takes it on Enter. Ours chooses
    the option the text names."""
    outcomes = []
    for text, enter in (("Large", 0), ("ex", 1)):
        env = make_env()
        observation = env.reset(controls)
        env.episode = replace(env.episode, type_clears_field=True, type_keys_in_menus=True)
        outcomes.append(env.step(f"type [{find_id(observation, 'combobox', 'Size')}] [{text}] [{enter}]").ok)
        outcomes.append(_field_value(env, "field-size"))
    assert outcomes == [True, "m", True, "xl"]  # `Large` without Enter leaves Medium; `ex` and Enter: Extra Large
    env = make_env()
    observation = env.reset(controls)
    assert env.step(f"type [{find_id(observation, 'combobox', 'Size')}] [Large] [0]").ok
    assert _field_value(env, "field-size") == "l"  # ours


def test_click_on_a_checkbox_and_radio_toggles_them(make_env, controls) -> None:
    env = make_env()
    observation = env.reset(controls)
    observation = env.step(f"click [{find_id(observation, 'checkbox', 'Gift wrap')}]").observation
    observation = env.step(f"click [{find_id(observation, 'radio', 'Slow shipping')}]").observation
    assert env.page.evaluate("document.querySelector('[data-key=field-gift]').checked") is True
    assert env.page.evaluate("document.querySelector('[data-key=field-slow]').checked") is True
    assert "radio 'Slow shipping' focused: True checked: true" in observation.text


def test_scroll_moves_the_page_by_a_screen(make_env, controls) -> None:
    env = make_env()
    env.reset(controls)
    down = env.step("scroll [down]").observation
    assert down.scroll[1] == pytest.approx(env.page.evaluate("window.innerHeight"), abs=1)
    assert env.step("scroll [up]").observation.scroll[1] == 0


def test_goto_back_and_forward(make_env, controls, pages_url) -> None:
    env = make_env()
    env.reset(controls)
    observation = env.step(f"goto [{pages_url}/second.html]").observation
    assert observation.url == f"{pages_url}/second.html"
    observation = env.step(f"click [{find_id(observation, 'link', 'Third page')}]").observation
    assert observation.url == f"{pages_url}/third.html"
    assert env.step("go_back").observation.url == f"{pages_url}/second.html"
    assert env.step("go_forward").observation.url == f"{pages_url}/third.html"
    failed = env.step("go_forward")
    assert not failed.ok and "no next page" in failed.error


def test_going_back_to_the_blank_page_a_tab_starts_on_goes_forward_again(make_env, controls) -> None:
    """AgentOccam's browser (browser_env/actions.py:1408-1411) goes forward when go_back lands on about:blank;
    here under every preset, the step saying there was no page to go back to."""
    env = make_env()
    env.reset(controls)  # the tab's history: about:blank, then the start page
    back = env.step("go_back")
    assert back.observation.url == controls.start_url and has_line(back.observation, "heading", "Control panel")
    assert not back.ok and "no previous page" in back.error


def test_tabs_open_focus_and_close(make_env, controls, pages_url) -> None:
    env = make_env()
    env.reset(controls)
    observation = env.step("new_tab").observation
    assert [tab.current for tab in observation.tabs] == [False, True]
    assert observation.url == "about:blank"
    observation = env.step(f"goto [{pages_url}/third.html]").observation
    assert observation.text.startswith("Tab 0: Controls | Tab 1 (current): Third page")
    observation = env.step("tab_focus [0]").observation
    assert observation.url == controls.start_url and has_line(observation, "heading", "Control panel")
    failed = env.step("tab_focus [5]")
    assert not failed.ok and "there is no tab 5" in failed.error
    observation = env.step("close_tab").observation
    assert [tab.url for tab in observation.tabs] == [f"{pages_url}/third.html"]
    assert observation.tabs[0].current and env.page.url == f"{pages_url}/third.html"


def test_link_that_opens_a_new_tab_makes_it_current(make_env, controls, pages_url) -> None:
    env = make_env()
    observation = env.reset(controls)
    observation = env.step(f"click [{find_id(observation, 'link', 'Open in new tab')}]").observation
    assert observation.text.startswith("Tab 0: Controls | Tab 1 (current): Second page")
    assert env.page.url == f"{pages_url}/second.html"


def test_click_waits_for_the_request_it_started(make_env, pages_url) -> None:
    env = make_env()
    observation = env.reset(EpisodeTask(start_url=f"{pages_url}/slow_fetch.html"))
    assert "StaticText '0'" in observation.text
    result = env.step(f"click [{find_id(observation, 'button', 'Upvote')}]")
    assert "StaticText '1'" in result.observation.text  # the server's answer is on the page
    assert result.timings["wait_s"] >= VOTE_DELAY_S - 0.05


def test_stop_ends_the_episode_with_the_answer(make_env, controls) -> None:
    env = make_env()
    env.reset(controls)
    result = env.step("In summary, the next action I will perform is ```stop [Sizes [M] and [L]]```")
    assert result.done and result.stop_reason == "stop"
    assert result.answer == env.answer == "Sizes [M] and [L]"
    assert env.record.answer == "Sizes [M] and [L]" and env.record.stop_reason == "stop"
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step("click [1]")


def test_impossible_actions_are_failed_steps_with_reasons(make_env, controls) -> None:
    env = make_env()
    observation = env.reset(controls)
    unknown = env.step("click [987654]")
    assert (unknown.ok, unknown.done) == (False, False)
    assert "no element [987654]" in unknown.error

    bad_key = env.step("press [Hyperdrive]")
    assert not bad_key.ok and "unknown key 'Hyperdrive'" in bad_key.error

    save = find_id(observation, "button", "Save draft")
    env.page.evaluate("document.querySelector('[data-key=button-save]').remove()")
    gone = env.step(f"click [{save}]")
    assert not gone.ok and "no longer on the page" in gone.error
    assert not has_line(gone.observation, "button", "Save draft")

    unparseable = env.step("I would like to press the save button.")
    assert not unparseable.ok and unparseable.action is None
    assert unparseable.error.startswith("unparseable reply: unknown action")
    assert unparseable.observation is gone.observation  # a no-op step leaves the page alone


def test_three_unparseable_replies_in_a_row_end_the_episode(make_env, env_settings, controls) -> None:
    env_settings.agent.early_stop = "consecutive"  # ours; the default (AgentOccam's runner) has no such rule
    env = make_env()
    env.reset(controls)
    assert not env.step("hmm").done
    assert not env.step("```jump [3]```").done
    assert env.step("scroll [down]").ok  # a valid action resets the count
    assert not env.step("hmm").done
    assert not env.step("hmm").done
    result = env.step("hmm")
    assert result.done and result.stop_reason == "parse_failures"
    assert env.answer is None


def test_the_same_action_five_times_ends_the_episode(make_env, env_settings, controls) -> None:
    env_settings.agent.early_stop = "consecutive"
    env = make_env()
    env.reset(controls)
    results = [env.step("```scroll [down]```") for _ in range(5)]
    assert [result.done for result in results] == [False, False, False, False, True]
    assert results[-1].stop_reason == "repeated_action"


def test_without_early_stop_only_the_step_limit_ends_the_episode(make_env, env_settings, controls) -> None:
    """The method's preset (`agent.early_stop: none`, as AgentOccam's runner): repeats and unparseable replies go on."""
    from settings import load_settings

    env_settings.agent.early_stop = load_settings(harness="method").agent.early_stop
    env_settings.agent.max_steps = 8
    env = make_env()
    env.reset(controls)
    results = [env.step("```scroll [down]```") for _ in range(6)] + [env.step("hmm") for _ in range(2)]
    assert [result.done for result in results] == [False] * 7 + [True]
    assert results[-1].stop_reason == "max_steps"


def test_several_actions_in_one_step_run_in_order_and_a_stop_ends_there(make_env, controls) -> None:
    env = make_env()
    env.episode = replace(env.episode, several_actions=True)  # AgentOccam asks for it: every command of its ACTION runs
    observation = env.reset(controls)
    query = find_id(observation, "textbox", "Search terms")
    block = f"```\nclear [{query}]\ntype [{query}] [kettle] [0]\nclick [424242]\nstop [done]\nclick [{query}]\n```"
    result = env.step(block)
    record = env.record.steps[-1]
    assert [command["action"] for command in record.commands] == [
        f"clear [{query}]", f"type [{query}] [kettle] [0]", "click [424242]", "stop [done]"
    ]  # in order, past the failed click; the click after the stop never runs
    assert [command["ok"] for command in record.commands] == [True, True, False, True]
    assert result.done and result.answer == "done" and not result.ok and "`click [424242]`" in result.error
    assert _field_value(env, "field-query") == "kettle"
    assert len(env.record.steps) == 1  # one step


def test_the_step_budget_ends_the_episode(make_env, env_settings, controls) -> None:
    env_settings.agent.max_steps = 3
    env = make_env()
    env.reset(controls)
    results = [env.step(action) for action in ("scroll [down]", "scroll [up]", "scroll [down]")]
    assert [result.done for result in results] == [False, False, True]
    assert results[-1].stop_reason == "max_steps"


def test_episode_record_holds_every_step_and_round_trips(make_env, controls, pages_url, tmp_path) -> None:
    env = make_env()
    observation = env.reset(controls)
    query = find_id(observation, "textbox", "Search terms")
    env.step(f"```type [{query}] [kettle] [1]```")
    env.step("click [424242]")
    env.step("stop [done]")

    record = env.record
    assert record.task_key == controls.key and record.start_urls == [controls.start_url]
    assert [step.index for step in record.steps] == [1, 2, 3]
    first = record.steps[0]
    assert first.action == {
        "kind": "type",
        "element_id": query,
        "text": "kettle",
        "press_enter": True,
        "raw": f"type [{query}] [kettle] [1]",
    }
    assert first.url_before == controls.start_url
    assert first.url_after.startswith(f"{pages_url}/second.html?q=old+textkettle")
    assert first.ok and set(first.timings) >= {"action_s", "wait_s", "tree_s", "screenshot_s", "total_s"}
    assert record.steps[1].ok is False and "no element [424242]" in record.steps[1].error
    assert record.answer == "done" and record.stop_reason == "stop" and record.final_url == first.url_after

    path = record.save(tmp_path / "episode")
    saved = json.loads(path.read_text())
    assert saved["steps"][0]["screenshot"] == "step_001.png" and saved["start_screenshot"] == "step_000.png"
    for name in ("step_000.png", "step_001.png", "step_002.png", "step_003.png"):
        assert (tmp_path / "episode" / name).read_bytes().startswith(b"\x89PNG")
    loaded = EpisodeRecord.load(tmp_path / "episode")
    assert loaded.to_dict() == record.to_dict()
    assert "Second page" in loaded.steps[0].observation_text


def test_geolocation_of_the_task_config_is_what_the_page_reads(make_env, pages_url) -> None:
    env = make_env()
    task = EpisodeTask(
        start_url=f"{pages_url}/second.html", config={"geolocation": {"latitude": 40.4443, "longitude": -79.9436}}
    )
    env.reset(task)
    where = env.page.evaluate(
        """() => new Promise((resolve, reject) => navigator.geolocation.getCurrentPosition(
             (p) => resolve([p.coords.latitude, p.coords.longitude]), (e) => reject(e.message)))"""
    )
    assert where == pytest.approx([40.4443, -79.9436])


def test_an_element_action_records_the_box_of_its_element_in_the_screenshot_before(make_env, controls) -> None:
    """The box is in the pixels of the screenshot before the step: on a scrolled page, less the scroll (the help
    link stays fixed at the viewport's bottom right as the page scrolls)."""
    env = make_env()
    env.reset(controls)
    before = env.step("scroll [down]").observation
    link = find_id(before, "link", "Need help?")
    viewport_box = env.page.locator("[data-key=link-help]").bounding_box()  # viewport pixels, as shot
    centre = (viewport_box["x"] + viewport_box["width"] / 2, viewport_box["y"] + viewport_box["height"] / 2)
    env.step(f"hover [{link}]")
    env.step("scroll [down]")

    hovered, scrolled = env.record.steps[1:]
    x, y, w, h = hovered.target_box
    assert before.scroll[1] > 0 and x < centre[0] < x + w and y < centre[1] < y + h
    assert scrolled.target_box is None and "target_box" not in scrolled.to_dict()  # old records read the same
    assert type(hovered).from_dict(hovered.to_dict()).target_box == hovered.target_box
