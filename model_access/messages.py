"""Chat messages with text and images, in the OpenAI wire format.

Messages stay plain dicts (`{"role": ..., "content": ...}`) so any stage can build
or inspect them; this module only makes the image parts. Images become base64
data URLs:

- numpy arrays are RGB (H, W, 3) or grey (H, W) uint8, as PIL and screenshots give
  them; OpenCV frames are BGR, pass them through `rgb_from_bgr` first;
- PIL images are encoded as PNG (lossless: UI text must stay legible) unless a
  format is asked for;
- file paths and raw bytes are sent as they are, with the type read from their
  signature, so a JPEG keyframe on disk is not re-encoded;
- strings that already are data or http(s) URLs are passed through.

The cache never stores image bytes: `image_digest` names an image by the sha256
of its data URL, which is what the server receives.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
from pathlib import Path
from typing import Any, Iterable, Union

import numpy as np
from PIL import Image

from foundation.errors import UserError

ImageInput = Union[np.ndarray, Image.Image, bytes, str, Path]
Message = dict[str, Any]

DATA_URL_PREFIX = "data:"
_SIGNATURES = {
    b"\x89PNG\r\n\x1a\n": "image/png",
    b"\xff\xd8\xff": "image/jpeg",
    b"GIF87a": "image/gif",
    b"GIF89a": "image/gif",
}


def rgb_from_bgr(frame: np.ndarray) -> np.ndarray:
    """OpenCV's BGR frame as RGB (a copy, contiguous)."""
    return np.ascontiguousarray(frame[..., ::-1])


def image_data_url(image: ImageInput, *, image_format: str = "PNG", jpeg_quality: int = 90) -> str:
    """Any supported image as a `data:image/...;base64,...` URL."""
    if isinstance(image, str) and image.startswith((DATA_URL_PREFIX, "http://", "https://")):
        return image  # already a URL the server can read
    if isinstance(image, (str, Path)):
        path = Path(image)
        if not path.is_file():
            raise UserError(f"image file {path} not found; pass an existing image path")
        return _bytes_to_data_url(path.read_bytes(), source=str(path))
    if isinstance(image, (bytes, bytearray)):
        return _bytes_to_data_url(bytes(image), source="image bytes")
    if isinstance(image, np.ndarray):
        image = _array_to_pil(image)
    if isinstance(image, Image.Image):
        return _pil_to_data_url(image, image_format, jpeg_quality)
    raise TypeError(f"unsupported image type {type(image).__name__}; use a numpy array, PIL image, bytes or path")


def decode_data_url(url: str) -> tuple[str, bytes]:
    """(mime type, bytes) of a base64 data URL; used by the scripted server and tests."""
    header, _, payload = url.partition(",")
    if not header.startswith(DATA_URL_PREFIX) or ";base64" not in header:
        raise ValueError(f"not a base64 data URL: {url[:40]!r}")
    try:
        return header[len(DATA_URL_PREFIX) :].split(";")[0], base64.b64decode(payload, validate=True)
    except binascii.Error as exc:
        raise ValueError(f"data URL payload is not valid base64: {exc}") from exc


def image_digest(url: str) -> str:
    """Stable name of an image for cache keys: sha256 of the URL (data URLs carry the bytes)."""
    return "sha256:" + hashlib.sha256(url.encode("utf-8")).hexdigest()


