"""Content check (stage "video_verification"): does the video really show the application's UI being
operated for this task? The VLM sees the transcript (cut to a budget) and frames sampled uniformly.

Frames are taken at the middle of `verification_frames` equal stretches of the video,
which skips the title card at 0 s, shrunk to `verification_frame_width` and kept as
JPEG files under `<cache>/retrieval/frames/<id>/`. A re-run sends the same files, so
the model call cache answers it without decoding the video again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from model_access.client import ChatRequest
from model_access.messages import user_message
from model_access.replies import ReplyParseError, extract_json_object, parse_yes_no
from foundation.subtitles import parse_subtitles
from foundation.video_io import iter_frames, probe
from retrieval.applications import Application
from retrieval.prompt_templates import render, reply_schema

STAGE = "video_verification"
JPEG_QUALITY = 85
DESCRIPTION_CHARS = 1000


@dataclass
class Verdict:
    verified: bool
    reason: str


def sample_frames(video: Path, count: int, width: int, folder: Path) -> list[Path]:
    """`count` frames at the middles of equal stretches of `video`, as JPEG files in `folder` (reused)."""
    stamp = {"video": str(video), "size": video.stat().st_size, "count": count, "width": width}
    index_file = folder / "frames.json"
    if index_file.is_file():
        try:
            saved = json.loads(index_file.read_text())
            files = [folder / name for name in saved.get("files", [])]
            if saved.get("stamp") == stamp and files and all(path.is_file() for path in files):
                return files
        except ValueError:
            pass  # rewritten below
    info = probe(video)
    # Twice the rate, odd frames only: frame 2k+1 sits at the middle of stretch k.
    frames = [_shrink(frame.bgr(), width) for frame in iter_frames(video, 2 * count / info.duration_s, info)]
    chosen = [frames[min(len(frames) - 1, (2 * k + 1) * len(frames) // (2 * count))] for k in range(count)]
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("frame_*.jpg"):
        stale.unlink()
    names = []
    for number, frame in enumerate(chosen):
        name = f"frame_{number:02d}.jpg"
        cv2.imwrite(str(folder / name), frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        names.append(name)
    index_file.write_text(json.dumps({"stamp": stamp, "files": names}))
    return [folder / name for name in names]


def read_transcript(path: Path | None, budget_chars: int) -> str:
    if path is None or not path.is_file():
        return "(no transcript: the video has no subtitles or captions)"
    text = " ".join(cue.text for cue in parse_subtitles(path.read_text(encoding="utf-8-sig", errors="replace")))
    if not text.strip():
        return "(the subtitle file holds no speech)"
    return _cut(text, budget_chars)


def verification_request(
    application: Application,
    intent: str,
    title: str,
    description: str,
    transcript: str,
    frames: list[Path],
) -> ChatRequest:
    prompt = render(
        "verification",
        application=application.description,
        task=intent,
        title=" ".join(title.split()),
        description=_cut(" ".join(description.split()), DESCRIPTION_CHARS) or "(none)",
        transcript=transcript,
        frame_count=len(frames),
    )
    return ChatRequest("vlm", [user_message(prompt, frames)], stage=STAGE, reply_schema=reply_schema("verification"))


def read_verdict(reply: str) -> Verdict:
    """The yes/no and the reason; an unreadable reply counts as "no", saying so."""
    try:
        data = extract_json_object(reply)
        answer = str(data.get("answer", data.get("verdict", "")))
        return Verdict(parse_yes_no(answer), str(data.get("reason", "")).strip() or "(no reason given)")
    except ReplyParseError:
        pass
    try:
        return Verdict(parse_yes_no(reply), " ".join(reply.split())[:300])
    except ReplyParseError:
        return Verdict(False, f"unreadable reply, counted as no: {' '.join(reply.split())[:200]!r}")


def _shrink(frame: np.ndarray, width: int) -> np.ndarray:
    height, current = frame.shape[:2]
    if current <= width:
        return frame
    return cv2.resize(frame, (width, max(1, round(height * width / current))), interpolation=cv2.INTER_AREA)


def _cut(text: str, budget: int) -> str:
    if len(text) <= budget:
        return text
    return text[:budget].rsplit(" ", 1)[0] + " [...]"
