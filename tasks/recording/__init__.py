"""The one recorder engine: what the sandbox tutorials and the labeler recordings are made with.

A recording drives a real Chromium page and films it on a virtual clock (`film.Film`: the
take's frames, pointer, click effects), encodes the frames with ffmpeg (`encoder`), and
puts its files in place under a fingerprint of what made it (`files`). What differs
between styles is a small record (`style.VideoStyle`: size, rates, codec, pointer look,
click effect; the labeler styles add theirs in `tasks/labeler_recordings/recorder.py`)
and each style's own choreography of its script steps.

Styles: the sandbox tutorials (`tasks/sandbox/tutorials/recorder.py`) and the labeler
recordings `heldout`, `untouched`, `sealed` (`tasks/labeler_recordings/<style>/recorder.py`).
"""
