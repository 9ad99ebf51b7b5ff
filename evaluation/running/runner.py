"""`videodemo run`: play a set of tasks with a policy, score each, and keep everything in a run folder.

    videodemo run --tasks configs/ --policy scripted --solutions solutions/ --workers 4

Resuming: a task whose record exists is finished and skipped, so running the same
command again after a crash or Ctrl-C does only the rest. The default run folder is
named after the policy and a hash of its identity (tasks, filters, solutions, and the
settings the run reads: evaluation/running/run_identity.py), so the same command always
finds its own folder. A folder has one writer at a
time (foundation/folder_lock.py): a second command on it stops before touching it.

Scheduling: tasks that need a site reset (`require_reset`) change the state other
tasks read, and a reset under a running task would corrupt it. So a run has two
phases: first every other task, spread over `--workers` processes (each with its own
Chromium); then the reset tasks one at a time, each after resetting its sandbox
sites. The phases are the same whatever the worker count, so verdicts do not depend
on it (beyond what tasks that share a site do to each other, as in WebArena).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import queue
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from foundation.errors import UserError
from foundation.folder_lock import FolderLock
from foundation.progress_bar import Progress, progress_bar
from evaluation.running.run_manifest import check_identity, close_session, configuration_identity, open_session
from evaluation.running.run_identity import settings_identity
from evaluation.running.run_records import record_collisions, task_folder
from evaluation.running.task_record import is_finished, iter_records, record_summary
from foundation.records.task_record import TaskRecord
from evaluation.scoring.scoring_rules import scoring_rules
from settings import Settings

WORKER_POLL_S = 1.0
WORKER_EXIT_S = 30.0  # how long finished workers get to close their browsers before being stopped


@dataclass
class RunSpec:
    tasks_path: Path
    policy: str
    policy_args: argparse.Namespace
    out_dir: Path | None = None
    site: str | None = None
    kind: str | None = None
    ids: str | None = None
    workers: int = 1
    fresh: bool = False
    retry_errors: bool = False
    progress: bool = True
    ray: str | None = None  # None: processes; "": a local Ray; else the address of a Ray cluster

    def identity(self, settings: Settings) -> dict[str, Any]:
        """What makes two runs the same run (and names the default folder): the policy, the task selection, and
        the settings the run reads, the harness's and those its policy declares (evaluation/running/run_identity.py)."""
        from evaluation.running.policies import policy_reads

        solutions = getattr(self.policy_args, "solutions", None)
        return {
            "policy": self.policy,
            "tasks": str(Path(self.tasks_path).resolve()),
            "site": self.site,
            "kind": self.kind,
            "ids": self.ids,
            "solutions": str(Path(solutions).resolve()) if solutions else None,
            **settings_identity(settings, policy_reads(self.policy), getattr(self.policy_args, "harness", None)),
        }


def default_run_dir(settings: Settings, spec: RunSpec) -> Path:
    identity = configuration_identity(spec.identity(settings))
    digest = hashlib.sha1(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:8]
    name = Path(spec.tasks_path).stem or "tasks"
    policy = spec.policy.replace(":", "_").replace("/", "_")
    sample = f"-sample{settings.run.sample}" if settings.run.sample != 1 else ""
    return settings.paths.runs_dir / f"{policy}-{name}-{digest}{sample}"



@dataclass
class Tally:
    """Running counts for the progress bar."""

    finished: int = 0
    passed: int = 0
    scored: int = 0
    not_scored: int = 0
    statuses: dict[str, int] = field(default_factory=dict)

    def add(self, record: TaskRecord) -> None:
        self.finished += 1
        status = record.status
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if record.score is None:
            self.not_scored += 1
        else:
            self.scored += 1
            self.passed += int(record.score == 1.0)

    def postfix(self) -> str:
        rate = f"{self.passed / self.scored:.0%}" if self.scored else "-"
        return f"passed {self.passed}/{self.scored} scored ({rate}), not scored {self.not_scored}"