def text_part(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def image_part(image: ImageInput, *, detail: str | None = None, **encode: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {"url": image_data_url(image, **encode)}
    if detail:
        payload["detail"] = detail
    return {"type": "image_url", "image_url": payload}


def system_message(text: str) -> Message:
    return {"role": "system", "content": text}


def assistant_message(text: str) -> Message:
    return {"role": "assistant", "content": text}


def user_message(text: str, images: Iterable[ImageInput] = (), *, images_first: bool = False, **encode: Any) -> Message:
    """A user turn: plain text when there are no images, else text and image parts."""
    image_parts = [image_part(image, **encode) for image in images]
    if not image_parts:
        return {"role": "user", "content": text}
    parts = [*image_parts, text_part(text)] if images_first else [text_part(text), *image_parts]
    return {"role": "user", "content": parts}


def content_parts(messages: Iterable[Message]) -> Iterable[dict[str, Any]]:
    """Every content part of every message (a plain string content counts as one text part)."""
    for message in messages:
        content = message.get("content")
        if isinstance(content, str):
            yield text_part(content)
        elif isinstance(content, list):
            yield from (part for part in content if isinstance(part, dict))


def count_images(messages: Iterable[Message]) -> int:
    return sum(1 for part in content_parts(messages) if part.get("type") == "image_url")


def prompt_text(messages: Iterable[Message]) -> str:
    """All text of the messages joined by newlines (for matching and rough token counts)."""
    return "\n".join(str(part.get("text", "")) for part in content_parts(messages) if part.get("type") == "text")


def messages_for_key(messages: Iterable[Message]) -> list[Message]:
    """The messages with each image URL replaced by its digest: small, and equal iff the images are."""

    def replace(part: Any) -> Any:
        if isinstance(part, dict) and part.get("type") == "image_url":
            image_url = dict(part.get("image_url") or {})
            image_url["url"] = image_digest(str(image_url.get("url", "")))
            return {**part, "image_url": image_url}
        return part

    keyed = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            message = {**message, "content": [replace(part) for part in content]}
        keyed.append(message)
    return keyed


def _array_to_pil(array: np.ndarray) -> Image.Image:
    if array.dtype != np.uint8:
        raise TypeError(f"image arrays must be uint8, got {array.dtype}")
    if array.ndim == 2 or (array.ndim == 3 and array.shape[2] in (3, 4)):
        return Image.fromarray(np.ascontiguousarray(array))
    raise TypeError(f"image arrays must be (H, W), (H, W, 3) or (H, W, 4), got {array.shape}")


def _pil_to_data_url(image: Image.Image, image_format: str, jpeg_quality: int) -> str:
    fmt = image_format.upper().replace("JPG", "JPEG")
    if fmt not in ("PNG", "JPEG"):
        raise ValueError(f"image_format must be PNG or JPEG, got {image_format!r}")
    if fmt == "JPEG" and image.mode not in ("RGB", "L"):
        image = image.convert("RGB")
    buffer = io.BytesIO()
    # Fixed encoder options keep the bytes (and so the cache key) stable across calls.
    image.save(buffer, format=fmt, **({"quality": jpeg_quality} if fmt == "JPEG" else {"compress_level": 6}))
    return _encode(buffer.getvalue(), "image/png" if fmt == "PNG" else "image/jpeg")


def _bytes_to_data_url(data: bytes, source: str) -> str:
    mime = _sniff_mime(data)
    if mime is None:
        raise UserError(f"{source} is not a PNG, JPEG, GIF or WebP image; convert it before sending")
    return _encode(data, mime)


def _sniff_mime(data: bytes) -> str | None:
    for signature, mime in _SIGNATURES.items():
        if data.startswith(signature):
            return mime
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def _encode(data: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def join_text_parts(messages: Iterable[Message]) -> list[Message]:
    """Each message whose content is a list of text parts only, as one string (parts joined by newlines).

    The same words reach the model: a server renders a text-only list by joining it anyway, and
    llama.cpp's server rejects the list form outright. Messages with images keep their parts.
    """
    joined = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, list) and content and all(
            isinstance(part, dict) and part.get("type") == "text" for part in content
        ):
            message = {**message, "content": "\n".join(str(part.get("text", "")) for part in content)}
        joined.append(message)
    return joined


# A rough count, used only to refuse a prompt that cannot fit before sending it: English prose and page
# text run near 4 characters a token in the common tokenizers; an image is counted at a 720p screenshot's
# cost in the vision models we use (Qwen2.5-VL: ~1,200 tokens at 1280x720).
CHARS_PER_TOKEN = 4.0
TOKENS_PER_IMAGE = 1200


def estimate_prompt_tokens(messages: Iterable[Message]) -> int:
    messages = list(messages)
    text = prompt_text(messages)
    return int(len(text) / CHARS_PER_TOKEN) + 4 * len(messages) + TOKENS_PER_IMAGE * count_images(messages)
