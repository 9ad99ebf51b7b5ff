"""Looking at runs: a page per task, an index per run, and success-rate tables (several runs side by side).

Success rate = passed / scored. Tasks that could not be scored (config error,
unscorable without a model, error) are counted beside it, never as failures.
Rows are grouped by site (a multi-site task under its sites joined by "+"), kind,
difficulty and eval type; the eval-type rows count each evaluator's own verdict,
so a task with two evaluators counts once under each. The intermediate column is
the intermediate score of factual-retention tasks (passed / scored).
"""

from __future__ import annotations

import hashlib
import html
import json
from pathlib import Path
from typing import Any

from evaluation.reference_quirks import decided_tasks, quirk_lines
from evaluation.run_groups import errored_reason
from evaluation.run_health import health_text, run_health
from evaluation.run_records import (
    INDEX_FILE,
    SUMMARY_FILE,
    TASK_PAGE,
    TASKS_DIR,
    iter_records,
    read_json,
    write_json,
)
from evaluation.step_extras import IMAGE_SUFFIXES
from evaluation.text_table import text_columns
from model_access.accounting import tokens_text

TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"
STATUSES = ("passed", "failed", "unscorable", "config_error", "error")
GROUPS = ("site", "kind", "difficulty", "eval_type")


# ---- generic rendering of recorded values ----------------------------------------------------


def render_value(value: Any, folder: Path) -> str:
    """HTML for any JSON value: dicts as definition lists, lists as lists, image files and data URLs as images."""
    if isinstance(value, dict):
        if not value:
            return '<span class="muted">{}</span>'
        if all(_is_scalar(item) for item in value.values()) and len(value) <= 8:
            pairs = (f"<b>{html.escape(str(key))}</b> {render_value(item, folder)}" for key, item in value.items())
            return ", ".join(pairs)
        items = "".join(
            f"<dt>{html.escape(str(key))}</dt><dd>{render_value(item, folder)}</dd>" for key, item in value.items()
        )
        return f'<dl class="value">{items}</dl>'
    if isinstance(value, list):
        if not value:
            return '<span class="muted">[]</span>'
        if all(isinstance(item, dict) and item for item in value):
            return _table(value, folder)
        return "<ol>" + "".join(f"<li>{render_value(item, folder)}</li>" for item in value) + "</ol>"
    if isinstance(value, str):
        source = _image_source(value, folder)
        if source is not None:
            alt = "image" if value.startswith("data:") else Path(value).name
            return f'<img src="{html.escape(source)}" alt="{html.escape(alt)}">'
        if "\n" in value or len(value) > 160:
            return f"<pre>{html.escape(value)}</pre>"
        return html.escape(value)
    if isinstance(value, float):
        return html.escape(_readable_number(value))
    return html.escape(json.dumps(value))


def _readable_number(value: float) -> str:
    """A float as a person reads it: 72.43, 0.0123, 3 (not 72.42976653799951)."""
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.2f}" if abs(value) >= 1 else f"{value:.3g}"


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (int, float, bool)) or (isinstance(value, str) and len(value) <= 80)


def _table(rows: list[dict[str, Any]], folder: Path) -> str:
    """A list of objects as one table, a column per key."""
    columns: list[str] = []
    for row in rows:
        columns += [key for key in row if key not in columns]
    head = "".join(f"<th>{html.escape(str(column))}</th>" for column in columns)
    body = "".join(
        "<tr>" + "".join(f"<td{_cell_class(row.get(c))}>{render_value(row[c], folder) if c in row else ''}</td>"
                         for c in columns) + "</tr>"
        for row in rows
    )  # fmt: skip
    # In a box of its own that scrolls sideways: a wide table never widens the page or spills into a neighbour.
    return f'<div class="wide"><table><tr>{head}</tr>{body}</table></div>'


def _cell_class(value: Any) -> str:
    """Long text keeps a readable width (not a word a line); a long unbroken string (a URL) may break anywhere."""
    if not isinstance(value, str) or len(value) <= 40 or "\n" in value:
        return ""
    return ' class="long"' if " " in value else ' class="token"'


