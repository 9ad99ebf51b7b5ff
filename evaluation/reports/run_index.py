"""A run's index.html: it opens with the run's result and what makes the run this run (policy, the identity's
settings, date, commit, command) and links to every report that paired it with others; then the task list in
natural order (shop:2 before shop:11), with only the columns the run has values for, and a key to "lost at".

A comparison report notes itself in each run it covers (reports.json, evaluation/reports/comparison_page.py) and
draws that run's index again, so the link is there whichever was written first.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import Any

from evaluation.reports.page_parts import css, environment
from evaluation.reports.stage_key import stage_key
from evaluation.reports.summary_table import format_table
from evaluation.reports.template_figures import template_of, template_rows
from evaluation.running.run_records import INDEX_FILE, RUN_FILE, SUMMARY_FILE, natural_key
from evaluation.running.task_record import iter_records
from foundation.json_files import read_json, write_json
from foundation.records.task_record import TaskRecord

REPORTS_FILE = "reports.json"  # the comparison reports that cover this run: [{"index": path, "runs": [labels]}]
_HEALTH = (("unparseable_steps", "unreadable"), ("truncated_replies", "cut"), ("cut_streams", "streams cut"),
           ("unreadable_selections", "selection unreadable"), ("timeouts", "timed out"),
           ("context_overflows", "too long"))  # fmt: skip


def _flat(value: Any, prefix: str = "") -> list[tuple[str, str]]:
    """Nested settings as (dotted name, value) pairs."""
    if isinstance(value, dict):
        return [pair for key, item in value.items() for pair in _flat(item, f"{prefix}{key}.")]
    return [(prefix.rstrip("."), "-" if value is None else str(value))]


def identity_settings(manifest: dict[str, Any]) -> list[tuple[str, str]]:
    """run.json's identity, flattened, policy first: the settings that make the run this run."""
    identity = manifest.get("identity") or {}
    return [(name, value) for name, value in _flat(identity) if name != "policy"]


def _result(summary: dict[str, Any], confidence: float = 0.95) -> str:
    from evaluation.reports.paired_stats import proportion_interval

    row = next(row for row in summary["rows"] if row["group"] == "all")
    if not row["scored"]:
        return f"no task scored of {row['tasks']}"
    interval = proportion_interval(row["passed"], row["scored"], confidence)
    spread = f", {confidence:.0%} interval [{interval.low:.1%}, {interval.high:.1%}]" if interval else ""
    unscored = row["tasks"] - row["scored"]
    return (f"{row['success_rate']:.1%} passed ({row['passed']}/{row['scored']} scored{spread})"
            + (f"; {unscored} of {row['tasks']} tasks not scored" if unscored else ""))  # fmt: skip


def note_paired_report(run_dir: Path, report_index: Path, labels: list[str]) -> None:
    """Remember in the run's folder that `report_index` covers it (once per report folder)."""
    path = Path(run_dir) / REPORTS_FILE
    known = [entry for entry in read_json(path) or [] if isinstance(entry, dict)]
    where = str(Path(report_index).resolve())
    known = [entry for entry in known if entry.get("index") != where] + [{"index": where, "runs": labels}]
    write_json(path, known)


def _paired_reports(run_dir: Path) -> list[dict[str, str]]:
    from evaluation.reports.task_story import page_link

    found = []
    for entry in read_json(Path(run_dir) / REPORTS_FILE) or []:
        index = Path(str(entry.get("index", "")))
        if isinstance(entry, dict) and index.is_file():
            found.append({"href": page_link(index, run_dir), "runs": " vs ".join(entry.get("runs") or [])})
    return found


