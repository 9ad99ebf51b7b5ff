"""`--objectives derived`: objectives worded from the actions and the OCR'd tab titles, with no model."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from tests.processing.pipeline_helpers import process

from processing.index import TrajectoryIndex
from processing.objectives.tab_titles import CACHE_NAME, TabTitleReader
from processing.objectives.wording import derived_objective, describe_actions, objective_titles
from processing.plugins import LABELERS
from foundation.records.trajectory import LabeledAction
from settings import load_settings
from tasks.sandbox.tutorials import chrome
from tasks.recording.encoder import VideoEncoder
from tasks.sandbox.tutorials.recorder import STYLE

WIDTH, PAGE_HEIGHT, FPS = 1280, 720, 15


def act(kind: str, target: str = "", text: str = "") -> LabeledAction:
    return LabeledAction(kind=kind, target=target, text=text)


# ---- wording ----


def test_a_search_a_product_and_a_button_read_as_a_sentence() -> None:
    actions = [
        act("type", "Search", "yoga mat"),
        act("click", "Velocore Yoga Mat 6mm, Non-Slip, with Carrying Strap"),
        act("click", "Add to Wish List"),
    ]
    assert describe_actions(actions) == (
        'search for "yoga mat", click "Velocore Yoga Mat 6mm, Non-Slip, with Carrying Strap" and add to wish list'
    )


def test_sorting_choosing_typing_and_enter_are_worded_plainly() -> None:
    actions = [
        act("type", "Search query", "sourdough"),
        act("press", "", "Enter"),
        act("select", "Sort By", "Price"),
        act("select", "Color", "Sky Blue"),
        act("type", "Title", "What are you reading this month?"),
        act("scroll", "", "down"),
        act("scroll", "", "down"),
        act("goto", "address bar", "http://127.0.0.1:49999/user/MarvelsGrantMan136/preferences"),
        act("click", "Upvote"),
    ]
    assert describe_actions(actions) == (
        'search for "sourdough", sort by "Price", choose "Sky Blue" for Color, '
        'enter "What are you reading this month?" as Title, scroll down, '
        'go to /user/MarvelsGrantMan136/preferences and upvote'
    )


def test_a_choice_the_video_did_not_show_is_worded_without_an_option() -> None:
    assert describe_actions([act("select", "Color", ""), act("select", "Sort By", "")]) == (
        "choose an option for Color and change the sort order"
    )


def test_page_titles_say_where_the_span_starts_and_ends() -> None:
    steps = [act("click", "Add to Cart"), act("click", "My Cart 1 item")]
    assert derived_objective(steps, "One Stop Market", "Shopping Cart") == (
        'Add to cart and click "My Cart 1 item" (starting on "One Stop Market", ending on "Shopping Cart")'
    )
    assert derived_objective(steps, "Shopping Cart", "Shopping Cart") == (
        'Add to cart and click "My Cart 1 item" (on "Shopping Cart")'
    )
    assert derived_objective(steps) == 'Add to cart and click "My Cart 1 item"'
    # The replay's selection reads the titles back (replay.start_page_weight).
    assert objective_titles(derived_objective(steps, "One Stop Market", "Shopping Cart")) == (
        "One Stop Market", "Shopping Cart")
    assert objective_titles(derived_objective(steps, "Shopping Cart", "Shopping Cart")) == ("Shopping Cart",) * 2
    assert objective_titles(derived_objective(steps)) == ("", "")


def test_long_typed_text_is_cut() -> None:
    text = "Cuts tomatoes cleanly and the handle stays comfortable through a long evening of cooking."
    phrase = describe_actions([act("type", "Review", text)])
    assert phrase.startswith('enter "Cuts tomatoes cleanly') and phrase.endswith('..." as Review')
    assert len(phrase) < len(text) + 20


# ---- tab titles read with OCR ----


def frame_with_title(title: str, page_colour: int = 245) -> np.ndarray:
    """A 1280x800 BGR frame: the recorder's browser bar showing `title` above a plain page."""
    bar = chrome.render(chrome.ChromeState(title=title, url="127.0.0.1:7770/"), WIDTH)
    page = np.full((PAGE_HEIGHT, WIDTH, 3), page_colour, np.uint8)
    cv2.putText(page, title, (60, 120), cv2.FONT_HERSHEY_SIMPLEX, 1.6, (30, 30, 30), 3)
    return cv2.cvtColor(np.vstack([bar, page]), cv2.COLOR_RGB2BGR)