# The usage columns a task page shows (the ledger has ~20; all of them ran off the page), in the text table's words.
_USAGE_COLUMNS = (("calls", "calls"), ("cache_hits", "cached"), ("failures", "failed"), ("retries", "retries"),
                  ("prompt_tokens", "prompt tok"), ("completion_tokens", "compl tok"), ("truncated", "cut"),
                  ("latency_s", "time s"))  # fmt: skip


def usage_table_html(usage: dict[str, Any]) -> str:
    """A task's model usage (ledgers by who called: policy, evaluation) as one narrow table in a scrolling box;
    tokens a server never reported read "n/a"."""
    head = "<tr><th>calls by</th><th>stage</th><th>role</th>" + "".join(f"<th>{label}</th>" for _, label in
                                                                         _USAGE_COLUMNS) + "</tr>"  # fmt: skip
    body = []
    for who, ledger in usage.items():
        for row in ledger.get("rows", []):
            cells = [who, row.get("stage", ""), row.get("role", "")]
            for name, _ in _USAGE_COLUMNS:
                if name in ("prompt_tokens", "completion_tokens"):
                    cells.append(tokens_text(row, name))
                elif name == "latency_s":
                    cells.append(f"{float(row.get(name, 0.0)):.1f}")
                else:
                    cells.append(str(row.get(name, 0)))
            body.append("<tr>" + "".join(f"<td>{html.escape(str(cell))}</td>" for cell in cells) + "</tr>")
    return f'<div class="wide"><table class="usage">{head}{"".join(body)}</table></div>'


def _image_source(value: str, folder: Path) -> str | None:
    if value.startswith("data:image/"):
        return value
    if not value.lower().endswith(IMAGE_SUFFIXES) or "\n" in value or len(value) > 1000:
        return None
    path = Path(value)
    if not path.is_absolute() and (folder / path).is_file():
        return path.as_posix()
    if path.is_absolute() and path.is_file():
        return path.as_uri()
    return None


def _is_demonstration(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("actions"), list) and "objective" in value


def demonstration_html(demonstration: dict[str, Any], folder: Path) -> str:
    """A demonstration a step showed (`info["demonstration"]`: objective, actions, keyframes): each of its steps
    under the tutorial's screen before it, in a row beside the agent's screenshot; other fields as usual."""
    actions, keyframes = demonstration["actions"], demonstration.get("keyframes")
    paired = isinstance(keyframes, list) and len(keyframes) == len(actions)
    frames = keyframes if paired else [None] * len(actions)
    figures = "".join(
        "<figure>" + (render_value(frame, folder) if isinstance(frame, str) else "")
        + f"<figcaption>{number}. {html.escape(str(text))}</figcaption></figure>"
        for number, (text, frame) in enumerate(zip(actions, frames), 1)
    )  # fmt: skip
    inline = {"objective", "actions"} | ({"keyframes"} if paired else set())
    rest = {key: value for key, value in demonstration.items() if key not in inline}
    return (
        f'<div class="demo"><b>demonstration:</b> {html.escape(str(demonstration["objective"]))}'
        f'<div class="strip">{figures}</div>{render_value(rest, folder) if rest else ""}</div>'
    )


def environment():
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    return Environment(loader=FileSystemLoader(str(TEMPLATES_DIR)), autoescape=select_autoescape(["html"]))


def css() -> str:
    return (TEMPLATES_DIR / "report.css").read_text(encoding="utf-8")


def episode_steps(episode: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any] | None, dict[str, Any]]]:
    """(step, the demonstration it showed or None, the rest of its extra) for each step of an episode.json."""
    steps = []
    keyframes_of: dict[str, list] = {}  # a demonstration's images are saved once; later steps showing it reuse them
    for step in episode.get("steps", []):
        extra = dict(step.get("extra") or {})
        demonstration = extra.pop("demonstration", None) if _is_demonstration(extra.get("demonstration")) else None
        if demonstration and demonstration.get("trajectory_id"):
            if isinstance(demonstration.get("keyframes"), list):
                keyframes_of[demonstration["trajectory_id"]] = demonstration["keyframes"]
            elif demonstration["trajectory_id"] in keyframes_of:
                demonstration = {**demonstration, "keyframes": keyframes_of[demonstration["trajectory_id"]]}
        steps.append((step, demonstration, extra))
    return steps


