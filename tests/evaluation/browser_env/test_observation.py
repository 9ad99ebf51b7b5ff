"""The observation: accessibility-tree text with working ids, viewport filtering, budget, tabs, Set-of-Marks."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest
from PIL import Image, ImageOps
from skimage.measure import label

from evaluation.browser_env.observation import ObservationOptions, count_tokens

from tests.evaluation.browser_env.browser_env_helpers import EpisodeTask, find_id, has_line

# Every control of controls.html: data-key -> (role, accessible name) a model reads in the tree.
CONTROLS = {
    "link-home": ("link", "Home page"),
    "link-news": ("link", "Latest news"),
    "link-second": ("link", "Second page"),
    "link-popup": ("link", "Open in new tab"),
    "button-save": ("button", "Save draft"),
    "button-delete": ("button", "Delete draft"),
    "hover-box": ("button", "Hover me"),
    "field-query": ("textbox", "Search terms"),
    "field-email": ("textbox", "Email address"),
    "field-gift": ("checkbox", "Gift wrap"),
    "field-fast": ("radio", "Fast shipping"),
    "field-slow": ("radio", "Slow shipping"),
    "field-notes": ("textbox", "Notes"),
    "button-submit": ("button", "Search now"),
    "field-size": ("combobox", "Size"),  # last: clicking it opens the native menu
    "button-bottom": ("button", "Bottom button"),
    "link-help": ("link", "Need help?"),  # fixed to the corner of the window
}
FIELDS = {"field-query", "field-email", "field-notes", "field-size"}

VISIBLE_KEYS_JS = """() => Array.from(document.querySelectorAll('[data-key]')).filter((el) => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0
    && r.top < window.innerHeight && r.left < window.innerWidth;
}).map((el) => el.dataset.key)"""


@pytest.fixture
def controls(pages_url):
    return EpisodeTask(start_url=f"{pages_url}/controls.html")


def test_tree_lists_every_visible_control_and_each_id_acts_on_it(make_env, env_settings, controls) -> None:
    env_settings.agent.max_steps = 100
    env = make_env()
    observation = env.reset(controls)
    visible = env.page.evaluate(VISIBLE_KEYS_JS)
    assert "button-bottom" not in visible and len(visible) == len(CONTROLS) - 1  # the fixture is as designed
    env.page.evaluate("window.blockNavigation = true")

    for key in [key for key in CONTROLS if key in visible]:
        role, name = CONTROLS[key]
        element_id = find_id(observation, role, name)
        result = env.step(f"click [{element_id}]")
        assert result.ok, result.error
        assert env.page.evaluate("window.hits[window.hits.length - 1]") == key, f"click [{element_id}] missed {key}"
        if key in FIELDS:
            assert env.page.evaluate("document.activeElement.dataset.key") == key
        observation = result.observation
    assert env.page.url.endswith("/controls.html")


def test_checked_value_focus_and_selection_states_are_shown(make_env, controls) -> None:
    env = make_env()
    observation = env.reset(controls)
    assert re.search(r"textbox 'Search terms' value: 'old text'", observation.text)
    assert re.search(r"combobox 'Size' expanded: False value: 'Medium'", observation.text)
    assert re.search(r"option 'Medium' selected: True", observation.text)
    assert re.search(r"checkbox 'Gift wrap' checked: false", observation.text)

    observation = env.step(f"click [{find_id(observation, 'checkbox', 'Gift wrap')}]").observation
    assert re.search(r"checkbox 'Gift wrap' focused: True checked: true", observation.text)
    email = find_id(observation, "textbox", "Email address")
    observation = env.step(f"type [{email}] [emma@example.com] [0]").observation
    assert re.search(r"textbox 'Email address' focused: True value: 'emma@example.com'", observation.text)


def test_text_repeating_its_parent_is_dropped_and_page_text_is_kept(make_env, controls) -> None:
    observation = make_env().reset(controls)
    assert has_line(observation, "heading", "Control panel")
    assert not has_line(observation, "StaticText", "Control panel")
    assert not has_line(observation, "StaticText", "Save draft")
    assert has_line(observation, "StaticText", "Counters ")
    lines = observation.tree_text.splitlines()
    assert lines[0].startswith("[") and "RootWebArea 'Controls'" in lines[0]
    assert all(line.startswith("\t") for line in lines[1:])  # children are indented under the root


def test_viewport_only_drops_offscreen_nodes_and_scrolling_brings_them_in(make_env, controls) -> None:
    whole_page = make_env(ObservationOptions(viewport_only=False, token_budget=None)).reset(controls)
    assert has_line(whole_page, "button", "Bottom button")

    env = make_env(ObservationOptions(viewport_only=True, token_budget=None))
    observation = env.reset(controls)
    assert not has_line(observation, "button", "Bottom button")
    assert has_line(observation, "link", "Home page")
    for _ in range(3):
        observation = env.step("scroll [down]").observation
        if has_line(observation, "button", "Bottom button"):
            break
    assert has_line(observation, "button", "Bottom button")
    assert not has_line(observation, "link", "Home page")
    assert env.step(f"click [{find_id(observation, 'button', 'Bottom button')}]").ok
    assert env.page.evaluate("window.hits[window.hits.length - 1]") == "button-bottom"
    # A bar fixed to the window stays in view wherever the page is scrolled.
    assert env.step(f"click [{find_id(observation, 'link', 'Need help?')}]").ok
    assert env.page.evaluate("window.hits[window.hits.length - 1]") == "link-help"


def test_observation_is_cut_to_the_token_budget_keeping_the_head(make_env, controls) -> None:
    env = make_env(ObservationOptions(token_budget=None))
    full = env.reset(controls)
    env.options = ObservationOptions(token_budget=60)
    cut = env.observe()
    assert cut.truncated and not full.truncated
    lines = cut.text.splitlines()
    assert re.fullmatch(r"\[\.\.\. \d+ more lines cut to fit the observation budget of 60 tokens \.\.\.\]", lines[-1])
    assert count_tokens("\n".join(lines[:-1])) <= 60
    assert full.text.startswith("\n".join(lines[:-1]))
    # An element that fell off the end is not offered to the agent.
    hidden_id = find_id(full, "button", "Search now")
    assert f"[{hidden_id}]" not in cut.text
    result = env.step(f"click [{hidden_id}]")
    assert not result.ok and f"no element [{hidden_id}]" in result.error


def test_tab_header_lists_the_tabs_and_marks_the_current_one(make_env, pages_url) -> None:
    env = make_env()
    task = EpisodeTask(start_url=f"{pages_url}/controls.html |AND| {pages_url}/second.html")
    observation = env.reset(task)
    assert observation.text.startswith("Tab 0 (current): Controls | Tab 1: Second page\n\n")
    assert [tab.url for tab in observation.tabs] == [f"{pages_url}/controls.html", f"{pages_url}/second.html"]
    observation = env.step("tab_focus [1]").observation
    assert observation.text.startswith("Tab 0: Controls | Tab 1 (current): Second page\n\n")
    assert has_line(observation, "heading", "Second page")


def test_screenshot_has_the_task_viewport(make_env, pages_url) -> None:
    task = EpisodeTask(start_url=f"{pages_url}/controls.html", viewport_size={"width": 1000, "height": 600})
    observation = make_env().reset(task)
    assert observation.viewport == (1000, 600)
    assert observation.screenshot_array.shape == (600, 1000, 3)
    assert observation.screenshot.startswith(b"\x89PNG")


def test_set_of_marks_boxes_carry_the_ids_of_the_text(make_env, controls) -> None:
    from rapidocr import RapidOCR

    env = make_env(ObservationOptions(set_of_marks=False))
    plain = env.reset(controls)
    env.options = ObservationOptions(set_of_marks=True)
    marked = env.observe()
    assert marked.text == plain.text
    image = np.asarray(Image.open(io.BytesIO(marked.screenshot)).convert("RGB"))
    assert not np.array_equal(image, plain.screenshot_array)

    ocr = RapidOCR()
    checked = ("button-save", "button-delete", "field-email", "field-size", "field-gift", "field-fast", "button-submit")
    for key in checked:
        role, name = CONTROLS[key]
        left, top = (int(v) for v in env.page.evaluate(ELEMENT_CORNER_JS, key))
        tag = Image.fromarray(_tag_above(image, left, top))
        tag = ImageOps.expand(tag.resize((tag.width * 3, tag.height * 3), Image.LANCZOS), border=30, fill="white")
        found = re.sub(r"\D", "", "".join(ocr(np.asarray(tag)).txts or ()))
        assert found == find_id(marked, role, name), f"the tag on {key} reads {found!r}"


ELEMENT_CORNER_JS = """(key) => {
  const r = document.querySelector(`[data-key=${key}]`).getBoundingClientRect();
  return [r.left, r.top];
}"""


def _tag_above(image: np.ndarray, left: int, top: int) -> np.ndarray:
    """The solid-coloured tag drawn just above an element's top-left corner, cut out of the screenshot."""
    region = image[max(top - 40, 0) : top]
    seed_colour = region[-2, left + 2]
    components = label(np.all(region == seed_colour, axis=-1))
    ys, xs = np.nonzero(components == components[-2, left + 2])
    return region[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
