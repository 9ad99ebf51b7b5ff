"""One evaluator's verdict on a task, and the status a task's verdicts combine to.

Scoring makes verdicts (evaluation/scoring/), a task's record keeps them (`TaskRecord.verdicts`,
`TaskRecord.intermediate`), and the reports read them; so they live here, below all three.

A verdict's status is `passed` or `failed` when the evaluator applied its rule, `config_error`
when the task's eval block cannot be applied as written, `unscorable` when it needs a model that
is not configured, and `error` when something outside the agent's work failed. Only passed and
failed are scores.

`to_dict()` / `from_dict()` round-trip through a record.json byte for byte: a verdict read from disk
remembers which keys it had and in what order (early config-error verdicts have no message nor
details) and keeps keys this version does not know.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PASSED, FAILED, CONFIG_ERROR, UNSCORABLE, ERROR = "passed", "failed", "config_error", "unscorable", "error"
NOT_SCORED = (CONFIG_ERROR, ERROR, UNSCORABLE)  # in the order a task's status picks them

_KNOWN = ("eval_type", "status", "message", "details", "quirks", "without_quirks")


@dataclass
class Verdict:
    eval_type: str
    status: str
    message: str = ""
    details: list[dict[str, Any]] = field(default_factory=list)  # per check / per entry, as each evaluator gives them
    # The reference quirks that decided this verdict (evaluation.reference_quirks), and its status without them.
    quirks: list[str] = field(default_factory=list)
    without_quirks: str = ""
    # Keys this version does not know, as read; and the keys on disk in their order (None: a verdict made now).
    extra: dict[str, Any] = field(default_factory=dict, repr=False)
    key_order: tuple[str, ...] | None = field(default=None, repr=False, compare=False)

    @property
    def score(self) -> float | None:
        return {PASSED: 1.0, FAILED: 0.0}.get(self.status)

    def _fresh_dict(self) -> dict[str, Any]:
        """The keys a verdict made now is written with."""
        data = {"eval_type": self.eval_type, "status": self.status, "message": self.message, "details": self.details}
        if self.quirks:
            data.update(quirks=self.quirks, without_quirks=self.without_quirks)
        return data

    def to_dict(self) -> dict[str, Any]:
        fresh = self._fresh_dict()
        if self.key_order is None:
            return {**fresh, **self.extra}
        # As read: its keys in their order, then any a reader filled in since (a verdict is rarely changed).
        data = {key: getattr(self, key) if key in _KNOWN else self.extra.get(key) for key in self.key_order}
        data.update((key, value) for key, value in fresh.items() if key not in data and value)
        data.update((key, value) for key, value in self.extra.items() if key not in data)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Verdict:
        """The verdict as written; a key it lacks reads as its default and stays off the disk again."""
        verdict = cls(
            data.get("eval_type", ""), data.get("status", ""), data.get("message", ""), data.get("details", []),
            data.get("quirks", []), data.get("without_quirks", ""),
            {key: value for key, value in data.items() if key not in _KNOWN},
        )  # fmt: skip
        if list(data) != list(verdict._fresh_dict()):
            verdict.key_order = tuple(data)
        return verdict


def combined_status(verdicts: list[Verdict]) -> str:
    """passed when all passed; failed when all scored and one failed; else the first of NOT_SCORED present."""
    statuses = {verdict.status for verdict in verdicts}
    for status in NOT_SCORED:
        if status in statuses:
            return status
    if not verdicts:
        return CONFIG_ERROR
    return PASSED if statuses == {PASSED} else FAILED


__all__ = ["CONFIG_ERROR", "ERROR", "FAILED", "NOT_SCORED", "PASSED", "UNSCORABLE", "Verdict", "combined_status"]
