"""A recording style's video, as one small record: size, rates, codec, pointer, click effect."""

from __future__ import annotations

from dataclasses import dataclass

from tasks.recording.effects import ClickEffect
from tasks.recording.encoder import Codec
from tasks.recording.pointer import PointerLook


@dataclass(frozen=True)
class VideoStyle:
    width: int
    page_height: int  # the browser's viewport
    capture_fps: int  # pictures per second of video
    codec: Codec
    pointer: PointerLook
    click_effect: ClickEffect | None = None
    repeat: int = 1  # each picture written this many times into the file
    bar_height: int = 0  # a browser bar drawn above the page (the sandbox tutorials')

    @property
    def fps(self) -> int:
        """The file's frame rate."""
        return self.capture_fps * self.repeat

    @property
    def height(self) -> int:
        """The frame's height: the bar and the page."""
        return self.bar_height + self.page_height
