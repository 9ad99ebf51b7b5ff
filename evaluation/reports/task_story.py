"""An episode as its pages tell it (the task page, each side of a flipped-task page): per step the screens
before and after, the observation the policy was given, its model calls (messages and reply), the action, the
demonstration and why it was chosen; and at the end the verdict with the failing check named and, when the record
has one, the stage the account blames (`lost_at`).

The observation of step N is the one recorded after step N-1 (the start's for step 1), the one the policy was
handed; a policy that observes again on its own (the scripted policy reads the whole page) may have acted on
another, and its model calls, when kept, show what the model was sent. Screenshots: step_000.png is the start,
step_NNN.png the page after step NNN (evaluation/browser_env/episode.py).
"""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Any

from evaluation.reports.page_parts import (
    css,
    demonstration_html,
    environment,
    episode_steps,
    render_value,
    usage_table_html,
)
from evaluation.reports.expected_read import expected_and_read
from evaluation.reports.run_comparison import run_label
from evaluation.reports.step_marks import named_actions, step_mark, target_outline
from evaluation.running.run_records import TASK_PAGE
from foundation.json_files import read_json
from foundation.records.demonstration import DemonstrationShown
from foundation.records.task_record import TaskRecord
from foundation.records.verdict import Verdict

# What a verdict's failing entry is called, by evaluator: entries (program_html) and queries (page_image_query).
_WHERE = {"program_html": "entry", "page_image_query": "image query"}


def page_link(target: Path, page_folder: Path) -> str:
    """`target` as a link from a page in `page_folder` (relative, so runs and reports move together)."""
    return Path(os.path.relpath(Path(target).resolve(), Path(page_folder).resolve())).as_posix()


def rebased(value: Any, task_dir: Path, page_folder: Path) -> Any:
    """Every file name in `value` saved relative to the task folder, made relative to the page instead."""
    if isinstance(value, dict):
        return {key: rebased(item, task_dir, page_folder) for key, item in value.items()}
    if isinstance(value, list):
        return [rebased(item, task_dir, page_folder) for item in value]
    if isinstance(value, str) and _may_name_a_file(value) and _is_file(task_dir / value):
        return page_link(task_dir / value, page_folder)
    return value


def _may_name_a_file(value: str) -> bool:
    """A short single-line relative path: a recorded objective or answer is text, not a file to look up."""
    name = Path(value).name
    return bool(value) and "\n" not in value and not value.startswith("data:") and not Path(value).is_absolute() \
        and 0 < len(name.encode()) <= 255 and len(value) < 300


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a text that cannot be a file name on this system (too long, odd bytes)
        return False


def _calls(step: dict[str, Any]) -> list[dict[str, Any]]:
    calls = []
    for number, call in enumerate(step.get("model_calls") or [], 1):
        tokens = f"{call.get('prompt_tokens', 0)} prompt + {call.get('completion_tokens', 0)} reply tokens"
        flags = [flag for flag in ("cached", "scripted") if call.get(flag)]
        if call.get("finish_reason") == "length":
            flags.append("cut at the length limit")
        messages = []
        for message in call.get("messages") or []:
            parts = []
            for part in message.get("content") or []:
                if part.get("type") == "image":
                    parts.append({"image": str(part.get("digest", ""))[:23] + "…"})
                else:
                    parts.append({"text": str(part.get("text", ""))})
            messages.append({"role": message.get("role", ""), "parts": parts})
        calls.append({
            "title": f"call {number}: {call.get('stage', '')} ({call.get('role', '')}, {call.get('model', '')}), "
                     f"{tokens}" + (f", {', '.join(flags)}" if flags else ""),
            "messages": messages, "reply": call.get("reply", ""), "reasoning": call.get("reasoning", ""),
        })  # fmt: skip
    return calls