def select_tasks(spec: RunSpec, settings: Settings) -> list[Any]:
    from tasks.filters import filter_tasks
    from tasks.loading import load_task_set

    task_set = load_task_set(spec.tasks_path, settings=settings)
    for problem in task_set.file_problems:
        print(f"warning: {problem}", file=sys.stderr)
    tasks = filter_tasks(task_set.tasks, site=spec.site, kind=spec.kind, ids=spec.ids)
    if not tasks:
        raise UserError(f"no task in {spec.tasks_path} matches the selection; check --site, --kind and --ids")
    return tasks


def site_answers(url: str) -> bool:
    """Whether the server behind `url` answers at all (any HTTP status counts)."""
    import requests

    try:
        requests.get(url, timeout=10, allow_redirects=False)
    except requests.RequestException:
        return False
    return True


def check_sites_answer(tasks: list[Any], settings: Settings) -> None:
    """Fail early, with the fix, when a site the tasks need does not answer."""
    from evaluation.browser_env.auth import site_base_url

    for site in sorted({site for task in tasks if not task.problems for site in task.sites}):
        url = site_base_url(site, settings)
        if not site_answers(url):
            raise UserError(
                f"the {site} site at {url} does not answer; start it (`videodemo sandbox serve --background` for "
                f"the sandbox sites) or point {site.upper()} at it"
            )


def check_record_collisions(tasks: list[Any], run_dir: Path) -> None:
    """Stop before anything runs when two tasks would write one record (one would silently replace the other)."""
    clashes = record_collisions(tasks, run_dir)
    if not clashes:
        return
    lines = [f"  {_named(a)} and {_named(b)} -> tasks/{task_folder(run_dir, a.key).name}" for a, b in clashes[:10]]
    more = f"\n  ... and {len(clashes) - 10} more" if len(clashes) > 10 else ""
    raise UserError(
        f"{len(clashes)} pair(s) of tasks would write the same record, so one would overwrite the other:\n"
        + "\n".join(lines) + more
        + "\ngive each task its own task_id within its file, or run the files separately (--ids, or one folder)"
    )


def _named(task: Any) -> str:
    intent = task.intent if len(task.intent) <= 50 else task.intent[:47] + "..."
    return f"{task.key} ({intent!r})"


def check_model_endpoints(settings: Settings) -> None:
    """Ask each configured chat role's server once before any task: policies use theirs, and the
    evaluators use judge and vlm whenever they are configured. One line naming a dead role stops the run."""
    from model_access import ROLES
    from model_access.client import ModelClient
    from model_access.health import check_endpoints

    if not settings.models.check_before_run:
        return
    with ModelClient(settings) as client:
        check_endpoints(client, [role for role in ROLES if client.is_configured(role)])


def _stop_if_endpoint_down() -> None:
    """A role whose server stopped answering ends the run: tasks finished so far keep their records."""
    from model_access.health import endpoints_down

    down = endpoints_down()
    if down:
        raise UserError(f"run stopped (resume with the same command): {down[0]}")


def run(spec: RunSpec, settings: Settings) -> Path:
    """Run every unfinished task of the selection; returns the run folder."""
    from evaluation.running.policies import load_factory

    load_factory(spec.policy)  # an unknown policy is reported before any folder is made
    tasks = select_tasks(spec, settings)
    scoring_rules(settings, tasks)  # an unknown rule set, or AgentOccam's task file missing, stops the run here
    run_dir = Path(spec.out_dir) if spec.out_dir else default_run_dir(settings, spec)
    check_record_collisions(tasks, run_dir)  # before --fresh removes anything
    # One command per run folder: a second one would delete (--fresh) or overwrite the first's records,
    # and its site resets would change the first's scores.
    with FolderLock(run_dir, advice="wait for it to end, or run beside it with another --out DIR") as lock:
        if spec.fresh:
            lock.clear_folder()
        _run_in_folder(spec, settings, tasks, run_dir)
    return run_dir


