"""The objective calls of trajectory construction in the order a prefix cache can reuse (issue 28).

With `processing.shared_opening` the calls of one start action open with the same instructions, the
screen before the first step and the steps so far, so each next call differs only from its new step on;
off, the steps come first and the instructions after them (the order before). The words are the same.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from model_access.messages import join_text_parts
from processing.changed_frames import KeyFrame
from foundation.records.trajectory import LabeledAction
from processing.stages.trajectories import objective_message
from settings import load_settings

ACTIONS = [
    LabeledAction("click", "Search", start_frame=0, end_frame=1),
    LabeledAction("type", "Search", text="headphones", start_frame=1, end_frame=2),
    LabeledAction("click", "Sort By", start_frame=2, end_frame=3),
]


def _keyframes(folder: Path) -> list[KeyFrame]:
    frames = []
    for i, colour in enumerate([(200, 30, 30), (30, 200, 30), (30, 30, 200), (90, 90, 90)]):
        path = folder / f"{i}.jpg"
        Image.new("RGB", (64, 40), colour).save(path)
        frames.append(KeyFrame(i, i * 0.5, path, None))
    return frames


def _messages(tmp_path: Path, shared: bool, frames: bool = True) -> list[dict]:
    settings = load_settings()
    settings.processing.shared_opening, settings.processing.frames_in_prompts = shared, frames
    keyframes = _keyframes(tmp_path)
    out = []
    for j in range(len(ACTIONS)):  # the calls of start 0, as construction sends them
        steps = ACTIONS[: j + 1]
        out.append(objective_message(steps, keyframes[steps[0].start_frame], keyframes[steps[-1].end_frame], settings))
    return out


def _flat(message: dict) -> list[str]:
    return [part.get("text") or part["image_url"]["url"] for part in message["content"]]


def _shared_parts(a: dict, b: dict) -> int:
    shared = 0
    for x, y in zip(_flat(a), _flat(b)):
        if x != y:
            break
        shared += 1
    return shared


def test_calls_of_one_start_share_the_instructions_the_first_screen_and_the_steps_so_far(tmp_path) -> None:
    new = _messages(tmp_path, shared=True)
    for earlier, later in zip(new, new[1:]):
        assert _shared_parts(earlier, later) == 3  # instructions, "Screen before" caption, the first screen
        steps_earlier, steps_later = _flat(earlier)[3], _flat(later)[3]
        assert steps_later.startswith(steps_earlier.split("(end of steps)")[0])  # the steps so far, then one more
    old = _messages(tmp_path, shared=False)
    assert all(_shared_parts(a, b) == 0 for a, b in zip(old, old[1:]))  # the steps come first and differ


def test_both_orders_say_the_same_words_and_show_the_same_screens(tmp_path) -> None:
    for new, old in zip(_messages(tmp_path, shared=True), _messages(tmp_path, shared=False)):
        words = [" ".join(sorted(" ".join(_flat(m)).split())) for m in (new, old)]
        assert words[0] == words[1]


def test_a_text_only_model_gets_no_screens_and_one_string(tmp_path) -> None:
    (message, *_) = _messages(tmp_path, shared=True, frames=False)
    (joined,) = join_text_parts([message])
    assert isinstance(joined["content"], str) and "data:image" not in joined["content"]
    assert joined["content"].index("Answer in two sections") < joined["content"].index("Steps:\n1. click")
