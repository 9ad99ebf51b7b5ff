"""Progress a terminal redraws and a log file can read.

    bar = progress_bar(total=45, desc="tasks", unit="task")
    bar.status("passed 3/4 scored")          # the bar's postfix, redrawn in place
    bar.advance("forum:42 passed (3 step(s), 8.1 s)")
    bar.close()

On a terminal this is tqdm's bar. Anywhere else (`> log.txt 2>&1`, pytest, CI) tqdm would
append every redraw after a carriage return, so each finished item is one plain line
instead, `[12/45] forum:42 passed (3 step(s), 8.1 s)`, and the ever-changing status is left out.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO


def is_terminal(stream: TextIO) -> bool:
    """Whether `stream` is a terminal (False for files, pipes, pytest's captures and closed streams)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class Progress:
    """Finished items as plain lines on `stream`; `enabled=False` (--no-progress) prints none of them."""

    live = False  # whether `status` shows anywhere: only a terminal bar redraws in place

    def __init__(self, total: int, initial: int, stream: TextIO, enabled: bool = True) -> None:
        self.total, self.done = total, initial
        self.stream, self.enabled = stream, enabled

    def advance(self, line: str = "") -> None:
        """One item finished; `line` says how it went (a log only: the bar counts it)."""
        self.done += 1
        if self.enabled and line:
            print(f"[{self.done}/{self.total}] {line}", file=self.stream, flush=True)

    def status(self, text: str) -> None:
        """What is going on now: a log leaves it out, as it would be a line every second."""

    def write(self, text: str) -> None:
        """A message of its own, on stdout (above the bar on a terminal)."""
        print(text, flush=True)

    def close(self) -> None:
        pass

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class TerminalProgress(Progress):
    """tqdm's bar, redrawn in place."""

    live = True

    def __init__(self, total: int, initial: int, stream: TextIO, **tqdm_args: Any) -> None:
        from tqdm import tqdm

        super().__init__(total, initial, stream)
        self.bar = tqdm(total=total, initial=initial, file=stream, **tqdm_args)

    def advance(self, line: str = "") -> None:
        self.done += 1
        self.bar.update(1)

    def status(self, text: str) -> None:
        self.bar.set_postfix_str(text)

    def write(self, text: str) -> None:
        self.bar.write(text)

    def close(self) -> None:
        self.bar.close()


def progress_bar(
    total: int, desc: str, unit: str, *, initial: int = 0, enabled: bool = True, stream: TextIO | None = None
) -> Progress:
    """A bar on `stream` (stderr) when it is a terminal, else one line per finished item."""
    stream = stream or sys.stderr
    if enabled and is_terminal(stream):
        return TerminalProgress(total, initial, stream, desc=desc, unit=unit)
    return Progress(total, initial, stream, enabled)
