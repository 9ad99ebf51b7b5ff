"""The agent's short memory: what it thought and did at its last few steps, and how each went."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agent.base.templates import render

# Long reasoning is cut in the history: the point is the thread of the episode, not every word.
REASONING_CHARS = 400


@dataclass
class HistoryEntry:
    number: int
    reasoning: str
    action: str
    result: str | None = None  # filled once the environment has carried the action out


class History:
    def __init__(self) -> None:
        self.entries: list[HistoryEntry] = []

    def add(self, reasoning: str, action: str, result: str | None = None) -> None:
        self.entries.append(HistoryEntry(len(self.entries) + 1, reasoning, action, result))

    def learn_outcomes(self, env: Any) -> None:
        """Read how the last steps went from the environment's episode record (when the policy has one)."""
        steps = getattr(getattr(env, "record", None), "steps", None) or []
        for entry in self.entries:
            if entry.result is None and entry.number <= len(steps):
                step = steps[entry.number - 1]
                entry.result = "done" if step.ok else f"failed: {step.error}"

    def text(self, length: int) -> str:
        """The last `length` entries, oldest first."""
        recent = self.entries[-length:] if length > 0 else []
        if not recent:
            return render("history_empty")
        return "\n".join(
            render(
                "history_entry",
                number=entry.number,
                reasoning=_shorten(entry.reasoning) or "(no reasoning given)",
                action=entry.action,
                result=entry.result or "not known",
            )
            for entry in recent
        )


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= REASONING_CHARS else text[: REASONING_CHARS - 3] + "..."
