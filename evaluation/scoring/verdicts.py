"""The small pieces both rule sets share (videowa_scoring.py, VisualWebArena's / VideoWA's; agentoccam_scoring.py,
AgentOccam's), so neither imports the other. The `Verdict` every evaluator gives back is a record of its own
(foundation/records/verdict.py): records keep it and reports read it."""

from __future__ import annotations

from typing import Any, Callable

from evaluation.scoring.errors import ConfigError, JudgeReplyError, Unscorable
from evaluation.scoring.program_html import json_safe
from evaluation.scoring.site_helpers.rest import SiteHelperError
from evaluation.scoring.string_match import Check
from foundation.records.verdict import CONFIG_ERROR, ERROR, FAILED, PASSED, UNSCORABLE, Verdict

NO_EVAL_BLOCK = "the task has no eval block with eval_types"
# An eval type AgentOccam's rules do not score: the message of its verdict starts so, and its details keep the
# verdict it stands in for under REPLACED (so a rescore back under videowa's rules finds it).
OTHER_TYPE = "AgentOccam's evaluator has no eval type"
REPLACED = "replaced_verdict"


def _checks(checks: list[Check]) -> list[dict[str, Any]]:
    return [check.__dict__ for check in checks]


def from_checks(eval_type: str, checks: list[Check]) -> Verdict:
    """Passed when every check passed, the checks as its details."""
    status = PASSED if all(check.passed for check in checks) else FAILED
    return Verdict(eval_type, status, details=_checks(checks))


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
