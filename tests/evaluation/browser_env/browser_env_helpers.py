"""Helpers of the browser-environment tests: a task object and lookups in the observation text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from evaluation.browser_env.observation import Observation

VOTE_DELAY_S = 0.4  # the fixture server answers votes this late, like a busy site


@dataclass
class EpisodeTask:
    """The task attributes the environment reads, for tests that need no task config file."""

    start_url: str
    sites: list[str] = field(default_factory=list)
    intent: str = "test episode"
    require_login: bool = False
    require_reset: bool = False
    storage_state: str | None = None
    viewport_size: dict | None = None
    config: dict = field(default_factory=dict)
    task_id: int = 0
    source: str = "tests"

    @property
    def start_urls(self) -> list[str]:
        return self.start_url.split(" |AND| ")

    @property
    def key(self) -> str:
        return f"{self.source}:{self.task_id}"


def find_id(observation: Observation, role: str, name: str) -> str:
    """The id of the line `[id] role 'name'` in the observation text (fails the test when absent)."""
    pattern = re.compile(rf"\[(\d+)\] {re.escape(role)} {re.escape(repr(name))}(?: |$)", re.M)
    match = pattern.search(observation.text)
    assert match, f"no {role} {name!r} in the observation:\n{observation.text}"
    return match.group(1)


def has_line(observation: Observation, role: str, name: str) -> bool:
    return re.search(rf"\] {re.escape(role)} {re.escape(repr(name))}(?: |$)", observation.text, re.M) is not None
