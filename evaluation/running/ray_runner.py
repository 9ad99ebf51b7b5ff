"""`videodemo run --ray [ADDRESS]`: the shared-phase tasks as Ray actor calls instead of worker processes.

Each actor is one worker of `--workers`: its own TaskRunner (one browser), reused for
every task it is given, writing records into the same run folder, so resume, `report`
and `rescore` do not know which way a run was made. The reset tasks stay in the
driver, one at a time, as with `--workers`. An actor that dies is restarted by Ray
and its task is tried again; a record already written is never run twice, because a
task is handed out only once and the restart checks the folder like a resume.

Ray itself is reached through model_access/ray_cluster.py, only when `--ray` is given.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any, Callable

from foundation.errors import UserError
from model_access.ray_cluster import ACTOR_RESTARTS, connect, import_ray, release, start_endpoint_limits, use_endpoint_limits
from foundation.records.task_record import TaskRecord
from settings import Settings

class TaskWorker:
    """One Ray actor: a TaskRunner and its browser, kept for every task the actor is given."""

    def __init__(self, settings: Settings, policy: str, args: argparse.Namespace, run_dir: str) -> None:
        from evaluation.running.task_runner import TaskRunner

        use_endpoint_limits()
        self.run_dir = Path(run_dir)
        self.runner = TaskRunner(settings, policy, args, self.run_dir, concurrent=True)

    def run(self, task: Any) -> TaskRecord:
        from evaluation.running.run_records import task_folder
        from evaluation.running.task_record import is_finished, iter_records, record_summary

        # A retried call after a restart: the first try may have written its record already.
        if is_finished(task_folder(self.run_dir, task.key), False):
            for record in iter_records(self.run_dir):
                if record.task_key == task.key:
                    return record_summary(record)
        return record_summary(self.runner.run(task))

    def pid(self) -> int:
        return os.getpid()

    def close(self) -> None:
        self.runner.close()


def run_in_ray(
    tasks: list[Any],
    settings: Settings,
    policy: str,
    policy_args: argparse.Namespace,
    run_dir: Path,
    workers: int,
    address: str,
    on_record: Callable[[TaskRecord], None],
) -> None:
    """Run `tasks` on `workers` Ray actors, calling `on_record` with each finished task's summary."""
    ray = import_ray()
    started_here = not ray.is_initialized()
    connect(address, workers)
    limits = start_endpoint_limits(ray, settings)
    remote_worker = ray.remote(num_cpus=1, max_restarts=ACTOR_RESTARTS, max_task_retries=ACTOR_RESTARTS)(TaskWorker)
    actors = [remote_worker.remote(settings, policy, policy_args, str(run_dir)) for _ in range(workers)]
    queue = list(tasks)
    running: dict[Any, Any] = {}  # object ref -> actor

    def hand_out(actor) -> None:
        if queue:
            running[actor.run.remote(queue.pop(0))] = actor

    for actor in actors:
        hand_out(actor)
    try:
        while running:
            [ready], _ = ray.wait(list(running), num_returns=1)
            actor = running.pop(ready)
            try:
                on_record(ray.get(ready))
            except ray.exceptions.RayError as exc:
                raise UserError(
                    f"a Ray worker failed for good ({type(exc).__name__}); run the same command again to finish"
                ) from None
            hand_out(actor)
    finally:
        release(ray, actors, limits, started_here)


__all__ = ["run_in_ray"]
