"""The per-task account of a run (evaluation/reports/loss_account.py): in each failed task's record, counted, compared.

Each failed task's record.json gets `lost_at` ({"stage", "evidence", "reason"}), its page is
written again, the run's summary counts the stages (`summary["lost_at"]`), `tasks.csv`
has a `lost_at` column, and `videodemo report` prints the counts, per run, and where
failures moved between runs.

The account is made when a run's outputs are written (at the end of `videodemo run`, and
by `videodemo report` and `rescore`), not while a task runs: the reference solutions and
the tutorials' logs stay out of the workers (a policy never sees them), a task that passes
after a rescore loses its account, and runs made before the account existed get one. It
reads the index as it is then; a trajectory the run followed that the index no longer
holds makes the account say "unknown".

Where it reads from:
- the reference solutions: `report.account_solutions` (`videodemo report --solutions`), else
  a `solutions` folder beside the run's task configs (where the sandbox keeps them), else
  the run's own `--solutions` (a scripted run); none: "unknown";
- the index and, beside each video, its tutorial's ground-truth log: `report.account_index`
  (`--index`), else the index the run read (its run.json settings).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluation.reports.indexed_tutorials import INDEX_DB, IndexedTutorials
from evaluation.reports.loss_account import STAGES, lost_at
from evaluation.running.run_records import RUN_FILE, TASKS_DIR
from evaluation.running.task_record import iter_records
from foundation.errors import UserError
from foundation.json_files import read_json
from foundation.records.task_record import TaskRecord
from tasks.reference.solutions import Solutions, load_solutions
from tasks.reference.steps import reference_steps

EPISODE_FILE = "episode.json"


@dataclass
class AccountSources:
    solutions: Solutions | None
    solutions_path: str  # "" when there are none
    tutorials: IndexedTutorials | None
    index_path: str  # where the index was looked for ("" when nowhere)
    solutions_problem: str = ""  # why the run's own solutions could not be read

    def to_dict(self) -> dict[str, Any]:
        there = not self.index_path or (Path(self.index_path) / INDEX_DB).is_file()
        index = self.index_path + ("" if there else " (no index there)")
        return {"solutions": self.solutions_problem or self.solutions_path or None, "index": index or None}

    @property
    def no_index(self) -> str:
        return f"no trajectory index in {self.index_path}" if self.index_path else "no trajectory index named"


def account_sources(run_dir: Path, settings: Any = None, read_index: bool = True) -> AccountSources:
    """Where the account of `run_dir` reads from; `settings` is the ReportSettings (defaults when None). The index
    is read only when `read_index` and there are reference solutions to compare with (a large index takes a while,
    and without a reference it decides nothing)."""
    from settings.schema import ReportSettings

    settings = settings or ReportSettings()
    if settings.account_tolerance_s < 0:
        raise UserError(f"report.account_tolerance_s is {settings.account_tolerance_s}; give seconds >= 0, e.g. 1.0")
    manifest = read_json(Path(run_dir) / RUN_FILE) or {}
    identity = manifest.get("identity") or {}
    # Named in the settings: must be there. Found from the run: may have moved since (the account then says so).
    solutions, problem = None, ""
    solutions_path = settings.account_solutions or _solutions_beside(identity.get("tasks")) or identity.get("solutions")
    if settings.account_solutions:
        solutions = load_solutions(settings.account_solutions)
    elif solutions_path:
        try:
            solutions = load_solutions(solutions_path)
        except UserError as exc:
            problem = str(exc)
    index_path = settings.account_index or _run_index(manifest)
    tutorials = None
    if index_path and read_index and solutions is not None:
        tutorials = IndexedTutorials.load(Path(index_path), settings.account_tolerance_s)
    if settings.account_index and not (Path(settings.account_index) / INDEX_DB).is_file():
        raise UserError(f"report.account_index {settings.account_index} holds no trajectory index "
                        "(trajectories.sqlite); pass the folder process-videos wrote, or leave it empty")
    return AccountSources(solutions, str(solutions_path or ""), tutorials, str(index_path or ""), problem)


def _solutions_beside(tasks: Any) -> str | None:
    if not tasks:
        return None
    folder = Path(tasks).parent / "solutions"
    return str(folder) if folder.is_dir() else None


def _run_index(manifest: dict[str, Any]) -> str | None:
    sessions = manifest.get("sessions") or []
    settings = (sessions[-1].get("settings") or {}) if sessions else {}
    named = (settings.get("agent") or {}).get("index_dir")
    if named:
        return str(Path(named).expanduser())
    cache = (settings.get("paths") or {}).get("cache_dir")
    return str(Path(cache) / "index") if cache else None


def account_run(run_dir: Path, settings: Any = None, records: list[TaskRecord] | None = None) -> AccountSources:
    """Write `lost_at` into every failed task's record (and take it off the others); returns where it read from.
    `records` (the run's, read once by the caller) are updated in place. The task pages show the account once
    `write_run_outputs` writes them."""
    records = iter_records(run_dir) if records is None else records
    sources = account_sources(run_dir, settings, read_index=any(r.status == "failed" for r in records))
    for record in records:
        folder = Path(run_dir) / TASKS_DIR / str(record.folder)
        account = task_account(record, read_json(folder / EPISODE_FILE), sources)
        if record.lost_at == account:
            continue
        if account is None:
            record.drop("lost_at")
        else:
            record.lost_at = account
        record.save(folder)
    return sources


def task_account(record: TaskRecord, episode: dict[str, Any] | None, sources: AccountSources) -> dict | None:
    """The account of one task: None unless it failed."""
    if record.status != "failed":
        return None
    steps, missing = None, "no reference solution for this task"
    if sources.solutions_problem:
        missing += f" ({sources.solutions_problem})"
    elif sources.solutions is None:
        missing += " (none beside its task configs; `videodemo report --solutions FILE_OR_DIR`)"
    else:
        try:
            solution = sources.solutions.find(str(record.source), record.task_id)
        except UserError as exc:
            solution, missing = None, str(exc)
        if solution is not None:
            steps = reference_steps(solution.actions)
        else:
            missing += f" in {sources.solutions_path}"
    return lost_at(record, episode, steps, sources.tutorials, missing, sources.no_index)


# ---- counts and moves ------------------------------------------------------------------------------


def lost_counts(records: list[TaskRecord]) -> dict[str, Any]:
    """Failed tasks per stage (a failed task with no account yet counts as "unknown"; one the report counts as failed
    but that errored, `--errors fail`, is not among them)."""
    tasks: dict[str, list[str]] = {stage: [] for stage in STAGES}
    for record in records:
        stage = stage_of(record)
        if stage in tasks:
            tasks[stage].append(str(record.task_key))
    return {"counts": {stage: len(keys) for stage, keys in tasks.items()}, "tasks": tasks}


def stage_of(record: TaskRecord) -> str:
    """A task's stage for the account: where it was lost when it failed, else its status (as the report counts it;
    an error counted as a failure is "error")."""
    if record.status != "failed":
        return str(record.status)
    if record.recorded_status not in (None, "failed"):
        return str(record.recorded_status)
    account = record.lost_at
    return account["stage"] if isinstance(account, dict) and account.get("stage") in STAGES else "unknown"


def _words(stage: str) -> str:
    return stage.replace("_", " ")


def lost_text(summary: dict[str, Any]) -> str:
    """The run's failed tasks per stage, with the keys, as printed under its table."""
    found = summary.get("lost_at") or {}
    counts = found.get("counts") or {}
    failed = sum(counts.values())
    if not failed:
        return ""
    sources = "; ".join(f"{name}: {value}" for name, value in (found.get("sources") or {}).items() if value)
    width = max(len(_words(stage)) for stage in STAGES)
    lines = []
    for stage in STAGES:
        if counts.get(stage):
            keys = found["tasks"][stage]
            listed = ", ".join(keys[:12]) + (" ..." if len(keys) > 12 else "")
            lines.append(f"  {_words(stage):<{width}}  {counts[stage]:>3}  {listed}")
    title = f"where the {failed} failed task(s) were lost (first stage against the reference solution"
    return f"{title}{'; ' + sources if sources else ''}):\n" + "\n".join(lines)


