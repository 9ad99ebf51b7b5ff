"""Progress a log file can read: one plain line per finished item off a terminal, tqdm's bar on one."""

from __future__ import annotations

import io

from foundation.progress_bar import TerminalProgress, progress_bar


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_off_a_terminal_each_finished_item_is_one_plain_line() -> None:
    log = io.StringIO()
    with progress_bar(5, desc="tasks", unit="task", initial=2, stream=log) as bar:
        bar.status("passed 1/2 scored")  # redrawn every second on a terminal: left out of a log
        bar.advance("forum:42 passed (3 step(s), 8.1 s)")
        bar.advance("shop:7 failed (1 step(s), 2.0 s)")
    assert not bar.live
    assert log.getvalue() == "[3/5] forum:42 passed (3 step(s), 8.1 s)\n[4/5] shop:7 failed (1 step(s), 2.0 s)\n"


def test_no_progress_prints_no_line() -> None:
    log = io.StringIO()
    with progress_bar(2, desc="tasks", unit="task", enabled=False, stream=log) as bar:
        bar.advance("forum:42 passed")
    assert log.getvalue() == ""


def test_on_a_terminal_it_is_the_bar_redrawn_in_place() -> None:
    terminal = Terminal()
    with progress_bar(2, desc="tasks", unit="task", stream=terminal) as bar:
        bar.status("passed 0/0 scored")
        bar.advance("forum:42 passed")
    assert isinstance(bar, TerminalProgress) and bar.live
    drawn = terminal.getvalue()
    assert "\r" in drawn and "tasks" in drawn and "1/2" in drawn
    assert "forum:42" not in drawn  # the bar counts the item; the line is for logs
