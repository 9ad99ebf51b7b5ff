"""What every evaluator gives back: a `Verdict` per evaluator and the status it combines to, and the small pieces
both rule sets share (evaluate.py, videowa's; agentoccam_scoring.py, AgentOccam's), so neither imports the other."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from evaluation.scoring.errors import ConfigError, JudgeReplyError, Unscorable
from evaluation.scoring.program_html import json_safe
from evaluation.scoring.site_helpers.rest import SiteHelperError
from evaluation.scoring.string_match import Check

EVAL_TYPES = ("string_match", "url_match", "program_html", "page_image_query")


NO_EVAL_BLOCK = "the task has no eval block with eval_types"


PASSED, FAILED, CONFIG_ERROR, UNSCORABLE, ERROR = "passed", "failed", "config_error", "unscorable", "error"


NOT_SCORED = (CONFIG_ERROR, ERROR, UNSCORABLE)  # in the order a task's status picks them


@dataclass
class Verdict:
    eval_type: str
    status: str
    message: str = ""
    details: list[dict[str, Any]] = field(default_factory=list)  # per check / per entry
    # The reference quirks that decided this verdict (evaluation.reference_quirks), and its status without them.
    quirks: list[str] = field(default_factory=list)
    without_quirks: str = ""

    @property
    def score(self) -> float | None:
        return {PASSED: 1.0, FAILED: 0.0}.get(self.status)

    def to_dict(self) -> dict[str, Any]:
        data = {"eval_type": self.eval_type, "status": self.status, "message": self.message, "details": self.details}
        if self.quirks:
            data.update(quirks=self.quirks, without_quirks=self.without_quirks)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Verdict:
        return cls(
            data["eval_type"], data["status"], data.get("message", ""), list(data.get("details", [])),
            list(data.get("quirks", [])), data.get("without_quirks", ""),
        )  # fmt: skip


def combined_status(verdicts: list[Verdict]) -> str:
    """passed when all passed; failed when all scored and one failed; else the first of NOT_SCORED present."""
    statuses = {verdict.status for verdict in verdicts}
    for status in NOT_SCORED:
        if status in statuses:
            return status
    if not verdicts:
        return CONFIG_ERROR
    return PASSED if statuses == {PASSED} else FAILED


def _checks(checks: list[Check]) -> list[dict[str, Any]]:
    return [check.__dict__ for check in checks]


def _run(eval_type: str, work: Callable[[], Verdict]) -> Verdict:
    """One evaluator, with every way it can fail turned into a verdict."""
    try:
        return work()
    except ConfigError as exc:
        return Verdict(eval_type, CONFIG_ERROR, str(exc))
    except Unscorable as exc:
        return Verdict(eval_type, UNSCORABLE, str(exc))
    except (SiteHelperError, JudgeReplyError) as exc:
        return Verdict(eval_type, ERROR, str(exc))
    except Exception as exc:  # a model call, the browser or a site failed: the task was not scored
        first_line = (str(exc).strip().splitlines() or [""])[0]
        return Verdict(eval_type, ERROR, f"{type(exc).__name__}: {first_line}")


def _eval_types(block: Any) -> list[Any]:
    """The eval types of a task's eval block; empty when it has none (a config error)."""
    if isinstance(block, dict) and isinstance(block.get("eval_types"), list):
        return block["eval_types"]
    return []


def _entry_evidence(entry: dict, visited_url: str, content: Any) -> dict[str, Any]:
    return {
        "url": entry["url"],
        "locator": entry["locator"],
        "prep_actions": entry.get("prep_actions", []),
        "visited_url": visited_url,
        "content": json_safe(content),
    }


def _reads_same_pages(saved: Any, entries: list[dict]) -> bool:
    """Whether the saved contents were read the way these entries read pages."""

    def how(entry: dict) -> tuple:
        return entry.get("url"), entry.get("locator"), entry.get("prep_actions", [])

    if not isinstance(saved, list) or len(saved) != len(entries):
        return False
    return all(how(item) == how(entry) for item, entry in zip(saved, entries))
