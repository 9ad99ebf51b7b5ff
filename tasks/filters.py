"""Pick a subset of tasks by site, kind and id (shared by `tasks list` and the runner)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from foundation.errors import UserError
from tasks.loading import Task
from tasks.placeholders import KNOWN_SITES

KINDS = ("skill", "factual")
_RANGE = re.compile(r"^(\d+)-(\d+)$")


def filter_tasks(
    tasks: Iterable[Task],
    site: str | None = None,
    kind: str | None = None,
    ids: str | Iterable[int | str] | None = None,
) -> list[Task]:
    """Tasks that run on `site`, are of `kind` and whose id is in `ids`, in their original order.

    `ids` is a spec like "3,5,10-20" (ranges are inclusive) or a list of ids; an
    item with a colon ("test_shopping:3") matches a task's full key instead.
    """
    if site is not None and site not in KNOWN_SITES:
        raise UserError(f"unknown site {site!r}; choose one of: {', '.join(KNOWN_SITES)}")
    if kind is not None and kind not in KINDS:
        raise UserError(f"unknown task kind {kind!r}; choose skill or factual")
    wanted = IdSelection(ids) if ids is not None else None
    return [
        task
        for task in tasks
        if (site is None or site in task.sites)
        and (kind is None or task.kind == kind)
        and (wanted is None or wanted.matches(task))
    ]


class IdSelection:
    """A parsed id spec: single ids, inclusive numeric ranges and source:id keys."""

    def __init__(self, ids: str | Iterable[int | str]) -> None:
        items = ids.split(",") if isinstance(ids, str) else [str(item) for item in ids]
        self.singles: set[str] = set()
        self.keys: set[str] = set()
        self.ranges: list[tuple[int, int]] = []
        for raw in items:
            item = raw.strip()
            if not item:
                continue
            numeric_range = _RANGE.match(item)
            if numeric_range:
                low, high = int(numeric_range.group(1)), int(numeric_range.group(2))
                if low > high:
                    raise UserError(f"task id range {item!r} runs backwards; write it as {high}-{low}")
                self.ranges.append((low, high))
            elif ":" in item:
                self.keys.add(item)
            else:
                self.singles.add(item)
        if not (self.singles or self.keys or self.ranges):
            raise UserError(f"task id selection {ids!r} names no task; use ids like 3,5,10-20")

    def matches(self, task: Task) -> bool:
        if task.key in self.keys or str(task.task_id) in self.singles:
            return True
        number = _as_int(task.task_id)
        return number is not None and any(low <= number <= high for low, high in self.ranges)


def _as_int(task_id: int | str) -> int | None:
    if isinstance(task_id, int):
        return task_id
    return int(task_id) if task_id.isdigit() else None
