"""A run of the model-free baseline that still has a model stage on says which flags turn it off."""

from __future__ import annotations

from tests.processing.pipeline_helpers import run_cli


def test_the_baseline_without_models_names_the_flags_that_drop_the_model_stages(tmp_path):
    videos = tmp_path / "videos"
    videos.mkdir()
    code, out, err = run_cli(
        "process-videos", "--source", "dir", "--videos", str(videos), "--labeler", "ocr", "--objectives", "derived",
        "--set", f"paths.cache_dir={tmp_path / 'cache'}",
    )  # fmt: skip
    message = out + err
    assert code != 0
    assert "model role 'llm' is not configured" in message
    assert "add --no-action-filtering --no-trajectory-filtering" in message  # both at once, not one per try


def test_with_both_flags_the_baseline_needs_no_model(tmp_path):
    videos = tmp_path / "videos"
    videos.mkdir()
    code, out, err = run_cli(
        "process-videos", "--source", "dir", "--videos", str(videos), "--labeler", "ocr", "--objectives", "derived",
        "--no-action-filtering", "--no-trajectory-filtering", "--set", f"paths.cache_dir={tmp_path / 'cache'}",
    )  # fmt: skip
    assert "is not configured" not in out + err