def _run_in_folder(spec: RunSpec, settings: Settings, tasks: list[Any], run_dir: Path) -> None:
    """The run itself, in a folder this command holds. Its summary and pages are the caller's to write
    (evaluation.reports.report.write_run_outputs): the reports stand above the runs they read."""
    identity = spec.identity(settings)
    check_identity(run_dir, identity)
    print(f"run folder: {run_dir} (the same command resumes it)", file=sys.stderr)

    tally = Tally()
    done_records = {record.task_key: record for record in iter_records(run_dir)}
    pending = []
    for task in tasks:
        if is_finished(task_folder(run_dir, task.key), spec.retry_errors):
            tally.add(done_records.get(task.key) or TaskRecord())
        else:
            pending.append(task)
    if pending:
        check_model_endpoints(settings)
        check_sites_answer(pending, settings)
    run_dir.mkdir(parents=True, exist_ok=True)
    open_session(run_dir, identity, settings, spec.workers)
    shared = [task for task in pending if not task.require_reset]
    resetting = [task for task in pending if task.require_reset]
    if tally.finished:
        message = f"{tally.finished} task(s) already finished in this folder; running the other {len(pending)}"
        print(message, file=sys.stderr)

    bar = _progress_bar(len(tasks), tally, spec.progress)
    outcome = "interrupted"
    local = _LocalRunner(spec, settings, run_dir, _task_line(bar, tally) if bar.live else None)
    try:
        workers = max(1, min(spec.workers, len(shared)))
        from model_access.health import forget_endpoints_down

        forget_endpoints_down()
        if spec.ray is not None and shared:
            _run_on_ray(shared, spec, settings, run_dir, workers, tally, bar)
        elif workers > 1:
            _run_in_workers(shared, spec, settings, run_dir, workers, tally, bar)
        else:
            for task in shared:
                _advance(bar, tally, local.run(task, reset_first=False))
                _stop_if_endpoint_down()
        for task in resetting:
            _advance(bar, tally, local.run(task, reset_first=True))
            _stop_if_endpoint_down()
        outcome = "finished"
    finally:
        local.close()
        bar.close()
        close_session(run_dir, outcome)


def _progress_bar(total: int, tally: Tally, enabled: bool) -> Progress:
    """A bar on a terminal; in a log, one line per finished task (foundation/progress_bar.py)."""
    bar = progress_bar(total, desc="tasks", unit="task", initial=tally.finished, enabled=enabled)
    bar.status(tally.postfix())
    return bar


def _task_line(bar: Progress, tally: Tally) -> Callable[[str], None]:
    """Shows what the task in play is doing (its step, the model calls so far) after the run's counts."""
    return lambda line: bar.status(f"{tally.postfix()} | {line}")


def _advance(bar: Progress, tally: Tally, record: TaskRecord) -> None:
    tally.add(record)
    bar.advance(_finished_line(record))
    bar.status(tally.postfix())


def _finished_line(record: TaskRecord) -> str:
    """`forum:42 passed (3 step(s), 8.1 s)`: a finished task, as a log's progress line tells it."""
    details = []
    if record.steps is not None:
        details.append(f"{record.steps} step(s)")
    seconds = (record.timings or {}).get("total_s")
    if seconds is not None:
        details.append(f"{seconds:.1f} s")
    said = f" ({', '.join(details)})" if details else ""
    return f"{record.task_key} {record.status}{said}"


class _LocalRunner:
    """The TaskRunner of this process, started at its first task (a run of workers may need none)."""

    def __init__(self, spec: RunSpec, settings: Settings, run_dir: Path, progress=None) -> None:
        self.spec, self.settings, self.run_dir = spec, settings, run_dir
        self.progress = progress
        self.runner = None

    def run(self, task: Any, *, reset_first: bool) -> TaskRecord:
        if self.runner is None:
            from evaluation.running.task_runner import TaskRunner

            self.runner = TaskRunner(
                self.settings, self.spec.policy, self.spec.policy_args, self.run_dir, progress=self.progress
            )
        return self.runner.run(task, reset_first=reset_first)

    def close(self) -> None:
        if self.runner is not None:
            self.runner.close()


