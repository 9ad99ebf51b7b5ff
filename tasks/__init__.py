"""Tasks as data: loading VideoWA/WebArena configs, and the sandbox world (sites, tutorials, tasks)."""

from tasks.filters import filter_tasks
from tasks.loading import FileProblem, Task, TaskSet, load_task_set, load_tasks

__all__ = ["FileProblem", "Task", "TaskSet", "filter_tasks", "load_task_set", "load_tasks"]
