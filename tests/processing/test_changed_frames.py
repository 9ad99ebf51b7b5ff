"""Changed-frame detection on synthetic screen recordings whose true page state is known."""

from __future__ import annotations

import dataclasses
import json
import tracemalloc

import cv2
import numpy as np
import pytest

from foundation.errors import UserError
from processing.changed_frames import (
    MANIFEST_NAME,
    change_score,
    detect_changed_frames,
    keyframe_name,
    load_keyframes,
)
from settings.schema import ProcessingSettings

SAMPLE_STEP = 0.5  # 2 fps


@pytest.fixture(scope="module")
def tutorial_keyframes(tutorial, tmp_path_factory):
    out = tmp_path_factory.mktemp("tutorial_keyframes")
    return detect_changed_frames(tutorial.path, ProcessingSettings(), out), out


def test_every_page_switch_and_scroll_is_kept_at_the_next_sample(tutorial, tutorial_keyframes):
    keyframes, _ = tutorial_keyframes
    times = [k.time_s for k in keyframes]
    events = [c for c in tutorial.changes if c.kind in ("page", "scroll")]
    assert len(events) == 3
    for event in events:
        assert any(event.time_s <= t <= event.time_s + SAMPLE_STEP for t in times), f"{event} not kept: {times}"


def test_typed_text_is_kept_while_typing(tutorial, tutorial_keyframes):
    """Letters add up against the last keyframe: each query shows up, at most a few letters behind."""
    keyframes, _ = tutorial_keyframes
    typed = [c for c in tutorial.changes if c.kind == "typed"]
    bursts: list[list] = []
    for change in typed:
        if bursts and change.time_s - bursts[-1][-1].time_s < 0.5:
            bursts[-1].append(change)
        else:
            bursts.append([change])
    assert len(bursts) == 2
    for burst in bursts:
        final = "".join(c.detail for c in burst)
        start, end = burst[0].time_s, burst[-1].time_s + SAMPLE_STEP
        seen = [tutorial.state_at(k.time_s).text for k in keyframes if start <= k.time_s <= end]
        assert seen, f"no keyframe while typing {final!r}"
        longest = max(seen, key=len)
        assert final.startswith(longest) and len(final) - len(longest) <= 3, (final, seen)


def test_pointer_movement_and_idle_keep_almost_nothing(quiet, processing_settings, tmp_path):
    keyframes = detect_changed_frames(quiet.path, processing_settings, tmp_path)
    # 28 samples of pointer travel, jiggle and stillness: the first frame, at most one more.
    assert keyframes[0].time_s == 0
    assert len(keyframes) <= 2


def test_keyframes_in_the_tutorial_follow_real_changes(tutorial, tutorial_keyframes):
    keyframes, _ = tutorial_keyframes
    false = [
        b.time_s
        for a, b in zip(keyframes, keyframes[1:])
        if tutorial.state_at(a.time_s).content == tutorial.state_at(b.time_s).content
    ]
    assert len(false) <= 1, f"keyframes where only the pointer or caret moved: {false}"
    assert len(keyframes) <= 20  # of 45 samples


def test_without_the_pointer_allowance_pointer_moves_count(quiet, processing_settings, tmp_path):
    plain = dataclasses.replace(processing_settings, pointer_allowance=0.0)
    with_allowance = detect_changed_frames(quiet.path, processing_settings, tmp_path / "a")
    without = detect_changed_frames(quiet.path, plain, tmp_path / "b")
    assert len(without) > len(with_allowance) + 3


def test_keyframes_are_full_size_jpegs_named_by_time(tutorial, tutorial_keyframes):
    keyframes, out = tutorial_keyframes
    for keyframe in keyframes:
        assert keyframe.path.parent == out and keyframe.path.name == keyframe_name(keyframe.time_s)
        assert keyframe.path.read_bytes()[:2] == b"\xff\xd8"
        image = cv2.imread(str(keyframe.path))
        assert image.shape == (720, 1280, 3)
    assert keyframe_name(12.5) == "t000012.500.jpg"
    assert sorted(p.name for p in out.glob("*.jpg")) == [k.path.name for k in keyframes]


def test_manifest_lists_the_keyframes(tutorial, tutorial_keyframes):
    keyframes, out = tutorial_keyframes
    assert load_keyframes(out) == keyframes
    manifest = json.loads((out / MANIFEST_NAME).read_text())
    assert manifest["sampled_frames"] == int(tutorial.duration_s * 2)
    assert manifest["video"]["width"] == 1280 and manifest["settings"]["sample_fps"] == 2.0
    assert manifest["keyframes"][0] == {"index": 0, "time_s": 0.0, "path": "t000000.000.jpg", "diff": None}


