"""`agent.demonstration_mark_points`: the spot where a demonstrated step happened, ringed on the keyframe shown."""

from __future__ import annotations

import base64
import io

from PIL import Image

from agent.videos.demonstration import SELECTED, Demonstration
from agent.videos.images import MARK_RADIUS
from foundation.records.trajectory import LabeledAction, Trajectory
from settings import load_settings

POINT = (120, 80)


def _keyframe(path) -> str:
    Image.new("RGB", (320, 180), "white").save(path, format="JPEG", quality=95)
    return str(path)


def _shown_images(demonstration: Demonstration) -> list[Image.Image]:
    urls = [p["image_url"]["url"] for p in demonstration.prompt_parts(True, 0) if p.get("type") == "image_url"]
    return [Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGB") for url in urls]


def _reddish(pixel: tuple[int, int, int]) -> bool:
    r, g, _ = pixel
    return r > 150 and r - g > 100  # the mark's red, allowing for JPEG's smear


def test_the_point_is_ringed_on_the_keyframe_only_with_the_setting_on(tmp_path):
    frames = [_keyframe(tmp_path / "t1.jpg"), _keyframe(tmp_path / "t2.jpg")]
    steps = [LabeledAction("click", "Search", point=POINT), LabeledAction("scroll", "", "down")]  # no point: bare
    trajectory = Trajectory("v/0-1", "v", "search", steps, frames, frames[0], frames[1], 0.0, 1.0, (0, 1))

    plain = _shown_images(Demonstration(SELECTED, trajectory))
    marked = _shown_images(Demonstration(SELECTED, trajectory, mark_points=True))
    on_ring = (POINT[0] + MARK_RADIUS - 1, POINT[1])  # inside the ring's stroke (frames under 1280 px: no scaling)
    assert not _reddish(plain[0].getpixel(on_ring)) and not _reddish(plain[0].getpixel(POINT))
    assert _reddish(marked[0].getpixel(on_ring)) and _reddish(marked[0].getpixel(POINT))  # the ring and its dot
    assert not _reddish(marked[0].getpixel((POINT[0] + 40, POINT[1])))  # nothing beyond the ring
    assert not any(_reddish(pixel) for pixel in marked[1].getdata())  # the scroll's keyframe has no mark


def test_marking_is_off_by_default_and_in_the_methods_preset():
    assert load_settings().agent.demonstration_mark_points is False
    assert load_settings(harness="method").agent.demonstration_mark_points is False
    assert load_settings(overrides=["agent.demonstration_mark_points=true"]).agent.demonstration_mark_points is True
