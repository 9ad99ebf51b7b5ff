"""Synthetic screen recordings rendered once per test session (a few seconds each)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.processing.make_videos import Recording, quiet_clip, tutorial_clip

from settings.schema import ProcessingSettings


@pytest.fixture(scope="session")
def recordings_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("recordings")


@pytest.fixture(scope="session")
def tutorial(recordings_dir: Path) -> Recording:
    """22 s: typing, page switches, a scroll, pointer travel and idle stretches."""
    return tutorial_clip(recordings_dir / "tutorial.mp4")


@pytest.fixture(scope="session")
def tutorial_b_frames(tutorial: Recording, recordings_dir: Path) -> Recording:
    """The tutorial encoded again with libx264's default frame types (3 B-frames, B-pyramid), as most
    screen recorders write; `preset veryfast` keeps them and takes a few seconds."""
    import dataclasses
    import subprocess

    path = recordings_dir / "tutorial_b_frames.mp4"
    subprocess.run(
        ["ffmpeg", "-nostdin", "-y", "-v", "error", "-i", str(tutorial.path), "-c:v", "libx264",
         "-preset", "veryfast", "-pix_fmt", "yuv420p", str(path)], check=True,
    )  # fmt: skip
    return dataclasses.replace(tutorial, path=path)


@pytest.fixture(scope="session")
def quiet(recordings_dir: Path) -> Recording:
    """14 s where only the pointer moves."""
    return quiet_clip(recordings_dir / "quiet.mp4")


@pytest.fixture
def processing_settings() -> ProcessingSettings:
    return ProcessingSettings()


@pytest.fixture(scope="session")
def tutorial_videos(tmp_path_factory) -> dict[str, Path]:
    """search_tutorial.mp4 and cart_tutorial.mp4 (a few seconds each) in a folder of their own."""
    from tests.processing.pipeline_helpers import render_tutorials

    return render_tutorials(tmp_path_factory.mktemp("tutorials"))


@pytest.fixture
def scripted_model(scripted_server):
    """scripted_model(extra_rules=None, **server options): the pipeline's SCRIPTED model server, stopped after the test."""
    from tests.processing.pipeline_helpers import pipeline_script

    return lambda extra_rules=None, **options: scripted_server(pipeline_script(extra_rules), **options)
