"""What the streaming pass records about a video: per-frame facts, and pictures of key moments.

Pictures are pointer-free crops kept as PNG; they are read (OCR) only when the
actions are assembled, and only those the actions need (`Observation.read`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from processing.ocr_labeler.frames import Box, box_around
from processing.ocr_labeler.icons import triangle_mark
from processing.ocr_labeler.ocr import TextBox, TextReader
from processing.ocr_labeler.typed_text import masked_length

FIELD_BAND = (300, 20, 700, 20)  # where typed text goes when no field box is found around the tip


@dataclass
class FrameFacts:
    index: int
    time_s: float
    pointer: tuple[float, float] | None
    moved: float | None  # how far the tip moved since the previous frame (None: not known)
    content: tuple[Box, ...]  # areas that changed, apart from the pointer and click highlights
    fraction: float  # share of the frame in those areas' cells
    shift: int | None  # scroll: content moved up by this many pixels (negative: down)
    ring: bool  # a click highlight appeared
    page: bool = False  # a new page appeared


@dataclass
class Picture:
    """A pointer-free crop of the screen, kept as PNG until it is read; only lines touching `focus` matter."""

    box: Box  # where the crop sits in the frame
    png: bytes
    focus: Box | None = None

    @classmethod
    def of(cls, image: np.ndarray, box: Box, focus: Box | None = None) -> Picture:
        x0, y0, x1, y1 = box
        ok, data = cv2.imencode(".png", image[y0:y1, x0:x1], [cv2.IMWRITE_PNG_COMPRESSION, 1])
        return cls(box, data.tobytes() if ok else b"", focus)

    def image(self) -> np.ndarray:
        return cv2.imdecode(np.frombuffer(self.png, np.uint8), cv2.IMREAD_COLOR)

    def part(self, box: Box) -> np.ndarray:
        """The pixels of `box` (frame coordinates), clipped to the picture."""
        image = self.image()
        x0, y0 = max(0, box[0] - self.box[0]), max(0, box[1] - self.box[1])
        return image[y0 : max(y0, box[3] - self.box[1]), x0 : max(x0, box[2] - self.box[0])]


@dataclass
class ClickView:
    """The screen around the pointer at a click (or a hover): what it hit."""

    index: int  # the frame where the click shows (highlight, or the first change after resting)
    time_s: float
    point: tuple[float, float]
    evidence: str  # "ring", "dwell" or "hover"
    picture: Picture  # around the tip, just before the click
    control: Box | None  # the box of even colour the tip is in (button, field, drop-down), if any
    until_s: float = 0.0  # hovers: when the pointer moved on

    @property
    def field(self) -> Box:
        """Where typing after this click would show: the control, or a band along the tip's row."""
        if self.control is not None:
            return self.control
        return box_around(self.point, *FIELD_BAND)


@dataclass
class Edit:
    """New ink after a click: typed letters, an opened list, a button's new state."""

    click: int  # index into the clicks
    box: Box  # where new ink appeared
    first_box: Box  # the ink of its first frame (an opened list shows whole at once)
    first_s: float
    last_s: float
    frames: int  # frames with new ink anywhere in the click's zone
    field_frames: int  # of which with typing-sized ink inside the clicked field
    typed_s: float  # the last of those
    ended_by: str  # "quiet", "page", "scroll", "click" or "end"
    before: Picture | None = None  # the field before the click and after the last ink (when typed into)
    after: Picture | None = None
    first_typed_s: float | None = None  # the first typing-sized ink in the field


@dataclass
class Observation:
    width: int
    height: int
    duration_s: float
    facts: list[FrameFacts]
    clicks: list[ClickView]
    edits: list[Edit]
    hovers: list[ClickView]  # rests on something that reacted, with no click
    address: Box | None  # the rows where the browser shows the page's address, if it is in view
    reader: TextReader = field(repr=False)

    @property
    def scale(self) -> float:
        """Frame width over 1280, the width pixel distances are tuned at."""
        return self.width / 1280

    @property
    def rings_seen(self) -> bool:
        return any(click.evidence == "ring" for click in self.clicks)

    def read(self, picture: Picture | None) -> list[TextBox]:
        """The text lines in a kept picture (frame coordinates), read once."""
        if picture is None:
            return []
        return self.reader.read_picture(picture.png, picture.image, picture.box, picture.focus)

    def read_mark(self, picture: Picture, box: Box) -> str:
        """The one mark (an icon glyph such as "▲") inside `box` of a kept picture: by its shape, else by OCR."""
        crop = picture.part(box)
        if crop.size == 0:
            return ""
        return triangle_mark(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)) or self.reader.read_mark(picture.png, crop, box)

    def masked_length(self, picture: Picture | None) -> int:
        """Bullets shown in a kept picture of a field (a password typed), or 0."""
        if picture is None:
            return 0
        return masked_length(cv2.cvtColor(picture.image(), cv2.COLOR_BGR2GRAY))
