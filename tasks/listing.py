"""What `videodemo tasks list` shows: counts by site, kind, video and eval type, and the problems."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from tasks.filters import KINDS
from tasks.loading import FileProblem, Task

NONE_LABEL = "(none)"


def summarize(tasks: list[Task], file_problems: Iterable[FileProblem]) -> dict[str, Any]:
    """Counts and problems as plain data (what `--json` prints)."""
    by_kind = Counter({kind: 0 for kind in KINDS})
    by_kind.update(task.kind for task in tasks)
    return {
        "tasks": len(tasks),
        # A task on several sites counts once under each of them.
        "by_site": _ranked(Counter(site for task in tasks for site in task.sites or [NONE_LABEL])),
        "by_kind": dict(by_kind),
        "by_video": _ranked(Counter(video for task in tasks for video in task.videos or [NONE_LABEL])),
        "by_eval_type": _ranked(Counter(t for task in tasks for t in task.eval_types or [NONE_LABEL])),
        "tasks_with_problems": [{"task": task.key, "problems": task.problems} for task in tasks if task.problems],
        # Oddities the reference runs anyway: these tasks run, with the note kept in their record.
        "tasks_with_notes": [{"task": task.key, "notes": task.notes} for task in tasks if getattr(task, "notes", [])],
        "file_problems": [{"path": str(problem.path), "problem": problem.message} for problem in file_problems],
    }


def _ranked(counts: Counter) -> dict[str, int]:
    """Most frequent first, ties by name, so the listing is stable."""
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def format_summary(summary: dict[str, Any], where: str, file_count: int, filters: str = "") -> str:
    """Aligned tables of counts, then the problems; `filters` describes the selection, if any."""
    files = f"{file_count} config file{'s' if file_count != 1 else ''}"
    lines = [f"{summary['tasks']} tasks from {where} ({files}{'; only ' + filters if filters else ''})"]
    for title, key in (("site", "by_site"), ("kind", "by_kind"), ("video", "by_video"), ("eval type", "by_eval_type")):
        lines += ["", *_table(title, summary[key])]
    flawed = summary["tasks_with_problems"]
    lines.append("")
    if flawed:
        lines.append(f"tasks with problems: {len(flawed)}")
        width = max(len(entry["task"]) for entry in flawed)
        lines += [f"  {entry['task']:<{width}}  {'; '.join(entry['problems'])}" for entry in flawed]
    else:
        lines.append("tasks with problems: none")
    noted = summary.get("tasks_with_notes") or []
    if noted:
        width = max(len(entry["task"]) for entry in noted)
        lines += ["", f"tasks that run with a config oddity (as the reference runs them): {len(noted)}"]
        lines += [f"  {entry['task']:<{width}}  {'; '.join(entry['notes'])}" for entry in noted]
    if summary["file_problems"]:
        lines += ["", f"files that did not load: {len(summary['file_problems'])}"]
        lines += [f"  {entry['path']}: {entry['problem']}" for entry in summary["file_problems"]]
    return "\n".join(lines)


def _table(title: str, counts: dict[str, int]) -> list[str]:
    width = max([len(title), *(len(name) for name in counts)])
    rows = [f"{title:<{width}}  tasks"]
    rows += [f"{name:<{width}}  {count:>5}" for name, count in counts.items()]
    return rows
