"""The drawn pointers: a headless browser draws none, so every frame gets one pasted at the pointer's tip.

A look is a small frozen record with `paste(frame, x, y, shape)`. `Arrow` is drawn once
with supersampling and pasted by alpha (the labeler styles' arrows and hands); `PlainArrow`
is a hard-edged arrow pasted by its mask (the sandbox tutorials'). Colours are in the
channel order of the frames they are pasted on.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

import cv2
import numpy as np

Colour = tuple[int, int, int]
_SS = 4  # supersampling for smooth edges


class PointerLook(Protocol):
    def paste(self, frame: np.ndarray, x: float, y: float, shape: str = "arrow") -> None:
        """Draw the pointer with its hotspot at (x, y), in place; `shape` as the page's CSS cursor asks."""


@dataclass(frozen=True)
class Arrow:
    """A polygon (arrow or hand) drawn with supersampling and pasted by alpha, the `tip` point at the pointer."""

    outline: tuple[tuple[float, float], ...]  # in units of `height`
    height: int  # pixels
    fill: Colour
    rim: Colour
    rim_px: int  # the rim's width in supersampled pixels
    rim_under: bool = False  # the rim drawn before the fill, so only its outer half shows
    shadow: tuple[int, int] | None = None  # (offset down and right in pixels, opacity 0-255)
    pad: int = 4  # canvas pixels around the outline
    margin: int = 4  # canvas size: height + 2 * pad + margin, square
    tip: int = 0  # the outline point that is the hotspot

    def paste(self, frame: np.ndarray, x: float, y: float, shape: str = "arrow") -> None:
        colour, weight, (hx, hy) = _sprite(self)
        blend(frame, colour, weight, int(round(x)) - hx, int(round(y)) - hy)


@lru_cache(maxsize=64)
def _sprite(look: Arrow) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """(colour, alpha 0..1 with a channel axis, hotspot)."""
    h, pad = look.height, look.pad
    size = h + 2 * pad + look.margin
    canvas = np.zeros((size * _SS, size * _SS, 3), np.uint8)
    alpha = np.zeros((size * _SS, size * _SS), np.uint8)
    poly = np.array([((x * h + pad) * _SS, (y * h + pad) * _SS) for x, y in look.outline], np.int32)
    if look.shadow:
        offset, opacity = look.shadow
        cv2.fillPoly(alpha, [poly + offset * _SS], opacity)

    def rim() -> None:
        cv2.polylines(canvas, [poly], True, look.rim, look.rim_px)
        cv2.polylines(alpha, [poly], True, 255, look.rim_px)

    if look.rim_under:
        rim()
    cv2.fillPoly(canvas, [poly], look.fill)
    cv2.fillPoly(alpha, [poly], 255)
    if not look.rim_under:
        rim()
    colour = cv2.resize(canvas, (size, size), interpolation=cv2.INTER_AREA)
    weight = cv2.resize(alpha, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32)[..., None] / 255
    tip_x, tip_y = look.outline[look.tip]
    return colour, weight, (int(round(tip_x * h + pad)), int(round(tip_y * h + pad)))


def blend(frame: np.ndarray, colour: np.ndarray, weight: np.ndarray, left: int, top: int) -> None:
    """Paste `colour` by `weight` (alpha 0..1, a channel axis) with its corner at (left, top), clipped, in place."""
    h, w = weight.shape[:2]
    x0, y0, x1, y1 = max(0, left), max(0, top), min(frame.shape[1], left + w), min(frame.shape[0], top + h)
    if x0 >= x1 or y0 >= y1:
        return
    a = weight[y0 - top : y1 - top, x0 - left : x1 - left]
    c = colour[y0 - top : y1 - top, x0 - left : x1 - left].astype(np.float32)
    region = frame[y0:y1, x0:x1].astype(np.float32)
    frame[y0:y1, x0:x1] = (region * (1 - a) + c * a).astype(np.uint8)


@dataclass(frozen=True)
class PlainArrow:
    """An arrow in whole pixels, the tip at (0, 0): filled, a one-pixel outline, pasted by its mask."""

    outline: tuple[tuple[int, int], ...]
    fill: Colour = (255, 255, 255)
    rim: Colour = (0, 0, 0)

    def sprite(self) -> tuple[np.ndarray, np.ndarray]:
        """(image, boolean mask); the tip is pixel (0, 0)."""
        return _plain_sprite(self)

    def paste(self, frame: np.ndarray, x: float, y: float, shape: str = "arrow") -> None:
        sprite, mask = _plain_sprite(self)
        x, y = int(round(x)), int(round(y))
        height, width = frame.shape[:2]
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + sprite.shape[1], width), min(y + sprite.shape[0], height)
        if x0 >= x1 or y0 >= y1:
            return
        region = frame[y0:y1, x0:x1]
        part = mask[y0 - y : y1 - y, x0 - x : x1 - x]
        region[part] = sprite[y0 - y : y1 - y, x0 - x : x1 - x][part]


@lru_cache(maxsize=8)
def _plain_sprite(look: PlainArrow) -> tuple[np.ndarray, np.ndarray]:
    points = np.array(look.outline, dtype=np.int32)
    width, height = int(points[:, 0].max()) + 1, int(points[:, 1].max()) + 1
    image = np.zeros((height, width, 3), np.uint8)
    mask = np.zeros((height, width), np.uint8)
    cv2.fillPoly(mask, [points], 255)
    cv2.polylines(mask, [points], True, 255, 1)
    cv2.fillPoly(image, [points], look.fill)
    cv2.polylines(image, [points], True, look.rim, 1)
    return image, mask > 0
