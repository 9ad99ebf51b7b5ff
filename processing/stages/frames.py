"""Keyframes as the model sees them: as recorded, or shrunk when larger than `model_image_max_side`.

A keyframe that fits is sent as its JPEG bytes, unchanged. A larger one is shrunk
(area interpolation keeps text readable) and encoded once with fixed options, so the
bytes, and with them the model cache keys, stay the same from run to run.

The result is a data URL, kept in a small cache: the trajectory stage attaches the same
few frames to hundreds of requests, which then share one string instead of a copy each.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image

from foundation.errors import UserError
from model_access.messages import image_data_url


def model_image(path: str | Path, max_side: int, quality: int = 85) -> str:
    """The data URL to attach for keyframe `path`."""
    path = Path(path)
    try:
        stat = path.stat()
    except OSError as exc:
        raise UserError(f"keyframe {path} is missing ({exc.strerror}); rerun process-videos to write it again") from exc
    return _data_url(str(path), stat.st_mtime_ns, stat.st_size, max_side, quality)


@lru_cache(maxsize=256)
def _data_url(path: str, mtime_ns: int, size: int, max_side: int, quality: int) -> str:
    data = Path(path).read_bytes()
    with Image.open(io.BytesIO(data)) as image:
        width, height = image.size
        if max_side <= 0 or max(width, height) <= max_side:
            return image_data_url(data)
        scale = max_side / max(width, height)
        target = (max(1, round(width * scale)), max(1, round(height * scale)))
        small = image.convert("RGB").resize(target, Image.Resampling.BOX)
    buffer = io.BytesIO()
    small.save(buffer, format="JPEG", quality=quality)
    return image_data_url(buffer.getvalue())


def frame_sizes(path: str | Path, max_side: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """(width, height) of keyframe `path` as recorded, and as `model_image` shows it to the model."""
    path = Path(path)
    try:
        with Image.open(path) as image:
            width, height = image.size
    except OSError as exc:
        raise UserError(f"keyframe {path} cannot be read ({exc}); rerun process-videos to write it again") from exc
    if max_side <= 0 or max(width, height) <= max_side:
        return (width, height), (width, height)
    scale = max_side / max(width, height)
    return (width, height), (max(1, round(width * scale)), max(1, round(height * scale)))