def headline(run_dir: Path, summary: dict[str, Any]) -> dict[str, Any]:
    """The index's first block: result, policy, identity settings, date, commit, command, paired reports."""
    manifest = read_json(Path(run_dir) / RUN_FILE) or {}
    sessions = manifest.get("sessions") or [{}]
    first, last = sessions[0], sessions[-1]
    git = last.get("git") or {}
    commit = str(git.get("revision") or "")[:12] + (" (with uncommitted changes)" if git.get("uncommitted_changes")
                                                     else "")  # fmt: skip
    return {
        "result": _result(summary), "policy": (manifest.get("identity") or {}).get("policy") or "-",
        "settings": identity_settings(manifest),
        "date": first.get("started_at") or "-" if len(sessions) == 1
        else f"{first.get('started_at', '?')} … {last.get('ended_at') or last.get('started_at', '?')} "
             f"({len(sessions)} sessions)",
        "commit": commit or "-", "command": " ".join(map(str, last.get("command") or [])) or "-",
        "reports": _paired_reports(run_dir),
    }  # fmt: skip


def _health_text(record: TaskRecord) -> str:
    health = record.model_health or {}
    return " ".join(f"{health[name]} {label}" for name, label in _HEALTH if health.get(name))


def _lost_cell(record: TaskRecord) -> str:
    found = record.lost_at if isinstance(record.lost_at, dict) else {}
    stage = str(found.get("stage") or "")
    if not stage:
        return ""
    return f'<span title="{html.escape(str(found.get("reason") or ""))}">{html.escape(stage.replace("_", " "))}</span>'


# (header, the cell's HTML for a record); a column shows only when some record has a value in it.
_COLUMNS: list[tuple[str, Callable[[TaskRecord], str]]] = [
    ("score", lambda r: "" if r.score is None else html.escape(f"{r.score:g}")),
    ("intermediate", lambda r: "" if r.intermediate_score is None else html.escape(f"{r.intermediate_score:g}")),
    ("sites", lambda r: html.escape(", ".join(r.sites or []))),
    ("kind", lambda r: html.escape(r.kind or "")),
    ("steps", lambda r: "" if r.steps is None else str(r.steps)),
    ("ended by", lambda r: html.escape(r.stop_reason or "")),
    ("lost at", _lost_cell),
    ("model replies", lambda r: html.escape(_health_text(r))),
    ("intent", lambda r: html.escape(r.intent or "")),
]


def task_table(records: list[TaskRecord]) -> tuple[list[str], list[dict[str, Any]]]:
    """(headers, rows) of the task list: natural order, only columns with a value somewhere."""
    from markupsafe import Markup

    ordered = sorted(records, key=lambda r: natural_key(str(r.task_key)))
    cells = {name: [cell(r) for r in ordered] for name, cell in _COLUMNS}
    shown = [name for name, _ in _COLUMNS if any(cells[name])]
    rows = [{"record": record, "cells": [Markup(cells[name][n] or "-") for name in shown]}
            for n, record in enumerate(ordered)]  # fmt: skip
    return shown, rows


def write_run_index(run_dir: Path, summary: dict[str, Any] | None = None,
                    records: list[TaskRecord] | None = None) -> Path:  # fmt: skip
    """index.html of a run, from its summary and records (read from the folder when not given)."""
    from evaluation.running.run_health import health_text

    run_dir = Path(run_dir)
    summary = summary if summary is not None else read_json(run_dir / SUMMARY_FILE)
    records = records if records is not None else iter_records(run_dir)
    headers, rows = task_table(records)
    lost = {str(r.lost_at.get("stage")) for r in records if isinstance(r.lost_at, dict) and r.lost_at.get("stage")}
    manifest = read_json(run_dir / RUN_FILE) or {}
    templates = template_rows(records, template_of((manifest.get("identity") or {}).get("tasks")))
    page = environment().get_template("run_index.html").render(
        run_name=run_dir.name, css=css(), head=headline(run_dir, summary), table=format_table(summary),
        health=health_text(summary.get("model_health") or {}, summary.get("steps", 0)), headers=headers, rows=rows,
        stage_key=stage_key(lost), templates=templates,
    )  # fmt: skip
    path = run_dir / INDEX_FILE
    path.write_text(page, encoding="utf-8")
    return path