def write_task_page(folder: Path, record: dict[str, Any]) -> Path:
    """report.html of one task, the story of its episode (evaluation/task_story.py): the verdict and the stage the
    account blames at the top; every step's screens before and after, observation, model calls, action and
    demonstration; the verdict's checks at the end."""
    from markupsafe import Markup

    from evaluation.task_story import lost_at, story_steps, verdict_details_html, verdict_summary

    folder = Path(folder)
    episode = read_json(folder / "episode.json") or {}
    verdicts = [
        {**verdict, "details_html": Markup(verdict_details_html(verdict, folder))}
        for verdict in record.get("verdicts", []) + ([record["intermediate"]] if record.get("intermediate") else [])
    ]
    usage = {role: data for role, data in (record.get("usage") or {}).items() if data and data.get("rows")}
    page = environment().get_template("task_report.html").render(
        record=record,
        css=css(),
        summary=verdict_summary(record),
        lost=lost_at(record, folder),
        verdicts=verdicts,
        steps=story_steps(folder, episode, folder),
        start_urls=episode.get("start_urls", []),
        start_screenshot=episode.get("start_screenshot"),
        timings=", ".join(f"{key} {value:.1f}s" for key, value in (record.get("timings") or {}).items()),
        state_html=Markup(render_value(record["state"], folder)) if record.get("state") else "",
        usage_html=Markup(usage_table_html(usage)) if usage else "",
        policy_html=Markup(render_value(record["policy_info"], folder)) if record.get("policy_info") else "",
        health_html=Markup(render_value(record["model_health"], folder)) if record.get("model_health") else "",
    )
    path = folder / TASK_PAGE
    path.write_text(page, encoding="utf-8")
    return path


# ---- tables -------------------------------------------------------------------------------------


def _group_values(record: dict[str, Any], group: str) -> list[tuple[str, str, bool]]:
    """(value, status, counts its intermediate score) of each row the record counts in for `group`."""
    status = record.get("status", "error")
    if group == "site":
        return [("+".join(sorted(record.get("sites") or [])) or "(none)", status, True)]
    if group in ("kind", "difficulty"):
        return [(record.get(group) or "(none)", status, True)]
    from evaluation.evaluate import EVAL_TYPES

    verdicts = {v["eval_type"]: v["status"] for v in record.get("verdicts", []) if v["eval_type"] in EVAL_TYPES}
    if record.get("recorded_status", status) != status:
        verdicts = {}  # the report's --errors rule changed the task's status: every type counts it so
    # A task that never reached its evaluators (config problems, an episode error) counts under
    # each type it lists, with the task's status.
    return [(eval_type, verdicts.get(eval_type, status), False) for eval_type in record.get("eval_types") or []]


def _new_row(group: str, value: str) -> dict[str, Any]:
    row: dict[str, Any] = {"group": group, "value": value, "tasks": 0, "scored": 0}
    row.update({status: 0 for status in STATUSES})
    row.update(intermediate_scored=0, intermediate_passed=0)
    return row


def _count(row: dict[str, Any], status: str, record: dict[str, Any] | None) -> None:
    row["tasks"] += 1
    row[status if status in STATUSES else "error"] += 1
    if status in ("passed", "failed"):
        row["scored"] += 1
    if record is not None and record.get("intermediate_score") is not None:
        row["intermediate_scored"] += 1
        row["intermediate_passed"] += int(record["intermediate_score"] == 1.0)


