"""Click highlights: the ring many screen recorders draw around the pointer when it clicks.

A highlight is a thin circle centred on the pointer tip. It is recognised by its shape,
not by one colour (recorders use yellow, red, blue...): on some circle around the tip,
most pixels share one colour that differs from the pixels a few pixels inside and
outside the circle. A click is the frame where such a ring is present and was not in
the frame before (with the pointer at the same spot), so the same ring growing in later
frames is not counted again, and a round thing on the page that the pointer merely
rests on (a radio button) is there in both frames and is not counted at all.

A ring found at one radius is usually found at its neighbours too (it is a few pixels
thick); all are returned.
"""

from __future__ import annotations

import numpy as np

from processing.ocr_labeler.frames import Frame

MIN_RADIUS, MAX_RADIUS = 5, 32  # pixels: highlights start small and grow while they fade
_ANGLES = np.linspace(0, 2 * np.pi, 48, endpoint=False)
_GAP = 4  # pixels between the circle and the samples inside and outside it
_STEP = 45  # summed |dY| + |dU| + |dV| that tells two colours apart (compression noise stays well below)
_SHARE = 0.55  # share of the circle's visible samples that must fit a ring
_SAME_RING = 2  # pixels: rings this close in radius in two frames are the same ring


def _yuv_at(frame: Frame, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    u, v = frame.chroma()
    hx, hy = xs // 2, ys // 2
    return np.stack([frame.luma[ys, xs], u[hy, hx], v[hy, hx]], axis=-1).astype(np.int16)


def ring_radii(frame: Frame, tip: tuple[float, float], pointer: np.ndarray | None) -> list[int]:
    """Radii of the rings around `tip` in `frame` (a highlight, or a round thing on the page).

    `pointer` is a boolean frame-sized mask of pixels to leave out (where the pointer is drawn).
    """
    radii = np.arange(MIN_RADIUS, MAX_RADIUS + 1)
    tx, ty = tip
    # Samples [radius, angle] on the circle (two radii wide: the ring is a few pixels thick), inside, outside.
    cos, sin = np.cos(_ANGLES)[None, :], np.sin(_ANGLES)[None, :]

    def points(offset: float) -> tuple[np.ndarray, np.ndarray]:
        r = (radii[:, None] + offset).astype(float)
        return np.round(tx + r * cos).astype(int), np.round(ty + r * sin).astype(int)

    sets = [points(0), points(1), points(-_GAP), points(1 + _GAP)]
    height, width = frame.height, frame.width
    visible = np.ones((len(radii), len(_ANGLES)), bool)
    for xs, ys in sets:
        visible &= (xs >= 0) & (ys >= 0) & (xs < width) & (ys < height)
    colours = []
    for xs, ys in sets:
        xs, ys = np.clip(xs, 0, width - 1), np.clip(ys, 0, height - 1)
        if pointer is not None:
            visible &= ~pointer[ys, xs]
        colours.append(_yuv_at(frame, xs, ys))
    on_a, on_b, inside, outside = colours
    # The ring's pixel at each angle: whichever of the two radii stands out more from its surroundings.
    contrast_a = np.abs(on_a - inside).sum(-1) + np.abs(on_a - outside).sum(-1)
    contrast_b = np.abs(on_b - inside).sum(-1) + np.abs(on_b - outside).sum(-1)
    on = np.where((contrast_a >= contrast_b)[..., None], on_a, on_b)
    distinct = (np.abs(on - inside).sum(-1) >= _STEP) & (np.abs(on - outside).sum(-1) >= _STEP)
    found = []
    for i in range(len(radii)):
        seen = visible[i]
        if seen.sum() < len(_ANGLES) // 2:
            continue
        ring = on[i][seen]
        typical = np.median(ring, axis=0)
        alike = np.abs(ring - typical).sum(-1) < _STEP
        if (distinct[i][seen] & alike).mean() >= _SHARE:
            found.append(int(radii[i]))
    return found


def ring_appeared(
    current: Frame, previous: Frame, tip: tuple[float, float], pointer: np.ndarray | None
) -> int | None:
    """Radius of a ring around `tip` in `current` that was not there in `previous`, or None.

    A ring at a radius where the previous frame had none is new, even when another ring
    sits there all along (the pointer clicking a radio button, itself a small circle);
    but when a ring of the previous frame is gone, the new one is that ring grown.
    """
    before = ring_radii(previous, tip, pointer)
    now = ring_radii(current, tip, pointer)
    if any(all(abs(old - radius) > _SAME_RING for radius in now) for old in before):
        return None  # a highlight spreading out, already counted
    for radius in now:
        if all(abs(radius - old) > _SAME_RING for old in before):
            return radius
    return None
