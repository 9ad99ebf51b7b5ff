"""The recording styles by name, and the recorder each is made by: one place for the benchmark and the demo."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from foundation.errors import UserError

STYLES = ("heldout", "untouched", "sealed")
TUNED_ON = ("heldout", "untouched")  # the labeler's rules were made while scoring on these
NOT_TUNED_ON = ("sealed",)  # scored once, after the labeler's last change


def recorder(style: str) -> Callable:
    """`record_all(settings, only=None, report=print)` of `style`: its recordings, made first when missing."""
    if style not in STYLES:
        raise UserError(f"unknown labeler recording style {style!r}: choose from {', '.join(STYLES)}")
    return import_module(f"tasks.labeler_recordings.{style}.recorder").record_all
