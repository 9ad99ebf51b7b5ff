"""Reading and writing the forum database. Views call these; no SQL lives in views."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

PAGE_SIZE = 25


@dataclass
class Page:
    """One page of a listing and whether another follows."""

    items: list[dict[str, Any]]
    number: int
    has_more: bool


def page_of(rows: list[Any], number: int) -> Page:
    """Rows fetched with LIMIT PAGE_SIZE + 1 become a page that knows if there is more."""
    items = [dict(row) for row in rows[:PAGE_SIZE]]
    return Page(items, number, len(rows) > PAGE_SIZE)


def offset_for(number: int) -> int:
    return (max(number, 1) - 1) * PAGE_SIZE


def site_counts(db: sqlite3.Connection) -> dict[str, int]:
    """Row counts shown by the sandbox health endpoint."""
    return {
        table: db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        for table in ("forums", "submissions", "comments", "users")
    }
