"""Putting a finished labeler recording in place: its video, its ground-truth actions, its fingerprint."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tasks.sandbox.tutorials.ground_truth import ActionRecord, TutorialRecord


def save_recording(
    folder: Path, partial: Path, script: Any, *, style: str, url: str, fps: float, size: tuple[int, int],
    duration_s: float, actions: list[ActionRecord], fingerprint: str,
) -> None:  # fmt: skip
    """Move the finished `partial` video to `<name>.mp4` and write `<name>.actions.json` and its fingerprint.

    The old fingerprint goes first, so a recording cut off half-way reads as outdated and is made again.
    """
    width, height = size
    record = TutorialRecord(
        name=script.name, title=script.name.replace("-", " "), description=f"{style} {script.app} tutorial",
        site=script.app, start_url=url, fps=fps, width=width, height=height, page_top=0, duration_s=duration_s,
        actions=actions, narration=[],
    )  # fmt: skip
    (folder / f"{script.name}.fingerprint").unlink(missing_ok=True)
    partial.replace(folder / f"{script.name}.mp4")
    (folder / f"{script.name}.actions.json").write_text(record.to_json(), encoding="utf-8")
    (folder / f"{script.name}.fingerprint").write_text(fingerprint + "\n")
