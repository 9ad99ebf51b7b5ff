"""The evaluator's expected value beside what it read, normalised, for the top of a task page (WebArena-Verified
records both for every task): the answer as string_match compares it, the URL url_match read, the text each
program_html entry found."""

from __future__ import annotations

from typing import Any

from foundation.records.task_record import TaskRecord

_SHOWN = 300  # characters of what was read: enough to see why, short enough for the top of the page


def _short(text: str) -> str:
    text = " ".join(str(text).split())  # whitespace as the matchers see it: one space
    return text if len(text) <= _SHOWN else text[:_SHOWN] + f"… ({len(text)} characters)"


def _expected(checks: list[Any]) -> str:
    return "; ".join(f"{c.get('key', '')} {c['reference']!r}".strip() for c in checks
                     if isinstance(c, dict) and "reference" in c)  # fmt: skip


def expected_and_read(record: TaskRecord) -> list[dict[str, str]]:
    """One row per verdict (per program_html entry): evaluator, expected, read (normalised), status."""
    from evaluation.scoring.text import clean

    rows = []
    verdicts = list(record.verdicts or []) + ([record.intermediate] if record.intermediate else [])
    for verdict in verdicts:
        kind, status, details = verdict.eval_type, verdict.status, verdict.details or []
        if kind == "program_html":
            for entry in details:
                if isinstance(entry, dict):
                    rows.append({"evaluator": f"{kind} entry {int(entry.get('index', 0)) + 1}",
                                 "expected": _expected(entry.get("checks") or []),
                                 "read": _short(entry.get("content") if isinstance(entry.get("content"), str)
                                                else repr(entry.get("content"))),
                                 "status": "passed" if entry.get("passed") else "failed"})  # fmt: skip
            continue
        if kind in ("string_match", "intermediate"):
            answer = record.answer if kind == "string_match" else record.intermediate_answer
            read = "(no answer)" if answer is None else _short(clean(str(answer)))
        elif kind == "url_match":
            read = _short(record.final_url or "")
        else:
            read = ""
        rows.append({"evaluator": kind, "expected": _expected(details), "read": read, "status": status})
    return rows