def test_a_higher_threshold_keeps_fewer_frames(tutorial, tutorial_keyframes, processing_settings, tmp_path):
    keyframes, _ = tutorial_keyframes
    strict = dataclasses.replace(processing_settings, change_threshold=2.0)
    fewer = detect_changed_frames(tutorial.path, strict, tmp_path)
    assert len(fewer) < len(keyframes)
    assert all(k.diff > 2.0 for k in fewer[1:-1])  # the last may be the end state
    # Typing no longer counts; page switches and the scroll still do.
    for event in (c for c in tutorial.changes if c.kind in ("page", "scroll")):
        assert any(event.time_s <= k.time_s <= event.time_s + SAMPLE_STEP for k in fewer)


def test_the_end_state_is_kept_when_it_differs(tutorial, processing_settings, tmp_path):
    """With a threshold nothing reaches, only the first frame and the (different) last one remain."""
    never = dataclasses.replace(processing_settings, change_threshold=1000.0)
    keyframes = detect_changed_frames(tutorial.path, never, tmp_path)
    last_sample = (int(tutorial.duration_s * 2) - 1) / 2
    assert [k.time_s for k in keyframes] == [0.0, last_sample]
    assert 0 < keyframes[-1].diff <= 1000.0


def test_a_rerun_replaces_the_previous_keyframes(tutorial, processing_settings, tmp_path):
    every = dataclasses.replace(processing_settings, change_threshold=0.0, diff_noise_floor=0, pointer_allowance=0.0)
    (tmp_path / "thumbnail.jpg").write_bytes(b"not ours")
    many = detect_changed_frames(tutorial.path, every, tmp_path)
    few = detect_changed_frames(tutorial.path, processing_settings, tmp_path)
    assert len(many) > len(few)
    assert sorted(p.name for p in tmp_path.glob("t0*.jpg")) == [k.path.name for k in few]
    assert (tmp_path / "thumbnail.jpg").read_bytes() == b"not ours"


def test_detection_streams(tutorial, processing_settings, tmp_path):
    """Python-side memory stays near a few frames, not the 45 sampled frames (62 MB) of the clip."""
    tracemalloc.start()
    try:
        detect_changed_frames(tutorial.path, processing_settings, tmp_path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 6 * 1280 * 720 * 3 // 2


def test_bad_settings_are_named(tutorial, processing_settings, tmp_path):
    with pytest.raises(UserError, match="processing.diff_width"):
        detect_changed_frames(tutorial.path, dataclasses.replace(processing_settings, diff_width=0), tmp_path)


def grey(shape=(180, 320), value=255) -> np.ndarray:
    return np.full(shape, value, np.int16)


def test_score_ignores_a_moved_pointer_but_not_new_text():
    before, after = grey(), grey()
    before[50:53, 40:42] = 0  # pointer here (a 12x19 arrow shrunk 4x) ...
    after[120:123, 200:202] = 0  # ... moved there
    assert change_score(after, before, noise_floor=12, pointer_allowance=0.03) == 0
    assert change_score(after, before, noise_floor=0, pointer_allowance=0) == pytest.approx(2 * 6 * 255 / 57600)
    typed = before.copy()
    typed[20:23, 100:102] = 60  # a letter appears
    assert change_score(typed, before, noise_floor=12, pointer_allowance=0.03) == pytest.approx(6 * 195 / 57600)


def test_score_ignores_compression_shimmer_below_the_floor():
    rng = np.random.default_rng(0)
    before = grey(value=200)
    after = before + rng.integers(-6, 7, before.shape).astype(np.int16)
    assert change_score(after, before, noise_floor=12, pointer_allowance=0.03) == 0
    assert change_score(after, before, noise_floor=0, pointer_allowance=0) > 2


@pytest.mark.parametrize("mode", ["all", "noref", "bidir"])
def test_every_decoding_mode_keeps_every_page_switch_and_scroll(tutorial_b_frames, tmp_path, mode):
    settings = dataclasses.replace(ProcessingSettings(), decode_frames=mode)
    keyframes = detect_changed_frames(tutorial_b_frames.path, settings, tmp_path)
    times = [k.time_s for k in keyframes]
    events = [c for c in tutorial_b_frames.changes if c.kind in ("page", "scroll")]
    for event in events:
        # A skipping mode's sample may come a few frames after its sampling moment.
        assert any(event.time_s <= t <= event.time_s + SAMPLE_STEP + 0.2 for t in times), f"{event}: {times}"
    manifest = json.loads((tmp_path / MANIFEST_NAME).read_text())
    assert manifest["settings"]["decode_frames"] == mode


def test_an_unknown_decoding_mode_is_refused_before_any_work(tutorial, tmp_path):
    settings = dataclasses.replace(ProcessingSettings(), decode_frames="fast")
    with pytest.raises(UserError, match="processing.decode_frames is 'fast'"):
        detect_changed_frames(tutorial.path, settings, tmp_path / "out")
    assert not (tmp_path / "out").exists()