def _finish_row(row: dict[str, Any]) -> dict[str, Any]:
    row["success_rate"] = row["passed"] / row["scored"] if row["scored"] else None
    scored = row["intermediate_scored"]
    row["intermediate_rate"] = row["intermediate_passed"] / scored if scored else None
    return row


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts and rates for the whole run and per group, the tasks that changed site state, and model usage."""
    from model_access.accounting import UsageLedger

    rows: dict[tuple[str, str], dict[str, Any]] = {("all", "all"): _new_row("all", "all")}
    for record in records:
        _count(rows[("all", "all")], record.get("status", "error"), record)
        for group in GROUPS:
            for value, status, with_intermediate in _group_values(record, group):
                row = rows.setdefault((group, value), _new_row(group, value))
                _count(row, status, record if with_intermediate else None)
    ledgers = {"policy": UsageLedger(), "evaluation": UsageLedger()}
    for record in records:
        for role, ledger in ledgers.items():
            ledger.merge((record.get("usage") or {}).get(role) or {})
    ordered = [rows[("all", "all")]] + [
        rows[key] for group in GROUPS for key in sorted(k for k in rows if k[0] == group)
    ]
    steps = sum(int(record.get("steps") or 0) for record in records)
    return {
        "tasks": len(records),
        "rows": [_finish_row(row) for row in ordered],
        "errored": [f"{r['task_key']} ({reason})" for r in records if (reason := errored_reason(r))],
        "changed_state": [r["task_key"] for r in records if (r.get("state") or {}).get("counts_changed")],
        "require_reset": [r["task_key"] for r in records if r.get("require_reset")],
        # Tasks whose score a reference quirk decided (evaluation.reference_quirks), by quirk.
        "reference_quirks": decided_tasks(records),
        "usage": {role: ledger.to_dict() for role, ledger in ledgers.items()},
        "steps": steps,
        "policy_cost_per_step": cost_per_step(ledgers["policy"].to_dict(), steps),
        "model_health": run_health(records),
    }


# Ledger stages of the policy's own step call and of trajectory selection (agent/method/selection.py).
POLICY_STAGE = "policy"
SELECTION_PREFIX = "selection"
_COST_FIELDS = ("calls", "prompt_tokens", "completion_tokens", "images")
# Summed beside them so a stage whose server reported no token counts prints "n/a" (accounting.tokens_text).
_COUNT_FIELDS = ("cache_hits", "failures", "no_usage")


def cost_per_step(policy_usage: dict[str, Any], steps: int) -> list[dict[str, Any]]:
    """The policy's model usage per episode step, one row per ledger stage, plus "selection (all)" summing the
    selection stages beside the policy's own call, so what choosing demonstrations costs reads at a glance."""
    if not steps:
        return []
    rows: list[dict[str, Any]] = []
    selection = dict.fromkeys(_COST_FIELDS + _COUNT_FIELDS, 0)
    for row in policy_usage.get("rows", []):
        rows.append({"stage": row["stage"], **{name: row.get(name, 0) / steps for name in _COST_FIELDS},
                     **{name: row.get(name, 0) for name in _COUNT_FIELDS}, "total_calls": row.get("calls", 0)})
        if row["stage"].startswith(SELECTION_PREFIX):
            for name in _COST_FIELDS + _COUNT_FIELDS:
                selection[name] += row.get(name, 0)
    if any(row["stage"].startswith(SELECTION_PREFIX) for row in rows):
        per_step = {name: selection[name] / steps for name in _COST_FIELDS}
        counts = {name: selection[name] for name in _COUNT_FIELDS}
        rows.append({"stage": "selection (all)", **per_step, **counts, "total_calls": selection["calls"]})
    order = {POLICY_STAGE: 0, "selection (all)": 1}
    return sorted(rows, key=lambda row: (order.get(row["stage"], 2), row["stage"]))


def cost_table(summary: dict[str, Any]) -> str:
    rows = summary.get("policy_cost_per_step") or []
    if not rows:
        return ""
    lines = [["stage", "calls/step", "prompt tok/step", "compl tok/step", "images/step"]]
    for row in rows:
        counted = {**row, "calls": row.get("total_calls", 0)}  # whole calls, to tell whether any reported tokens
        lines.append([row["stage"], f"{row['calls']:.2f}", tokens_text(counted, "prompt_tokens"),
                      tokens_text(counted, "completion_tokens"), f"{row['images']:.2f}"])  # fmt: skip
    return f"policy model cost per step ({summary['steps']} steps):\n" + text_columns(lines)


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def format_table(summary: dict[str, Any]) -> str:
    header = "group value tasks scored passed success unscorable config_err errored interm."
    lines = [[name.replace("_", " ") for name in header.split()]]
    for row in summary["rows"]:
        intermediate = (
            f"{row['intermediate_passed']}/{row['intermediate_scored']}" if row["intermediate_scored"] else "-"
        )
        lines.append([
            row["group"], row["value"], str(row["tasks"]), str(row["scored"]), str(row["passed"]),
            _rate(row["success_rate"]), str(row["unscorable"]), str(row["config_error"]), str(row["error"]),
            intermediate,
        ])  # fmt: skip
    return text_columns(lines)


