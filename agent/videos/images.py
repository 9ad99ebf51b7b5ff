"""Keyframes of demonstrations as the model sees them and as the report shows them.

A keyframe that already fits `max_side` is sent as its file's bytes; a larger one is
shrunk (box filter: UI text stays readable) and encoded once with fixed options, so
the request, and with it the model cache key, is the same on every run. Data URLs
are kept in a small cache because one demonstration is sent at many steps.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image

from model_access.messages import image_data_url

# The report shows keyframes at this width (the page's CSS draws them 320 px wide).
REPORT_WIDTH = 320


def keyframe_data_url(path: str | Path, max_side: int) -> str | None:
    """The data URL to attach for the keyframe at `path`, or None when the file is gone."""
    try:
        stat = Path(path).stat()
    except OSError:
        return None
    return _data_url(str(path), stat.st_mtime_ns, max_side)


@lru_cache(maxsize=512)
def _data_url(path: str, mtime_ns: int, max_side: int) -> str:
    data = Path(path).read_bytes()
    with Image.open(io.BytesIO(data)) as image:
        if max_side <= 0 or max(image.size) <= max_side:
            return image_data_url(data)
        small = _shrunk(image, max_side)
    buffer = io.BytesIO()
    small.save(buffer, format="JPEG", quality=85)
    return image_data_url(buffer.getvalue())


def report_thumbnail(path: str | Path) -> Image.Image | None:
    """A small copy of the keyframe for the task's page (saved beside the record), or None when it is gone."""
    try:
        with Image.open(path) as image:
            return _shrunk(image, REPORT_WIDTH, by_width=True)
    except OSError:
        return None


def _shrunk(image: Image.Image, size: int, *, by_width: bool = False) -> Image.Image:
    width, height = image.size
    scale = size / (width if by_width else max(width, height))
    if scale >= 1:
        return image.convert("RGB")
    target = (max(1, round(width * scale)), max(1, round(height * scale)))
    return image.convert("RGB").resize(target, Image.Resampling.BOX)
