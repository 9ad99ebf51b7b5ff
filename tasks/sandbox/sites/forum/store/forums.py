"""Forums, their subscribers and moderators."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

FORUM_LIST_ORDERS = {
    "by_submissions": "submission_count DESC, f.name COLLATE NOCASE",
    "by_subscribers": "subscriber_count DESC, f.name COLLATE NOCASE",
    "by_name": "f.name COLLATE NOCASE",
    "by_title": "f.title COLLATE NOCASE",
}

_WITH_COUNTS = """
SELECT f.*,
       (SELECT count(*) FROM submissions s WHERE s.forum_id = f.id) AS submission_count,
       (SELECT count(*) FROM subscriptions x WHERE x.forum_id = f.id) AS subscriber_count,
       EXISTS (SELECT 1 FROM subscriptions x WHERE x.forum_id = f.id AND x.user_id = :viewer) AS subscribed,
       EXISTS (SELECT 1 FROM moderators m WHERE m.forum_id = f.id AND m.user_id = :viewer) AS moderated
FROM forums f
"""


def find_forum(db: sqlite3.Connection, name: str, viewer_id: int | None = None) -> dict[str, Any] | None:
    """A forum by name, any letter case, with its counts and the viewer's relation to it."""
    row = db.execute(_WITH_COUNTS + " WHERE f.name = :name", {"name": name, "viewer": viewer_id}).fetchone()
    return dict(row) if row else None


def list_forums(db: sqlite3.Connection, viewer_id: int | None, order: str = "by_submissions") -> list[dict[str, Any]]:
    rows = db.execute(_WITH_COUNTS + f" ORDER BY {FORUM_LIST_ORDERS[order]}", {"viewer": viewer_id})
    return [dict(row) for row in rows]


def forum_names(db: sqlite3.Connection) -> list[dict[str, Any]]:
    return [dict(row) for row in db.execute("SELECT id, name FROM forums ORDER BY name COLLATE NOCASE")]


def subscribed_forums(db: sqlite3.Connection, user_id: int) -> list[dict[str, Any]]:
    rows = db.execute(
        "SELECT f.id, f.name, f.title FROM subscriptions x JOIN forums f ON f.id = x.forum_id"
        " WHERE x.user_id = ? ORDER BY f.name COLLATE NOCASE",
        (user_id,),
    )
    return [dict(row) for row in rows]


def set_subscription(db: sqlite3.Connection, user_id: int, forum_id: int, subscribed: bool) -> None:
    if subscribed:
        db.execute(
            "INSERT OR IGNORE INTO subscriptions (user_id, forum_id, created_at) VALUES (?, ?, ?)",
            (user_id, forum_id, int(time.time())),
        )
    else:
        db.execute("DELETE FROM subscriptions WHERE user_id = ? AND forum_id = ?", (user_id, forum_id))
    db.commit()


def create_forum(db: sqlite3.Connection, user_id: int, name: str, title: str, description: str, sidebar: str) -> int:
    """A new forum; its creator moderates it and is subscribed to it."""
    now = int(time.time())
    cursor = db.execute(
        "INSERT INTO forums (name, title, description, sidebar, created_at) VALUES (?, ?, ?, ?, ?)",
        (name, title, description, sidebar, now),
    )
    forum_id = cursor.lastrowid
    db.execute("INSERT INTO moderators (forum_id, user_id) VALUES (?, ?)", (forum_id, user_id))
    db.execute("INSERT INTO subscriptions (user_id, forum_id, created_at) VALUES (?, ?, ?)", (user_id, forum_id, now))
    db.commit()
    return forum_id


def update_forum(db: sqlite3.Connection, forum_id: int, title: str, description: str, sidebar: str) -> None:
    db.execute(
        "UPDATE forums SET title = ?, description = ?, sidebar = ? WHERE id = ?",
        (title, description, sidebar, forum_id),
    )
    db.commit()
