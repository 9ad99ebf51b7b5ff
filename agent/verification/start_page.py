"""Where a trajectory starts on the live site, and which task stands for its video there.

The page is taken, in order, from: the address bar of the trajectory's first frame
(OCR of the frame's top band, its path put on the live site's host, since the
recording's host and port are not the live site's), the video's own start address
(a sandbox tutorial's `start_url`, for a trajectory that starts at the video's first
action), or the start URL of a task that names the video. The record says which.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import cv2

from processing.objectives.wording import url_path
from foundation.records.trajectory import Trajectory, VideoRecord
from settings import Settings

ADDRESS_BAR = "address bar"
VIDEO_START = "video start url"
TASK_START = "task start url"


@dataclass
class StartPage:
    url: str
    source: str  # ADDRESS_BAR, VIDEO_START or TASK_START
    detail: str = ""  # what was read, or why an earlier source gave nothing

    def to_dict(self) -> dict[str, str]:
        return {"url": self.url, "source": self.source, "detail": self.detail}


def host_of(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "", "", ""))


def task_for_video(video_id: str, tasks: list) -> object | None:
    """A task naming the video, preferring one that starts logged in (tutorials are mostly recorded so)."""
    naming = [task for task in tasks if video_id in (task.videos or [])]
    naming.sort(key=lambda task: task.storage_state is None)
    return naming[0] if naming else None


def address_in_frame(frame: str, band: float) -> str:
    """The URL-looking text in the top `band` of a keyframe ("" when none can be read)."""
    from processing.ocr_labeler.ocr import read_image
    from processing.ocr_labeler.typed_text import url_in

    image = cv2.imread(frame) if frame and Path(frame).is_file() else None
    if image is None:
        return ""
    top = image[: max(8, int(image.shape[0] * band))]
    return url_in(read_image(top))


def video_start_path(video: VideoRecord | None) -> str:
    """The start address a recorded sandbox tutorial was made from (its `.actions.json` beside the video)."""
    if video is None or not video.path:
        return ""
    sidecar = Path(video.path).with_suffix(".actions.json")
    try:
        return str(json.loads(sidecar.read_text(encoding="utf-8")).get("start_url") or "")
    except (OSError, json.JSONDecodeError):
        return ""


def start_page(trajectory: Trajectory, video: VideoRecord | None, task_url: str, settings: Settings) -> StartPage:
    base = host_of(task_url)
    tried: list[str] = []
    if settings.verification.read_address_bar:
        address = address_in_frame(trajectory.first_frame, settings.verification.address_band)
        path = url_path(address)
        if path:
            return StartPage(base + path, ADDRESS_BAR, f"read {address!r}")
        tried.append("no address read in the first frame")
    if trajectory.span[0] == 0:
        start = video_start_path(video)
        if start:
            path = url_path(start if start.startswith("/") or "://" in start else "/" + start)
            url = start if "://" in start and not base else base + path
            return StartPage(url, VIDEO_START, "; ".join(tried))
        tried.append("the video names no start address")
    else:
        tried.append("the trajectory starts mid-video")
    return StartPage(task_url, TASK_START, "; ".join(tried))