def story_steps(task_dir: Path, episode: dict[str, Any], page_folder: Path) -> list[dict[str, Any]]:
    """The steps of a task's episode.json as the templates' `step_story` macro shows them, links from `page_folder`."""
    from markupsafe import Markup

    task_dir, page_folder = Path(task_dir), Path(page_folder)
    screen_before, observation = episode.get("start_screenshot"), episode.get("start_observation_text", "")
    steps = []
    named = named_actions(episode)
    for step, shown, info in episode_steps(episode):
        demonstration = DemonstrationShown.from_dict(rebased(shown.to_dict(), task_dir, page_folder)) if shown else None
        extra = rebased(info.to_dict(), task_dir, page_folder)
        usage = step.get("model_usage") or {}
        calls = _calls(step)
        shot = step.get("screenshot")
        badge, badge_status = step_mark(step, observation)
        current = info.demonstrated.step if info.demonstrated else None  # the demonstration's step carried out
        steps.append({
            "index": step.get("index"), "ok": step.get("ok"), "error": step.get("error"),
            "named_action": named.get(int(step.get("index") or 0), ""), "badge": badge, "badge_status": badge_status,
            "action_text": step.get("action_text", ""), "url_before": step.get("url_before", ""),
            "url_after": step.get("url_after", ""), "commands": step.get("commands") or [],
            "before": page_link(task_dir / screen_before, page_folder) if screen_before else None,
            "outline": target_outline(step, task_dir / screen_before if screen_before else None),
            "after": page_link(task_dir / shot, page_folder) if shot else None,
            "observation": observation,
            "calls": calls,
            # Calls were made (chat or embedding: the usage does not tell) by a run that kept none: one with
            # run.keep_model_calls off, or one from before it existed.
            "calls_not_kept": not episode.get("model_calls_kept") and bool(usage.get("calls")),
            "demonstration_html": Markup(demonstration_html(demonstration, page_folder, current))
            if demonstration else "",
            "why_chosen": info.why_chosen(),  # from the policy's selection record or note
            "extra_html": Markup(render_value(extra, page_folder)) if extra else "",
            "usage_html": Markup(render_value(usage, page_folder)) if usage else "",
        })  # fmt: skip
        screen_before, observation = shot, step.get("observation_text", "")
    return steps


# ---- the verdict ---------------------------------------------------------------------------------


def _check_text(check: dict[str, Any]) -> str:
    words = [str(check.get("key", "")), repr(check["reference"]) if "reference" in check else ""]
    if check.get("note"):
        words.append(f"— {check['note']}")
    return " ".join(word for word in words if word) or str(check)


def failing_checks(verdict: Verdict) -> list[str]:
    """The checks that failed a verdict, each named in one line (for program_html: entry, page and locator)."""
    lines = []
    for detail in verdict.details or []:
        if not isinstance(detail, dict) or detail.get("passed") is not False:
            continue
        if "checks" not in detail:
            lines.append(_check_text(detail))
            continue
        where = f"{_WHERE.get(verdict.eval_type, 'entry')} {int(detail.get('index', 0)) + 1}"
        place = detail.get("visited_url") or detail.get("url") or ""
        if "locator" in detail:
            place += f", locator {detail['locator'] or '(the whole page)'}"
        if detail.get("image_class") is not None:
            place += f", images {detail['image_class'] or '(all)'}"
        failed = [_check_text(check) for check in detail["checks"] if not check.get("passed")]
        reasons = failed or [detail.get("note") or "failed"]
        lines += [f"{where} ({place}): {reason}" for reason in reasons]
    return lines


def verdict_summary(record: TaskRecord) -> list[dict[str, Any]]:
    """Each verdict (the intermediate score's too) with why it did not pass: its failing checks, else its message."""
    summary = []
    for verdict in _all_verdicts(record):
        lines = [] if verdict.status == "passed" else failing_checks(verdict)
        if verdict.status != "passed" and not lines:
            lines = [verdict.message or "no failing check recorded"]
        summary.append({"eval_type": verdict.eval_type, "status": verdict.status, "lines": lines})
    return summary


def _all_verdicts(record: TaskRecord) -> list[Verdict]:
    return list(record.verdicts or []) + ([record.intermediate] if record.intermediate else [])


def shown_verdicts(record: TaskRecord, page_folder: Path) -> list[dict[str, Any]]:
    """Each verdict (the intermediate score's too) as a page shows it: its fields and its details as HTML."""
    from markupsafe import Markup

    return [
        {"eval_type": verdict.eval_type, "status": verdict.status, "message": verdict.message,
         "details": verdict.details, "details_html": Markup(verdict_details_html(verdict, page_folder))}
        for verdict in _all_verdicts(record)
    ]  # fmt: skip


