"""Scoring quirks of the reference runner, applied only when `evaluation.reference_quirks` names them.

Our evaluators follow the stated rules (../shared/EVALUATORS.md). The reference runner
(VideoWA, ljang0/videowebarena at d79b968) departs from them in two places that decide
whole tasks; a run meant to sit beside its published table can turn them on
(`--harness videowa` does):

- `reddit_comment_time` (evaluation_harness/helper_functions.py:464 and :511): the
  helpers for a user's newest comment and the comment it answered keep the comment
  whose time is later than an aware start value (`datetime.min` in UTC). The reference
  pins playwright 1.37.0, which hands a JavaScript `Date` back as a naive `datetime`, so
  the first comparison (the first comment by that user) raises TypeError; the helper
  catches it and gives an empty comment, and the entry is checked against "" (the
  `..._obj_...` helpers: {}). With no comment by the user it gives the same. So every
  entry reading one of these helpers reads empty there, whatever the agent did: the 18
  VideoWA reddit tasks that use them can never pass.
- `empty_program_html` (evaluation_harness/evaluators.py:363-365, returned at :489): a
  `program_html` with an empty entry list multiplies no checks, a score of 1.0 for any
  episode (VideoWA's test_shopping:27). Here that list is a config error.

A verdict a quirk decided carries the quirk's name and the status it has without it
(`Verdict.quirks`, `Verdict.without_quirks`), and the report lists those tasks.
"""

from __future__ import annotations

from typing import Any, Iterable

from foundation.errors import UserError
from foundation.records.task_record import TaskRecord

REDDIT_COMMENT_TIME = "reddit_comment_time"
EMPTY_PROGRAM_HTML = "empty_program_html"
QUIRKS = {
    REDDIT_COMMENT_TIME: "reddit comment helpers read empty (naive vs aware time, helper_functions.py:464/:511)",
    EMPTY_PROGRAM_HTML: "program_html without entries passes (evaluators.py:363-365)",
}

# The comment helpers whose time comparison fails there, and what they give then.
COMMENT_TIME_HELPERS: dict[str, Any] = {
    "reddit_get_latest_comment_obj_by_username": {},
    "reddit_get_latest_comment_content_by_username": "",
    "reddit_get_parent_comment_obj_of_latest_comment_by_username": {},
    "reddit_get_parent_comment_username_of_latest_comment_by_username": "",
}


def quirk_set(names: Iterable[str] | None) -> frozenset[str]:
    """The quirks named (settings.evaluation.reference_quirks); UserError for an unknown name."""
    chosen = frozenset(names or ())
    unknown = sorted(chosen - set(QUIRKS))
    if unknown:
        raise UserError(
            f"evaluation.reference_quirks names {', '.join(map(repr, unknown))}; known: {', '.join(sorted(QUIRKS))}"
        )
    return chosen


def comment_time_content(locator: str, quirks: frozenset[str]) -> tuple[bool, Any]:
    """(True, what the reference's helper gives) when the quirk is on and `locator` calls a comment helper."""
    if REDDIT_COMMENT_TIME not in quirks or not locator.startswith("func:"):
        return False, None
    name = locator[len("func:") :].split("(", 1)[0].strip()
    if name not in COMMENT_TIME_HELPERS:
        return False, None
    return True, COMMENT_TIME_HELPERS[name]


def decided_tasks(records: list[TaskRecord]) -> dict[str, list[str]]:
    """Quirk name -> the tasks it decided ("key", or "key (would be passed)" when the quirk changed the status)."""
    found: dict[str, list[str]] = {}
    for record in records:
        for verdict in record.verdicts or []:
            for name in verdict.quirks or []:
                without = verdict.without_quirks
                flip = f" ({verdict.eval_type} would be {without})" if without != verdict.status else ""
                found.setdefault(name, []).append(f"{record.task_key}{flip}")
    return found


def quirk_lines(decided: dict[str, list[str]]) -> str:
    """One line per quirk that decided any task; "" when none did."""
    return "\n".join(
        f"tasks decided by the reference quirk {name} ({len(keys)}): {', '.join(keys)}"
        for name, keys in sorted(decided.items())
    )


__all__ = [
    "COMMENT_TIME_HELPERS",
    "EMPTY_PROGRAM_HTML",
    "QUIRKS",
    "REDDIT_COMMENT_TIME",
    "comment_time_content",
    "decided_tasks",
    "quirk_lines",
    "quirk_set",
]
