"""A task's input images (VWA's `image` field): fetched once, kept in the cache, handed over as bytes.

A source is an http(s) URL (downloaded once into `<cache>/task_images/`, named by a hash
of the URL, so later runs and other workers read the file), a `data:` URL, or a local
path (relative paths are read from the current folder, as the reference runner does).
Every image is checked to open as a picture; PNG and JPEG bytes pass through as they
are, other formats are converted to PNG so any model server accepts them.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import os
from pathlib import Path
from urllib.parse import unquote_to_bytes

from PIL import Image, UnidentifiedImageError

from foundation.errors import UserError

CACHE_FOLDER = "task_images"
DOWNLOAD_TIMEOUT_S = 60
# Some image hosts refuse requests without a browser-like agent (the reference sends one too).
_HEADERS = {"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) videodemo-task-images"}
_PASS_THROUGH = {"PNG", "JPEG"}


def load_task_images(sources: list[str], cache_dir: Path) -> list[bytes]:
    """The images of a task, in the order of its `image` field; UserError naming the source and the fix."""
    return [load_task_image(source, Path(cache_dir)) for source in sources]


def load_task_image(source: str, cache_dir: Path) -> bytes:
    if source.startswith("data:"):
        raw = _decode_data_url(source)
    elif source.startswith(("http://", "https://")):
        raw = _cached_download(source, cache_dir / CACHE_FOLDER)
    else:
        path = Path(source).expanduser()
        if not path.is_file():
            raise UserError(f"task image {source} not found; fix the task's `image` field or run from its folder")
        raw = path.read_bytes()
    return _as_model_image(raw, source)


def _cached_download(url: str, folder: Path) -> bytes:
    path = folder / (hashlib.sha1(url.encode()).hexdigest()[:16] + ".img")
    if path.is_file():
        return path.read_bytes()
    import requests

    try:
        response = requests.get(url, headers=_HEADERS, timeout=DOWNLOAD_TIMEOUT_S)
        response.raise_for_status()
    except requests.RequestException as exc:
        raise UserError(f"task image {url} could not be downloaded ({exc}); check the address or the network") from None
    folder.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    partial.write_bytes(response.content)
    partial.replace(path)
    return response.content


def _decode_data_url(url: str) -> bytes:
    header, _, payload = url.partition(",")
    try:
        return base64.b64decode(payload, validate=False) if header.endswith(";base64") else unquote_to_bytes(payload)
    except (binascii.Error, ValueError):
        raise UserError(f"task image {url[:40]}...: the data: URL does not decode") from None


def _as_model_image(raw: bytes, source: str) -> bytes:
    try:
        with Image.open(io.BytesIO(raw)) as image:
            image.load()
            if image.format in _PASS_THROUGH:
                return raw
            out = io.BytesIO()
            image.convert("RGB" if image.mode not in ("RGB", "RGBA") else image.mode).save(out, format="PNG")
            return out.getvalue()
    except (UnidentifiedImageError, OSError):
        # Both ends of a long source: a data: URL's kind is at its start, a path's file name at its end.
        shown = source if len(source) <= 80 else source[:38] + "..." + source[-39:]
        raise UserError(f"task image {shown} is not a picture PIL can open; fix the task's `image` field") from None
