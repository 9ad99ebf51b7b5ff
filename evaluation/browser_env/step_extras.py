"""What a policy shows for a step (`PolicyStep.info`), made fit for a JSON record and the report.

Policies may put anything there. Images (PIL images, RGB/grey arrays, PNG/JPEG bytes)
are written beside the record as files and replaced by their file names; paths
become strings; dataclasses become dicts; anything else that JSON cannot hold
becomes its text.
"""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

EXTRA_DIR = "extra"
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".gif")
_SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF8", b"RIFF")


def prepare_extra(info: dict[str, Any], folder: Path, step_index: int) -> dict[str, Any]:
    """`info` with images saved under `<folder>/extra/` and everything else JSON-ready."""
    counter = [0]

    def save(image: Image.Image) -> str:
        counter[0] += 1
        name = f"{EXTRA_DIR}/step_{step_index:03d}_{counter[0]:02d}.png"
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path)
        return name

    def convert(value: Any) -> Any:
        if value is None or isinstance(value, (str, int, float, bool)):
            return value
        if isinstance(value, Path):
            return str(value)
        if isinstance(value, Image.Image):
            return save(value)
        if isinstance(value, np.ndarray) and value.dtype == np.uint8 and value.ndim in (2, 3):
            return save(Image.fromarray(value))
        if isinstance(value, np.generic):
            return value.item()
        if isinstance(value, (bytes, bytearray)) and bytes(value[:8]).startswith(_SIGNATURES):
            return save(Image.open(io.BytesIO(bytes(value))))
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return convert(dataclasses.asdict(value))
        if isinstance(value, dict):
            return {str(key): convert(item) for key, item in value.items()}
        if isinstance(value, (list, tuple, set)):
            return [convert(item) for item in value]
        return str(value)

    return convert(info)
