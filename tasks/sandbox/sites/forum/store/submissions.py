"""Submissions: listings in every sort order, one post, search, and changes."""

from __future__ import annotations

import re
import sqlite3
import time
from typing import Any

from tasks.sandbox.sites.forum.store import PAGE_SIZE, Page, offset_for, page_of

SORTS = ("hot", "new", "active", "top", "controversial", "most_commented")
TIME_WINDOWS: dict[str, int | None] = {
    "day": 86400,
    "week": 7 * 86400,
    "month": 30 * 86400,
    "year": 365 * 86400,
    "all": None,
}
# Hot = age with a bounded bonus for score: a well-liked post rises by at most a day,
# a disliked one sinks by at most half a day.
_HOT_RANK = "(s.created_at + max(-43200, min(86400, s.net_score * 1800)))"
_ORDER_BY = {
    "hot": f"{_HOT_RANK} DESC, s.id DESC",
    "new": "s.id DESC",
    "active": "s.last_active DESC, s.id DESC",
    "top": "s.net_score DESC, s.id DESC",
    "controversial": "s.net_score ASC, s.id ASC",
    "most_commented": "s.comment_count DESC, s.id DESC",
}

_SELECT = """
SELECT s.*, f.name AS forum_name, u.username AS username, coalesce(v.choice, 0) AS user_choice
FROM submissions s
JOIN forums f ON f.id = s.forum_id
JOIN users u ON u.id = s.user_id
LEFT JOIN submission_votes v ON v.submission_id = s.id AND v.user_id = :viewer
"""


def list_submissions(
    db: sqlite3.Connection,
    viewer_id: int | None,
    sort: str = "hot",
    window: str = "all",
    page: int = 1,
    forum_id: int | None = None,
    user_id: int | None = None,
) -> Page:
    """One page of submissions, optionally limited to a forum, an author and a time window."""
    where, params = [], {"viewer": viewer_id, "limit": PAGE_SIZE + 1, "offset": offset_for(page)}
    if forum_id is not None:
        where.append("s.forum_id = :forum")
        params["forum"] = forum_id
    if user_id is not None:
        where.append("s.user_id = :user")
        params["user"] = user_id
    if TIME_WINDOWS.get(window):
        where.append("s.created_at >= :since")
        params["since"] = int(time.time()) - TIME_WINDOWS[window]
    sql = _SELECT + (" WHERE " + " AND ".join(where) if where else "")
    sql += f" ORDER BY {_ORDER_BY[sort]} LIMIT :limit OFFSET :offset"
    return page_of(db.execute(sql, params).fetchall(), page)


def get_submission(db: sqlite3.Connection, submission_id: int, viewer_id: int | None) -> dict[str, Any] | None:
    row = db.execute(_SELECT + " WHERE s.id = :id", {"id": submission_id, "viewer": viewer_id}).fetchone()
    return dict(row) if row else None


def search_query(text: str) -> str:
    """User words to an FTS5 query that needs every word (each quoted, so no operators leak in)."""
    words = re.findall(r"\w+", text.lower())
    return " ".join(f'"{word}"' for word in words)


def search_submissions(db: sqlite3.Connection, text: str, viewer_id: int | None, limit: int = 50) -> list[dict]:
    query = search_query(text)
    if not query:
        return []
    rows = db.execute(
        _SELECT
        + " JOIN submission_search ON submission_search.rowid = s.id WHERE submission_search MATCH :query"
        " ORDER BY bm25(submission_search), s.id DESC LIMIT :limit",
        {"query": query, "viewer": viewer_id, "limit": limit},
    )
    return [dict(row) for row in rows]


def create_submission(
    db: sqlite3.Connection, user_id: int, forum_id: int, title: str, url: str | None, body: str | None
) -> int:
    """A new post at the current time, upvoted by its author as Postmill does."""
    now = int(time.time())
    cursor = db.execute(
        "INSERT INTO submissions (forum_id, user_id, title, url, body, created_at, last_active, net_score)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, 1)",
        (forum_id, user_id, title, url, body, now, now),
    )
    db.execute(
        "INSERT INTO submission_votes (user_id, submission_id, choice) VALUES (?, ?, 1)", (user_id, cursor.lastrowid)
    )
    db.commit()
    return cursor.lastrowid


def update_submission(
    db: sqlite3.Connection, submission_id: int, title: str, url: str | None, body: str | None
) -> None:
    db.execute(
        "UPDATE submissions SET title = ?, url = ?, body = ?, edited_at = ? WHERE id = ?",
        (title, url, body, int(time.time()), submission_id),
    )
    db.commit()


def delete_submission(db: sqlite3.Connection, submission_id: int) -> None:
    db.execute("DELETE FROM submissions WHERE id = ?", (submission_id,))
    db.commit()
