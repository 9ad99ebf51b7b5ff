"""The report folder: index.html (charts, paired outcomes, cost per task), a page per flipped task, tasks.csv.

A flipped task's page puts the reference run's steps and the other run's side by side, step
by step, each with the demonstration its policy showed at that step. Images are linked by
paths relative to the page, so the report keeps working when the runs and it move together.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from evaluation.reports.comparison import Comparison, flipped_tasks, sample_record
from evaluation.reports.comparison_health import TITLE as HEALTH_TITLE
from evaluation.reports.comparison_health import health_usage_rows
from evaluation.reports.comparison_text import (
    COST_HEADER,
    cost_rows,
    errored_lines,
    lost_parts,
    pair_text,
    samples_text,
)
from evaluation.reports.page_parts import css, environment
from evaluation.reports.paired_headline import differing_settings, flip_change, result_lines
from evaluation.reports.report_charts import cost_chart, success_chart
from evaluation.reports.run_comparison import rate_table
from evaluation.reports.run_costs import shown
from evaluation.reports.run_groups import ERRORS_NOTE
from evaluation.running.run_records import INDEX_FILE, TASK_PAGE, natural_key, task_folder
from foundation.json_files import read_json
from evaluation.reports.task_story import lost_at, shown_verdicts, story_steps, verdict_summary
from evaluation.reports.tidy_export import write_tidy

FLIPS_DIR = "flipped"
REPORT_PAGE = "index.html"


def _link(target: Path, page_folder: Path) -> str:
    return Path(os.path.relpath(Path(target).resolve(), Path(page_folder).resolve())).as_posix()


def flip_page_name(index: int, task_key: str) -> str:
    return f"run{index}-" + task_folder(Path("."), task_key).name + ".html"


def _side(comparison: Comparison, index: int, task_key: str, passed: bool, page_folder: Path) -> dict[str, Any]:
    result = comparison.results[index]
    found = sample_record(result, task_key, passed)
    if found is None:
        return {"title": f"run {index + 1}: {result.label}", "record": None, "steps": [], "verdicts": []}
    sample, record = found
    task_dir = task_folder(sample.folder, task_key)
    page = task_dir / TASK_PAGE
    several = len(result.configuration.samples) > 1
    verdicts = shown_verdicts(record, page_folder)
    return {
        "title": f"run {index + 1}: {result.label}" + (f" (sample {sample.number})" if several else ""),
        "record": record, "steps": story_steps(task_dir, read_json(task_dir / "episode.json") or {}, page_folder),
        "task_page": _link(page, page_folder) if page.is_file() else None,
        "summary": verdict_summary(record), "lost": lost_at(record, page_folder), "verdicts": verdicts,
    }  # fmt: skip


def write_flip_page(comparison: Comparison, index: int, task_key: str, how: str, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    helped = how == "helped"  # run 1 fails and run K passes; "hurt" the other way round
    left, right = _side(comparison, 0, task_key, not helped, folder), _side(comparison, index, task_key, helped, folder)
    rows = [
        (left["steps"][i] if i < len(left["steps"]) else None, right["steps"][i] if i < len(right["steps"]) else None)
        for i in range(max(len(left["steps"]), len(right["steps"])))
    ]
    record = right["record"] or left["record"]
    page = environment().get_template("flipped_task.html").render(
        css=css(), task_key=task_key, how=how, index=index + 1, intent=record.intent if record else "",
        left=left, right=right, rows=rows, back=_link(folder.parent / REPORT_PAGE, folder),
    )  # fmt: skip
    path = folder / flip_page_name(index + 1, task_key)
    path.write_text(page, encoding="utf-8")
    return path


def _task_page(result: Any, key: str, folder: Path) -> str | None:
    """A link from the report `folder` to the task's page in the first sample of `result` that ran it."""
    for sample, records in zip(result.configuration.samples, result.records):
        page = task_folder(sample.folder, key) / TASK_PAGE
        if any(record.task_key == key for record in records) and page.is_file():
            return _link(page, folder)
    return None


