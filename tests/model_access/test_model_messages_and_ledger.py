"""Building image messages, and the usage ledger's totals and merging."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from foundation.errors import UserError
from model_access.accounting import SCRIPTED_LABEL, UsageLedger
from model_access.messages import count_images, decode_data_url, image_data_url, rgb_from_bgr, user_message


def test_jpeg_file_is_sent_unchanged(tmp_path):
    path = tmp_path / "keyframe.jpg"
    Image.fromarray(np.full((16, 16, 3), 200, np.uint8)).save(path, quality=80)
    assert decode_data_url(image_data_url(path)) == ("image/jpeg", path.read_bytes())


def test_opencv_frame_colours_survive_after_conversion():
    bgr = np.zeros((4, 4, 3), np.uint8)
    bgr[..., 0] = 255  # pure blue in OpenCV's channel order
    _, data = decode_data_url(image_data_url(rgb_from_bgr(bgr)))
    assert tuple(np.asarray(Image.open(io.BytesIO(data)))[0, 0]) == (0, 0, 255)


def test_grey_frames_and_jpeg_encoding():
    grey = np.arange(64, dtype=np.uint8).reshape(8, 8)
    _, data = decode_data_url(image_data_url(grey))
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(data))), grey)
    mime, _ = decode_data_url(image_data_url(Image.fromarray(grey), image_format="jpeg"))
    assert mime == "image/jpeg"


def test_bad_images_are_refused_clearly(tmp_path):
    with pytest.raises(UserError, match="not found"):
        image_data_url(tmp_path / "missing.png")
    with pytest.raises(UserError, match="not a PNG, JPEG"):
        image_data_url(b"plain text, not an image")
    with pytest.raises(TypeError, match="uint8"):
        image_data_url(np.zeros((4, 4, 3), np.float32))


def test_user_message_shapes():
    assert user_message("just text") == {"role": "user", "content": "just text"}
    frames = [np.zeros((2, 2, 3), np.uint8)] * 3
    message = user_message("three frames", frames, images_first=True)
    assert [part["type"] for part in message["content"]] == ["image_url"] * 3 + ["text"]
    assert count_images([message]) == 3


def test_ledger_merges_worker_records_and_labels_scripted_rows():
    parent, worker = UsageLedger(), UsageLedger()
    parent.record("labeling", "vlm", calls=2, prompt_tokens=100, completion_tokens=10, images=40, latency_s=3.0)
    worker.record(
        "labeling", "vlm", calls=3, cache_hits=1, prompt_tokens=50, completion_tokens=5, images=20, latency_s=1.5
    )
    worker.record("merge", "llm", calls=1, scripted=1)
    parent.merge(worker.to_dict())  # as a worker process would send it back

    labeling = parent.usage("labeling", "vlm")
    assert (labeling.calls, labeling.cache_hits, labeling.prompt_tokens, labeling.images) == (5, 1, 150, 60)
    assert labeling.latency_s == pytest.approx(4.5)
    assert parent.usage(role="llm").calls == 1 and parent.usage().calls == 6

    table = parent.summary_table().splitlines()
    labeling_line = next(line for line in table if line.startswith("labeling"))
    merge_line = next(line for line in table if line.startswith("merge"))
    assert labeling_line.split()[:4] == ["labeling", "vlm", "5", "1"] and labeling_line.endswith("model")
    assert merge_line.endswith(SCRIPTED_LABEL)
    assert table[-1].startswith("WARNING: 1 call(s) answered by the scripted test server")
    assert UsageLedger.from_dict(parent.to_dict()).to_dict() == parent.to_dict()
    assert UsageLedger().summary_table() == "model usage: no model calls"