def lost_at(record: TaskRecord, page_folder: Path) -> dict[str, Any] | None:
    """The stage the account blames for a failed task (`record.lost_at`), ready to show; None without one."""
    from markupsafe import Markup

    found = record.lost_at
    if not isinstance(found, dict) or not found.get("stage"):
        return None
    evidence = found.get("evidence")
    return {
        "stage": str(found["stage"]), "reason": str(found.get("reason") or ""),
        "evidence_html": Markup(render_value(evidence, page_folder)) if evidence else "",
    }  # fmt: skip


def program_html_html(details: list[dict[str, Any]]) -> str:
    """program_html's entries, one narrow two-column table each: long URLs, locators and contents wrap inside it."""
    parts = []
    for entry in details:
        status = "passed" if entry.get("passed") else "failed"
        rows = [("url", entry.get("url", ""))]
        if entry.get("visited_url") and entry.get("visited_url") != entry.get("url"):
            rows.append(("visited", entry["visited_url"]))
        rows.append(("locator", entry.get("locator") or "(the whole page)"))
        checks = "; ".join(f"{_check_text(check)} ({'passed' if check.get('passed') else 'failed'})"
                           for check in entry.get("checks") or [])  # fmt: skip
        rows.append(("checks", checks or "-"))
        for name in ("note", "quirk"):
            if entry.get(name):
                rows.append((name, str(entry[name])))
        cells = [(name, f"<code>{html.escape(str(value))}</code>" if name in ("url", "visited", "locator")
                  else html.escape(str(value))) for name, value in rows]  # fmt: skip
        body = "".join(f"<tr><th>{name}</th><td>{cell}</td></tr>" for name, cell in cells)
        content = entry.get("content")
        shown = content if isinstance(content, str) else repr(content)
        body += (f"<tr><th>content read</th><td><details><summary>{len(shown)} characters</summary>"
                 f"<pre>{html.escape(shown)}</pre></details></td></tr>")  # fmt: skip
        number = int(entry.get("index", 0)) + 1
        parts.append(f'<table class="entry"><caption>entry {number} <span class="status {status}">{status}</span>'
                     f"</caption>{body}</table>")  # fmt: skip
    return "".join(parts)


def verdict_details_html(verdict: Verdict, folder: Path) -> str:
    details = verdict.details
    if verdict.eval_type == "program_html" and details and all(isinstance(d, dict) for d in details):
        return program_html_html(details)
    return f'<div class="wide">{render_value(details, folder)}</div>' if details else ""


def write_task_page(folder: Path, record: TaskRecord) -> Path:
    """report.html of one task, the story of its episode (evaluation/reports/task_story.py): the verdict and the stage
    the account blames at the top; every step's screens before and after, observation, model calls, action and
    demonstration; the verdict's checks at the end."""
    from markupsafe import Markup


    folder = Path(folder)
    episode = read_json(folder / "episode.json") or {}
    verdicts = shown_verdicts(record, folder)
    usage = {role: data for role, data in (record.usage or {}).items() if data and data.get("rows")}
    run_dir = folder.parent.parent  # <run>/tasks/<task>
    page = environment().get_template("task_report.html").render(
        record=record,
        css=css(),
        run_name=run_dir.name, run_label=run_label(run_dir), checked=expected_and_read(record),
        summary=verdict_summary(record),
        lost=lost_at(record, folder),
        verdicts=verdicts,
        steps=story_steps(folder, episode, folder),
        start_urls=episode.get("start_urls", []),
        start_screenshot=episode.get("start_screenshot"),
        timings=", ".join(f"{key} {value:.1f}s" for key, value in (record.timings or {}).items()),
        state_html=Markup(render_value(record.state, folder)) if record.state else "",
        usage_html=Markup(usage_table_html(usage)) if usage else "",
        policy_html=Markup(render_value(record.policy_info, folder)) if record.policy_info else "",
        health_html=Markup(render_value(record.model_health, folder)) if record.model_health else "",
    )
    path = folder / TASK_PAGE
    path.write_text(page, encoding="utf-8")
    return path
