"""Fixtures for the evaluator tests."""

from __future__ import annotations

import pytest


class ScriptedAsk:
    """Stands in for the judge model's client: plays back scripted replies and keeps the prompts sent."""

    def __init__(self, replies: list[str]) -> None:
        self.replies = list(replies)
        self.prompts: list[tuple[str, str]] = []

    def __call__(self, system: str, user: str) -> str:
        self.prompts.append((system, user))
        if not self.replies:
            raise AssertionError(f"judge asked more often than scripted; last prompt: {user!r}")
        return self.replies.pop(0)


@pytest.fixture
def scripted_ask():
    """`scripted_ask("correct", ...)` -> a callable usable as `ModelJudge(ask=...)`."""
    return lambda *replies: ScriptedAsk(list(replies))
