"""Reading recorded tutorial videos back the way a viewer would: frames, the pointer, text on screen."""

from __future__ import annotations

import json
import re
import subprocess
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from tasks.sandbox.tutorials.cursor import cursor_sprite

Box = list[float]


def probe(video: Path) -> dict:
    """The first video stream's codec, size, pixel format, frame rates and frame count (ffprobe)."""
    output = subprocess.run(
        [
            "ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames",
            "-show_entries", "stream=codec_name,width,height,pix_fmt,r_frame_rate,avg_frame_rate,nb_read_frames",
            "-of", "json", str(video),
        ],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return json.loads(output)["streams"][0]


def audio_streams(video: Path) -> list[dict]:
    """The video's audio streams: codec and duration (ffprobe)."""
    output = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "a", "-show_entries", "stream=codec_name,duration",
         "-of", "json", str(video)], capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return json.loads(output)["streams"]


def read_frames(video: Path, width: int, height: int, wanted: set[int]) -> dict[int, np.ndarray]:
    """Decode the whole video once and keep the RGB frames whose index is in `wanted`."""
    frame_bytes = width * height * 3
    process = subprocess.Popen(
        ["ffmpeg", "-v", "error", "-i", str(video), "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
        stdout=subprocess.PIPE,
    )
    frames: dict[int, np.ndarray] = {}
    index = 0
    try:
        while len(frames) < len(wanted):
            data = process.stdout.read(frame_bytes)
            if len(data) < frame_bytes:
                break
            if index in wanted:
                frames[index] = np.frombuffer(data, np.uint8).reshape(height, width, 3).copy()
            index += 1
    finally:
        process.stdout.close()
        process.kill()
        process.wait()
    return frames


def find_cursor(frame: np.ndarray) -> tuple[tuple[int, int], float]:
    """Where the pointer's tip is, and the mean squared grey-level error of the best match."""
    sprite, mask = cursor_sprite()
    template = cv2.cvtColor(sprite, cv2.COLOR_RGB2GRAY).astype(np.float32)
    grey = cv2.cvtColor(frame, cv2.COLOR_RGB2GRAY).astype(np.float32)
    scores = cv2.matchTemplate(grey, template, cv2.TM_SQDIFF, mask=mask.astype(np.uint8) * 255)
    error, _, location, _ = cv2.minMaxLoc(scores)
    return location, error / mask.sum()


def inside(point: tuple[float, float], box: Box, margin: float = 1.0) -> bool:
    x, y, w, h = box
    return x - margin <= point[0] <= x + w + margin and y - margin <= point[1] <= y + h + margin


@lru_cache(maxsize=1)
def _ocr():
    from rapidocr import RapidOCR

    return RapidOCR()


def read_text(frame: np.ndarray, box: Box, cursor: tuple[int, int] | None = None) -> str:
    """OCR of a box of the frame; the pointer, when given, is painted out first (it covers letters)."""
    image = frame.copy()
    if cursor is not None:
        sprite, mask = cursor_sprite()
        painted = np.zeros(image.shape[:2], np.uint8)
        x, y = cursor
        h = min(mask.shape[0], image.shape[0] - y)
        w = min(mask.shape[1], image.shape[1] - x)
        painted[y : y + h, x : x + w] = mask[:h, :w] * 255
        painted = cv2.dilate(painted, np.ones((3, 3), np.uint8))
        image = cv2.inpaint(image, painted, 3, cv2.INPAINT_TELEA)
    x, y, w, h = (int(round(v)) for v in box)
    pad = 4
    crop = image[max(y - pad, 0) : y + h + pad, max(x - pad, 0) : x + w + pad]
    crop = cv2.resize(crop, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
    crop = cv2.copyMakeBorder(crop, 20, 20, 20, 20, cv2.BORDER_REPLICATE)
    result = _ocr()(crop, use_cls=False)  # text on screen is upright: skip the rotation classifier
    return " ".join(result.txts or ())


def normalise(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def substring_distance(haystack: str, needle: str) -> int:
    """Fewest edits that turn `needle` into some substring of `haystack` (Sellers' algorithm)."""
    previous = [0] * (len(haystack) + 1)  # matching may start anywhere in the haystack
    for i, char in enumerate(needle, start=1):
        current = [i] + [0] * len(haystack)
        for j, other in enumerate(haystack, start=1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char != other))
        previous = current
    return min(previous)


def fuzzy_contains(haystack: str, needle: str) -> bool:
    """Whether `needle` is written in `haystack` (both normalised), allowing the few letter slips that
    OCR makes and the letter or two a pointer hides: 1 edit in a short word, else 2 or 15% of the name."""
    haystack, needle = normalise(haystack), normalise(needle)
    allowed = 1 if len(needle) <= 4 else max(2, int(0.15 * len(needle)))
    return substring_distance(haystack, needle) <= allowed


_SRT_TIME = r"(\d\d):(\d\d):(\d\d),(\d\d\d)"


def parse_srt(text: str) -> list[tuple[float, float, str]]:
    """Cues as (start, end, text); a malformed block fails the parse."""
    cues = []
    for number, block in enumerate(text.strip().split("\n\n"), start=1):
        lines = block.split("\n")
        assert lines[0] == str(number), f"cue {number} is numbered {lines[0]!r}"
        match = re.fullmatch(f"{_SRT_TIME} --> {_SRT_TIME}", lines[1])
        assert match, f"cue {number} has a bad time line {lines[1]!r}"
        values = [int(v) for v in match.groups()]
        start = values[0] * 3600 + values[1] * 60 + values[2] + values[3] / 1000
        end = values[4] * 3600 + values[5] * 60 + values[6] + values[7] / 1000
        cues.append((start, end, " ".join(lines[2:])))
    return cues


def vertical_shift_error(before: np.ndarray, after: np.ndarray, top: int, shift: int) -> float:
    """Mean absolute difference between `after` and `before` moved up by `shift` rows (page area only)."""
    height = before.shape[0]
    if abs(shift) >= height - top:
        return float("inf")  # nothing of the old view is left to compare with
    if shift >= 0:
        old, new = before[top + shift : height], after[top : height - shift]
    else:
        old, new = before[top : height + shift], after[top - shift : height]
    return float(np.abs(old.astype(np.int16) - new.astype(np.int16)).mean())
