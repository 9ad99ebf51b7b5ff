"""The request's database connection, the app-wide cache of static catalog data, and time."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from typing import Any

from flask import current_app

TIME_FORMAT = "%Y-%m-%d %H:%M:%S"


def db() -> sqlite3.Connection:
    return current_app.extensions["shop.get_db"]()


def static_cache() -> dict[str, Any]:
    """Data that no page can change (categories, the search index), computed once per process.

    A reset restores the seed, whose catalog is the same, so this never goes stale.
    """
    return current_app.extensions["shop.static_cache"]


def now_utc() -> str:
    """Current UTC time as Magento's API writes it, so new orders sort after the seeded ones."""
    return datetime.now(timezone.utc).strftime(TIME_FORMAT)


def parse_time(text: str) -> datetime:
    return datetime.strptime(text, TIME_FORMAT)
