"""Element ids in the accessibility-tree text: the same page reads the same in any browser session
(`agent.stable_element_ids`, on by default), so a resumed task sends the same prompts."""

from __future__ import annotations

from dataclasses import replace

from evaluation.browser_env.observation import ObservationOptions
from settings import load_settings

from tests.evaluation.browser_env.browser_env_helpers import EpisodeTask, find_id


def test_the_same_page_shows_the_same_ids_however_the_browser_got_there(make_env, pages_url) -> None:
    # Chromium's ids count the nodes its renderer has numbered so far: a tab that was on another page of the
    # site first numbers this one further on (and two runs of one command now and then differ as well).
    direct = make_env().reset(EpisodeTask(start_url=f"{pages_url}/controls.html"))
    env = make_env()
    second = env.reset(EpisodeTask(start_url=f"{pages_url}/second.html"))
    result = env.step(f"click [{find_id(second, 'link', 'Back to controls')}]")
    assert result.ok, result.error
    assert result.observation.url == direct.url
    assert result.observation.text == direct.text


def test_an_element_keeps_its_id_while_its_page_lives_and_the_id_acts_on_it(make_env, pages_url) -> None:
    env = make_env()
    first = env.reset(EpisodeTask(start_url=f"{pages_url}/controls.html"))
    assert first.text.splitlines()[2].startswith("[1] RootWebArea 'Controls'")  # numbered from 1, in page order
    env.step("scroll [down]")
    bottom = env.step("scroll [down]").observation
    newcomer = find_id(bottom, "button", "Bottom button")  # first seen now: the next number
    assert int(newcomer) == len(first.nodes) + 1
    assert find_id(bottom, "link", "Need help?") == find_id(first, "link", "Need help?")
    assert env.step(f"click [{newcomer}]").ok
    assert env.page.evaluate("window.hits[window.hits.length - 1]") == "button-bottom"
    env.step("scroll [up]")
    assert env.step("scroll [up]").observation.text == first.text


def test_a_command_after_one_that_loaded_another_page_does_not_act_on_that_page(make_env, pages_url) -> None:
    # Stable ids start again at 1 on each page: the block's second id names "Third page" on the page its first
    # command opens, which the reply's author never saw.
    third = find_id(make_env().reset(EpisodeTask(start_url=f"{pages_url}/second.html")), "link", "Third page")
    env = make_env()
    env.episode = replace(env.episode, several_actions=True)  # AgentOccam's ACTION: several commands in one step
    controls = env.reset(EpisodeTask(start_url=f"{pages_url}/controls.html"))
    result = env.step(f"click [{find_id(controls, 'link', 'Second page')}]\nclick [{third}]")
    assert env.page.url.endswith("/second.html")  # the first command ran, the second did not
    assert find_id(result.observation, "link", "Third page") == third
    first, second = env.record.steps[-1].commands
    assert first["ok"] and not second["ok"]
    assert second["error"].startswith(f"[{third}] was read on the page before an earlier command of this step")


def test_the_parity_presets_show_chromium_ids(make_env, pages_url) -> None:
    for harness, stable in (("method", True), ("agentoccam", False), ("videowa", False)):
        assert ObservationOptions.from_settings(load_settings(harness=harness).agent).stable_ids is stable, harness
    env = make_env(ObservationOptions(stable_ids=False))
    observation = env.reset(EpisodeTask(start_url=f"{pages_url}/controls.html"))
    controls = [node for node in observation.nodes.values() if node.interactive]
    assert controls and all(node.node_id == str(node.backend_id) for node in controls)  # Chromium's DOM node ids
    assert observation.document == ""