def usage_tables(summary: dict[str, Any]) -> str:
    from model_access.accounting import UsageLedger

    parts = []
    for role, data in summary["usage"].items():
        if data.get("rows"):
            parts.append(f"model usage ({role}):\n" + UsageLedger.from_dict(data).summary_table())
    if cost_table(summary):
        parts.append(cost_table(summary))
    return "\n\n".join(parts) or "model usage: no model calls"


def state_lines(summary: dict[str, Any]) -> str:
    """Which tasks changed the sites (row counts moved) and how many were run after a reset."""
    changed = summary["changed_state"]
    text = f"tasks whose site row counts changed ({len(changed)}): {', '.join(changed) or 'none'}"
    if summary["require_reset"]:
        text += f"\ntasks marked require_reset (run after a site reset): {len(summary['require_reset'])}"
    return text


def summary_text(summary: dict[str, Any]) -> str:
    """The run's tables as printed at its end and by `videodemo report`."""
    errored = summary.get("errored") or []
    errored_line = f"errored tasks ({len(errored)}): {', '.join(errored) or 'none'}"
    parts = [format_table(summary), errored_line, state_lines(summary)]
    if quirks := quirk_lines(summary.get("reference_quirks") or {}):
        parts.append(quirks)
    health = health_text(summary.get("model_health") or {}, summary.get("steps", 0))
    if health:
        parts.append(health)
    parts.append(usage_tables(summary))
    return "\n\n".join(parts)


def print_summary(summary: dict[str, Any]) -> None:
    print(summary_text(summary))


def write_run_outputs(run_dir: Path) -> dict[str, Any]:
    """summary.json, index.html and every task's page of a run, from its records; returns the summary. The task
    pages are written again, so each task in the index has one, drawn by the current templates."""
    run_dir = Path(run_dir)
    records = iter_records(run_dir)
    for record in records:
        write_task_page(run_dir / TASKS_DIR / record["_folder"], record)
    summary = summarize(records)
    write_json(run_dir / SUMMARY_FILE, summary)
    health = health_text(summary.get("model_health") or {}, summary.get("steps", 0))
    page = environment().get_template("run_index.html").render(
        run_name=run_dir.name, css=css(), table=format_table(summary), health=health, records=records
    )
    (run_dir / INDEX_FILE).write_text(page, encoding="utf-8")
    return summary


# ---- several runs ------------------------------------------------------------------------------


def default_report_dir(folders: list[Path]) -> Path:
    """<first run>/reports/<digest of every folder given>: one folder per set of runs compared."""
    digest = hashlib.sha1("\n".join(str(Path(f).resolve()) for f in folders).encode()).hexdigest()[:8]
    return Path(folders[0]) / "reports" / digest


def report(
    run_dir: Path,
    *other_dirs: Path,
    labels: list[str] | None = None,
    settings: Any = None,
    prices_file: Path | None = None,
    out_dir: Path | None = None,
) -> str:
    """The text `videodemo report` prints (each run's index.html / summary.json refreshed, the report's pages,
    charts and tidy CSV written to `out_dir`): one run's tables, or runs side by side with paired statistics.
    `settings` is the ReportSettings (defaults when None)."""
    from evaluation.comparison import compare
    from evaluation.comparison_page import write_report_folder
    from evaluation.comparison_text import comparison_text, cost_table
    from evaluation.run_costs import load_prices
    from evaluation.run_groups import ERRORS_NOTE, group_configurations
    from settings.schema import ReportSettings

    settings = settings or ReportSettings()
    folders = [Path(run_dir), *map(Path, other_dirs)]
    for folder in folders:
        write_run_outputs(folder)
    comparison = compare(group_configurations(folders, labels), settings, load_prices(settings.prices, prices_file))
    out = Path(out_dir) if out_dir else default_report_dir(folders)
    index, table = write_report_folder(comparison, out)
    (only,) = comparison.results if len(comparison.results) == 1 else (None,)
    if only is not None and len(only.summaries) == 1:
        errors = f"errored tasks: {ERRORS_NOTE[comparison.errors]} (--errors {comparison.errors})"
        text = "\n\n".join([summary_text(only.summaries[0]), errors, cost_table(comparison)])
    else:
        text = comparison_text(comparison)
    return f"{text}\n\nreport with charts and flipped tasks: {index}\none row per (run, sample, task): {table}"