# ---- parallel workers ----


def _run_on_ray(
    tasks, spec: RunSpec, settings: Settings, run_dir: Path, workers: int, tally: Tally, bar: Progress
) -> None:
    from evaluation.running.ray_runner import run_in_ray

    args = _policy_args_for_workers(spec.policy_args)
    on_record = lambda record: _advance(bar, tally, record)  # noqa: E731
    run_in_ray(tasks, settings, spec.policy, args, run_dir, workers, spec.ray, on_record)


def _policy_args_for_workers(args: argparse.Namespace) -> argparse.Namespace:
    """The options a policy may read, without the CLI's handler function."""
    return argparse.Namespace(**{key: value for key, value in vars(args).items() if not callable(value)})


def _run_in_workers(
    tasks, spec: RunSpec, settings: Settings, run_dir: Path, workers: int, tally: Tally, bar: Progress
) -> None:
    context = multiprocessing.get_context("spawn")
    jobs = context.Queue()
    results = context.Queue()
    for task in tasks:
        jobs.put(task)
    for _ in range(workers):
        jobs.put(None)
    args = _policy_args_for_workers(spec.policy_args)
    processes = [
        context.Process(
            target=_worker_main,
            args=(settings, spec.policy, args, str(run_dir), jobs, results, bar.live),
            daemon=True,
        )
        for _ in range(workers)
    ]
    for process in processes:
        process.start()
    in_play: dict[int, str] = {}  # worker pid -> what its task is doing, for the progress line
    try:
        remaining = len(tasks)
        while remaining:
            try:
                kind, payload = results.get(timeout=WORKER_POLL_S)
            except queue.Empty:
                if not any(process.is_alive() for process in processes):
                    raise UserError(
                        f"every worker stopped with {remaining} task(s) left; see the messages above, "
                        "then run the same command again to finish"
                    ) from None
                continue
            if kind == "record":
                remaining -= 1
                _advance(bar, tally, payload)
            elif kind == "progress":
                pid, line = payload
                in_play[pid] = line
                bar.status(f"{tally.postfix()} | " + "; ".join(in_play.values()))
            elif kind == "failed":
                bar.write(f"a worker stopped: {payload}")
        # Every worker has its stop sentinel: let it close its browser and exit on its own, since
        # terminating it mid-close leaks what its libraries hold (semaphores, Chromium processes).
        deadline = time.monotonic() + WORKER_EXIT_S
        for process in processes:
            process.join(timeout=max(0.0, deadline - time.monotonic()))
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=10)
        for channel in (jobs, results):
            channel.close()
            channel.cancel_join_thread()


def _worker_main(settings: Settings, policy: str, args, run_dir: str, jobs, results, progress: bool = False) -> None:
    """One worker process: its own browser and policy; takes tasks until told to stop."""
    _exit_with_parent()
    from evaluation.running.task_runner import TaskRunner

    pid = os.getpid()
    tell = (lambda line: results.put(("progress", (pid, line)))) if progress else None
    try:
        runner = TaskRunner(settings, policy, args, Path(run_dir), concurrent=True, progress=tell)
    except Exception as exc:  # noqa: BLE001 - reported to the parent, which decides
        results.put(("failed", f"{type(exc).__name__}: {exc}"))
        return
    try:
        while True:
            task = jobs.get()
            if task is None:
                break
            results.put(("record", record_summary(runner.run(task))))
    except KeyboardInterrupt:
        pass
    finally:
        runner.close()


def _exit_with_parent() -> None:
    """A worker whose parent was killed stops instead of running on, unseen, beside a resumed run."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(WORKER_POLL_S)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


__all__ = ["RunSpec", "default_run_dir", "run"]
