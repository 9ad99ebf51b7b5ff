"""BrowserGym names of our tasks: `videodemo.<source>.<task_id>` (`videodemo.shop.5` is our `shop:5`)."""

from __future__ import annotations

from pathlib import Path

from foundation.errors import UserError
from settings import Settings
from tasks.loading import SANDBOX_CONFIGS_DIR, Task, load_tasks

PREFIX = "videodemo"


def browsergym_name(task: Task) -> str:
    return f"{PREFIX}.{task.source}.{task.task_id}"


def task_key(name: str) -> str:
    """`videodemo.shop.5` (or `browsergym/videodemo.shop.5`) -> `shop:5`."""
    bare = name.removeprefix("browsergym/")
    parts = bare.split(".")
    if len(parts) < 3 or parts[0] != PREFIX:
        raise UserError(f"{name!r} is not a bridged task name; they look like {PREFIX}.<source>.<task_id>")
    return f"{'.'.join(parts[1:-1])}:{parts[-1]}"


def find_task(key: str, tasks_path: str | Path | None, settings: Settings) -> Task:
    """The task `source:task_id` among the configs at `tasks_path` (default: the sandbox's)."""
    for task in load_tasks(tasks_path or SANDBOX_CONFIGS_DIR, settings=settings):
        if task.key == key:
            return task
    raise UserError(f"no task {key} in {tasks_path or SANDBOX_CONFIGS_DIR}; `videodemo tasks list` shows the keys")