def _task_table(comparison: Comparison, folder: Path, flips: dict[str, str]) -> list[dict[str, Any]]:
    """Per task and run: outcome (or pass frequency) linked to the run's task page, cost, seconds; first sample's
    numbers with one sample. The task links to its flipped-task page, else to run 1's task page."""
    keys = sorted({r.task_key for res in comparison.results for recs in res.records for r in recs}, key=natural_key)
    rows = []
    for key in keys:
        cells = []
        for result in comparison.results:
            statuses = [r.status for records in result.records for r in records if r.task_key == key]
            costs = [c[key] for c in result.costs if key in c]
            if not statuses:
                cells.append(None)
                continue
            outcome = statuses[0] if len(statuses) == 1 else f"{statuses.count('passed')}/{len(statuses)} passed"
            dollars = [c["cost_usd"] for c in costs]
            tokens = [c["prompt_tokens"] for c in costs]
            cells.append({
                "outcome": outcome, "status": statuses[0] if len(statuses) == 1 else "",
                "href": _task_page(result, key, folder),
                "cost": "n/a" if None in dollars else f"{sum(dollars) / len(dollars):.4f}",
                "tokens": "n/a" if None in tokens else shown(round(sum(tokens) / len(tokens))),
                "seconds": shown(sum(c["task_s"] or 0 for c in costs) / len(costs), 1),
            })  # fmt: skip
        first = next((cell["href"] for cell in cells if cell and cell["href"]), None)
        rows.append({"task_key": key, "cells": cells, "href": flips.get(key) or first})
    return rows


def write_report_folder(comparison: Comparison, folder: Path) -> tuple[Path, Path]:
    """index.html, flipped/*.html and tasks.csv under `folder`; returns the page and the CSV."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    flips = []
    for index, key, how in flipped_tasks(comparison):
        path = write_flip_page(comparison, index, key, how, folder / FLIPS_DIR)
        flips.append({"index": index + 1, "task_key": key, "how": how, "href": _link(path, folder),
                      "label": comparison.results[index].label, "change": flip_change(comparison, index, key, how)})
    flip_pages: dict[str, str] = {}  # a task that flipped in several runs links to its first page
    for flip in flips:
        flip_pages.setdefault(flip["task_key"], flip["href"])
    runs = [
        {
            "label": result.label,
            "scripted": result.scripted_note,
            "samples": [
                {"folder": str(s.folder), "href": _link(s.folder / INDEX_FILE, folder), "number": s.number}
                for s in result.configuration.samples
            ],
        }
        for result in comparison.results
    ]
    labels = [result.label for result in comparison.results]
    pairs = [pair_text(index, pair, comparison.confidence, (labels[0], labels[index - 1]))
             for index, pair in enumerate(comparison.pairs, start=2)]  # fmt: skip
    costs, notes = cost_rows(comparison)
    health_header, health_rows, health_notes = health_usage_rows(comparison)
    page = environment().get_template("comparison.html").render(
        css=css(), runs=runs, success_chart=success_chart(comparison), cost_chart=cost_chart(comparison),
        results=result_lines(comparison), differing=differing_settings(comparison), labels=labels,
        rates=rate_table([result.pooled for result in comparison.results], names=labels), errored=errored_lines(comparison),
        samples=samples_text(comparison), pairs=pairs, lost=lost_parts(comparison), cost_header=COST_HEADER,
        cost_rows=costs,
        cost_notes=notes, flips=flips, health_title=HEALTH_TITLE, health_header=health_header,
        health_rows=health_rows, health_notes=health_notes,
        tasks=_task_table(comparison, folder, flip_pages),
        errors_note=f"{ERRORS_NOTE[comparison.errors]} (--errors {comparison.errors})",
    )  # fmt: skip
    index_path = folder / REPORT_PAGE
    index_path.write_text(page, encoding="utf-8")
    _link_from_runs(comparison, index_path)
    return index_path, write_tidy(comparison, folder)


def _link_from_runs(comparison: Comparison, index_path: Path) -> None:
    """Each run's index links to this report: noted in its folder, and the index drawn again (it may be older)."""
    from evaluation.reports.run_index import note_paired_report, write_run_index
    from evaluation.running.run_records import SUMMARY_FILE

    labels = [result.label for result in comparison.results]
    for result in comparison.results:
        for sample in result.configuration.samples:
            note_paired_report(sample.folder, index_path, labels)
            if (sample.folder / SUMMARY_FILE).is_file():
                write_run_index(sample.folder)
