"""Putting a finished labeler recording in place: its video, its ground-truth actions, its fingerprint; and
taking it from the per-user recordings store instead (tasks/recording_store.py) when it was made before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tasks import recording_store
from tasks.recording.files import put_in_place
from tasks.sandbox.tutorials.ground_truth import ActionRecord, TutorialRecord

# What a labeler recording is, file by file (the fingerprint is written beside them, never stored).
STORED_SUFFIXES = (".mp4", ".actions.json")


def _stored_files(folder: Path, name: str) -> list[Path]:
    return [folder / f"{name}{suffix}" for suffix in STORED_SUFFIXES]


def restore_recording(folder: Path, style: str, name: str, fingerprint: str) -> bool:
    """Copy recording `name` of `style` from the recordings store when it holds the one this fingerprint makes.
    The frames show no address, so the fingerprint is the key; the start_url in its actions names the port its
    page server had then (nothing scores it)."""
    if not recording_store.fetch(f"labeler-{style}", name, fingerprint, _stored_files(folder, name)):
        return False
    (folder / f"{name}.fingerprint").write_text(fingerprint + "\n")
    return True


def save_recording(
    folder: Path, partial: Path, script: Any, *, style: str, url: str, fps: float, size: tuple[int, int],
    duration_s: float, actions: list[ActionRecord], fingerprint: str,
) -> None:  # fmt: skip
    """Move the finished `partial` video to `<name>.mp4` and write `<name>.actions.json` and its fingerprint."""
    width, height = size
    record = TutorialRecord(
        name=script.name, title=script.name.replace("-", " "), description=f"{style} {script.app} tutorial",
        site=script.app, start_url=url, fps=fps, width=width, height=height, page_top=0, duration_s=duration_s,
        actions=actions, narration=[],
    )  # fmt: skip
    put_in_place(partial, folder / f"{script.name}.mp4", {folder / f"{script.name}.actions.json": record.to_json()},
                 folder / f"{script.name}.fingerprint", fingerprint)  # fmt: skip
    recording_store.keep(f"labeler-{style}", script.name, fingerprint, _stored_files(folder, script.name))
