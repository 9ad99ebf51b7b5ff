"""A recording's life on disk, the same for every style: its fingerprint, its browser context and encoder while
it is made, and its files put in place with the fingerprint written last."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from tasks.recording.encoder import VideoEncoder
from tasks.recording.style import VideoStyle

_ENGINE = Path(__file__).resolve().parent


def fingerprint(identity: bytes, code: Iterable[Path]) -> str:
    """Changes when what made a recording changes: `identity` (its script and what else its frames show), this
    engine's code, or the style's `code` files."""
    digest = hashlib.sha256(identity)
    for file in [*sorted(_ENGINE.glob("*.py")), *code]:
        digest.update(file.name.encode())
        digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def is_current(files: Iterable[Path], mark: Path, fingerprint: str) -> bool:
    """All `files` are there and `mark` holds the fingerprint they were made under."""
    return mark.exists() and all(path.exists() for path in files) and mark.read_text().strip() == fingerprint


@contextmanager
def filming(browser, style: VideoStyle, partial: Path, timeout_ms: int | None = None) -> Iterator[tuple]:
    """(browser context, encoder) for one recording into `partial`; the file is finished when the block ends
    well, and removed when it fails."""
    context = browser.new_context(viewport={"width": style.width, "height": style.page_height}, device_scale_factor=1)
    try:
        if timeout_ms is not None:
            context.set_default_timeout(timeout_ms)
        encoder = VideoEncoder(partial, style.width, style.height, style.fps, style.codec, style.repeat)
        try:
            yield context, encoder
            encoder.close()
        except BaseException:
            encoder.abort()
            raise
    finally:
        context.close()


def put_in_place(partial: Path, video: Path, texts: dict[Path, str], mark: Path, fingerprint: str) -> None:
    """The finished video and its text files in place. The old fingerprint goes first and the new one last, so a
    recording cut off half-way reads as outdated and is made again."""
    mark.unlink(missing_ok=True)
    partial.replace(video)
    for path, text in texts.items():
        path.write_text(text, encoding="utf-8")
    mark.write_text(fingerprint + "\n")