def test_the_tab_title_is_read_off_the_frame_and_cached(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jpg", tmp_path / "b.jpg"
    cv2.imwrite(str(first), frame_with_title("Shopping Cart"))
    cv2.imwrite(str(second), frame_with_title("Velocore Yoga Mat 6mm, Non-Slip, with Carrying Strap"))
    reader = TabTitleReader(tmp_path / CACHE_NAME, min_score=0.5)
    assert reader.title(first) == "Shopping Cart"
    cut = reader.title(second)  # the tab shows the start of a long title, then "..."
    assert len(cut) >= 12 and "Velocore Yoga Mat 6mm, Non-Slip, with Carrying Strap".startswith(cut)
    reader.save()

    again = TabTitleReader(tmp_path / CACHE_NAME, min_score=0.5)
    assert again.title(first) == "Shopping Cart" and again.strips_read == 0


# ---- through process-videos ----


@pytest.fixture(scope="module")
def two_page_video(tmp_path_factory) -> Path:
    """4 s: a search typed on "One Stop Market", then the "My Wish List" page; with its ground-truth log."""
    folder = tmp_path_factory.mktemp("derived-video")
    video = folder / "wishlist_demo.mp4"
    encoder = VideoEncoder(video, WIDTH, chrome.HEIGHT + PAGE_HEIGHT, FPS, STYLE.codec)
    try:
        for n in range(4 * FPS):
            frame = frame_with_title("One Stop Market") if n < 2 * FPS else frame_with_title("My Wish List", 200)
            encoder.write(cv2.cvtColor(frame, cv2.COLOR_BGR2YUV_I420).tobytes())
        encoder.close()
    except BaseException:
        encoder.abort()
        raise
    actions = [
        {"type": "type", "target": "Search", "role": "searchbox", "text": "yoga mat", "start_s": 0.4, "end_s": 1.0},
        {"type": "click", "target": "Add to Wish List", "role": "button", "text": "", "start_s": 1.4, "end_s": 2.1},
    ]
    (folder / "wishlist_demo.actions.json").write_text(json.dumps({"actions": actions}))
    return video


def test_every_span_gets_a_derived_objective_in_the_index(two_page_video: Path, tmp_path: Path, monkeypatch):
    # Registered for this test only: the registry is process-wide.
    monkeypatch.setitem(LABELERS, "ground_truth", "tests.processing.ground_truth_labeler:GroundTruthLabeler")
    settings = load_settings()
    settings.paths.cache_dir = tmp_path / "cache"
    code, out, err = process(
        settings, "--source", "dir", "--videos", str(two_page_video.parent), "--labeler", "ground_truth",
        "--objectives", "derived", "--no-trajectory-filtering", "--no-action-filtering",
    )  # fmt: skip
    assert code == 0, out + err
    index = TrajectoryIndex.load(settings.paths.index_dir, settings)
    trajectories = {t.span: t for t in index.trajectories("wishlist_demo")}
    assert sorted(trajectories) == [(0, 0), (0, 1), (1, 1)]  # no model to say "none": every span is named
    assert {t.objective_source for t in trajectories.values()} == {"derived"}
    assert trajectories[(0, 1)].objective == (
        'Search for "yoga mat" and add to wish list (starting on "One Stop Market", ending on "My Wish List")'
    )
    best, _ = index.search("add the headlamp to my wish list", k=1, video_ids=["wishlist_demo"])[0]
    assert "add to wish list" in best.objective.lower()
