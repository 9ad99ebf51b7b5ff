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

from PIL import Image, ImageDraw

from model_access.messages import image_data_url

# The report shows keyframes at this width (the page's CSS draws them 320 px wide).
REPORT_WIDTH = 320


# The mark of where a step happened (`agent.demonstration_mark_points`): a ring this wide, in frame pixels at
# 1280 wide, drawn in a red that UI chrome rarely uses, so the model can tell it from the page.
MARK_RADIUS = 14
MARK_WIDTH = 3
MARK_COLOUR = (255, 0, 64)


def keyframe_data_url(path: str | Path, max_side: int, mark: tuple[int, int] | None = None) -> str | None:
    """The data URL to attach for the keyframe at `path` (with a ring around `mark`, frame pixels, when given),
    or None when the file is gone."""
    try:
        stat = Path(path).stat()
    except OSError:
        return None
    return _data_url(str(path), stat.st_mtime_ns, max_side, mark)


@lru_cache(maxsize=512)
def _data_url(path: str, mtime_ns: int, max_side: int, mark: tuple[int, int] | None = None) -> str:
    data = Path(path).read_bytes()
    with Image.open(io.BytesIO(data)) as image:
        if mark is None and (max_side <= 0 or max(image.size) <= max_side):
            return image_data_url(data)
        small = _shrunk(_marked(image, mark) if mark is not None else image, max_side if max_side > 0 else 1 << 30)
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


def _marked(image: Image.Image, point: tuple[int, int]) -> Image.Image:
    """A copy of `image` with a ring and a dot at `point`, drawn before shrinking so they shrink with the frame."""
    marked = image.convert("RGB")
    draw = ImageDraw.Draw(marked)
    scale = max(1.0, marked.width / 1280)
    radius, width = MARK_RADIUS * scale, max(1, round(MARK_WIDTH * scale))
    x, y = point
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), outline=MARK_COLOUR, width=width)
    draw.ellipse((x - width, y - width, x + width, y + width), fill=MARK_COLOUR)
    return marked


def _shrunk(image: Image.Image, size: int, *, by_width: bool = False) -> Image.Image:
    width, height = image.size
    scale = size / (width if by_width else max(width, height))
    if scale >= 1:
        return image.convert("RGB")
    target = (max(1, round(width * scale)), max(1, round(height * scale)))
    return image.convert("RGB").resize(target, Image.Resampling.BOX)
