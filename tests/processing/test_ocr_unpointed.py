"""The pointer-free view of a frame, and reading what was typed, on small synthetic screens (no video)."""

from __future__ import annotations

import cv2
import numpy as np

from processing.ocr_labeler.frames import Frame, FrameBuffer
from processing.ocr_labeler.ocr import TextBox
from processing.ocr_labeler.pointer import PointerHit, sprite_box, sprite_mask
from processing.ocr_labeler.typed_text import typed_from_lines
from processing.ocr_labeler.unpointed import pointer_free

SIZE = (120, 200)  # height, width
TIP = (100.0, 50.0)


def _frame(index: int, bgr: np.ndarray) -> Frame:
    return Frame(index, index / 8, cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV_I420))


def _with_pointer(bgr: np.ndarray, hit: PointerHit) -> np.ndarray:
    out = bgr.copy()
    mask = sprite_mask(hit, bgr.shape[:2])
    out[mask] = 0
    return out


def _view(older_page: np.ndarray, page: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pointer-free view of `page` with the pointer at TIP, the frame before showing `older_page` with the
    pointer far away; and the pixels of the pointer's patch it leaves in view."""
    here, away = PointerHit(*TIP, 1.0, 0), PointerHit(20.0, 20.0, 1.0, 0)
    buffer = FrameBuffer(3.0, 8)
    frames = [_frame(0, _with_pointer(older_page, away)), _frame(1, _with_pointer(page, here))]
    for frame in frames:
        buffer.push(frame)
    hits = {0: away, 1: here}
    visible = ~sprite_mask(here, SIZE)
    x0, y0, x1, y1 = sprite_box(here, margin=2)
    inside = np.zeros(SIZE, bool)
    inside[y0:y1, x0:x1] = True
    return pointer_free(frames[1], here, buffer, hits.get), visible & inside


def test_the_pointer_is_lifted_off_with_the_page_from_a_frame_before():
    page = np.full((*SIZE, 3), 240, np.uint8)
    page[40:70, 60:98] = 90  # a word the pointer came to rest beside
    image, _ = _view(page, page)
    assert np.abs(image.astype(int) - page).max() <= 3  # the pointer's patch came from the older frame


def test_a_page_that_changed_inside_the_patch_is_not_pasted_back():
    """Before the click the field showed a placeholder whose last stroke lies where the pointer rests; after
    typing it is gone. Pasting the old patch would leave that stroke beside the typed word (read as a letter)."""
    page = np.full((*SIZE, 3), 240, np.uint8)
    page[45:65, 60:88] = 60  # the typed word, ending left of the pointer
    older = np.full((*SIZE, 3), 240, np.uint8)
    x0, y0, x1, y1 = sprite_box(PointerHit(*TIP, 1.0, 0), margin=2)
    older[y0 + 2 : y0 + 18, x0 : x0 + 3] = 120  # the placeholder's last stroke, left of the tip
    older[y1 - 3 : y1, x0:x1] = 40  # the field's edge before its focus ring was drawn
    image, visible = _view(older, page)
    assert np.abs(image.astype(int) - page)[visible].max() <= 3  # what was in view stays as it is


def test_a_typed_word_keeps_its_last_l_and_loses_a_caret_read_as_a_bar():
    before = [TextBox("Search", (10, 10, 60, 30), 0.99)]
    for word in ("bagel", "cool", "HTML"):
        assert typed_from_lines(before, [TextBox(word, (10, 10, 60, 30), 0.95)]) == word
    assert typed_from_lines(before, [TextBox("bagel|", (10, 10, 64, 30), 0.95)]) == "bagel"
