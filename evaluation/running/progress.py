"""What the task in play is doing, for the run's progress line: its step and the model calls made so far.

A task on a slow server can take many minutes; without this the bar shows nothing until the task ends.
`TaskProgress` reports a short line whenever it changes (checked every `every_s` seconds, from a daemon
thread): in the run's own process the line goes to the bar's postfix, in a worker process onto the
results queue for the parent's bar.
"""

from __future__ import annotations

import threading
from typing import Callable

from model_access.client import CALLS


class TaskProgress:
    def __init__(self, report: Callable[[str], None], every_s: float = 1.0) -> None:
        self.report = report
        self.every_s = every_s
        self.max_steps = 0  # the episode's step limit, as its EpisodeOptions say (a policy may change it)
        self.task = ""
        self.step_number = 0
        self.waiting = ""  # what the task waits for before its first step, when it waits
        self._calls_at_start = 0
        self._last = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, task_key: str) -> None:
        self.task, self.step_number, self.waiting, self._calls_at_start = task_key, 0, "", CALLS.made
        self._stop.clear()
        self._tell()
        self._thread = threading.Thread(target=self._watch, daemon=True, name="task-progress")
        self._thread.start()

    def step(self, number: int, max_steps: int) -> None:
        """Step `number` of at most `max_steps` (the episode options': the one reader of `agent.max_steps`)."""
        self.step_number, self.max_steps, self.waiting = number, max_steps, ""
        self._tell()

    def note(self, waiting: str) -> None:
        """The task waits before it starts (`run.reddit_post_wait_s`): the line says so instead of "starting"."""
        self.waiting = waiting
        self._tell()

    def stop(self) -> None:
        self._stop.set()
        self._tell()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._thread = None

    def line(self) -> str:
        calls = CALLS.made - self._calls_at_start
        waiting = f", {CALLS.waiting} waiting on a server" if CALLS.waiting else ""
        step = f"step {self.step_number}/{self.max_steps}" if self.step_number else (self.waiting or "starting")
        return f"{self.task}: {step}, {calls} model call(s){waiting}"

    def _tell(self) -> None:
        text = self.line()
        if text != self._last:
            self._last = text
            self.report(text)

    def _watch(self) -> None:
        while not self._stop.wait(self.every_s):
            self._tell()