def stage_table(labels: list[str], summaries: list[dict[str, Any]]) -> str:
    """Failed tasks per stage, a column per run."""
    counts = [(summary.get("lost_at") or {}).get("counts") or {} for summary in summaries]
    shown = [stage for stage in STAGES if any(count.get(stage) for count in counts)]
    if not shown:
        return ""
    width = max(len(_words(stage)) for stage in shown)
    cells = [max(len(label), 5) for label in labels]
    lines = ["  " + " " * width + "".join(f"  {label:>{cell}}" for label, cell in zip(labels, cells))]
    for stage in shown:
        row = "".join(f"  {count.get(stage, 0):>{cell}}" for count, cell in zip(counts, cells))
        lines.append(f"  {_words(stage):<{width}}{row}")
    return "where the failed tasks were lost, per run (all samples):\n" + "\n".join(lines)


def moves(first: list[TaskRecord], other: list[TaskRecord]) -> list[tuple[str, str, list[str]]]:
    """(stage in the first run, stage in the other, task keys) for tasks of both whose stage differs."""
    before = {record.task_key: stage_of(record) for record in first}
    moved: dict[tuple[str, str], list[str]] = {}
    for record in other:
        key = record.task_key
        if key in before and before[key] != stage_of(record):
            moved.setdefault((before[key], stage_of(record)), []).append(key)
    order = {stage: n for n, stage in enumerate(("passed", *STAGES))}
    return sorted(((a, b, keys) for (a, b), keys in moved.items()),
                  key=lambda row: (order.get(row[0], 99), order.get(row[1], 99)))  # fmt: skip


def moves_text(index: int, first: list[TaskRecord], other: list[TaskRecord], several: bool) -> str:
    rows = moves(first, other)
    note = ", first sample of each" if several else ""
    title = f"where tasks moved, run 1 -> run {index} (tasks whose stage differs{note}):"
    if not rows:
        return f"{title} none"
    first_width = max(len(_words(a)) for a, _, _ in rows)
    second_width = max(len(_words(b)) for _, b, _ in rows)
    lines = [
        f"  {_words(a):<{first_width}} -> {_words(b):<{second_width}}  {len(keys):>3}  "
        + ", ".join(keys[:10]) + (" ..." if len(keys) > 10 else "")
        for a, b, keys in rows
    ]
    return title + "\n" + "\n".join(lines)
