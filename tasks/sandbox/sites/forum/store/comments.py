"""Comments: threads under a post, one thread, lists by user or forum, and changes."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

from tasks.sandbox.sites.forum.store import PAGE_SIZE, Page, offset_for, page_of
from tasks.sandbox.sites.forum.store.submissions import search_query

# How replies are ordered at every level of a thread. Postmill's default is by score.
THREAD_ORDERS = {
    "top": lambda c: (-c["net_score"], c["id"]),
    "new": lambda c: -c["id"],
    "old": lambda c: c["id"],
}

_SELECT = """
SELECT c.*, u.username AS username, coalesce(v.choice, 0) AS user_choice
FROM comments c
JOIN users u ON u.id = c.user_id
LEFT JOIN comment_votes v ON v.comment_id = c.id AND v.user_id = :viewer
"""

# A comment with where it sits: its post, forum and the author of the comment it answers.
_SELECT_WITH_CONTEXT = """
SELECT c.*, u.username AS username, coalesce(v.choice, 0) AS user_choice,
       s.title AS submission_title, s.user_id AS submission_user_id, f.name AS forum_name,
       su.username AS submission_username, pu.username AS parent_username
FROM comments c
JOIN users u ON u.id = c.user_id
JOIN submissions s ON s.id = c.submission_id
JOIN forums f ON f.id = s.forum_id
JOIN users su ON su.id = s.user_id
LEFT JOIN comments p ON p.id = c.parent_id
LEFT JOIN users pu ON pu.id = p.user_id
LEFT JOIN comment_votes v ON v.comment_id = c.id AND v.user_id = :viewer
"""


def comment_tree(
    db: sqlite3.Connection, submission_id: int, viewer_id: int | None, order: str = "top", root_id: int | None = None
) -> list[dict[str, Any]]:
    """The comments of a post as nested dicts (`children`), every level sorted by `order`.

    With `root_id`, only that comment and the replies under it.
    """
    rows = db.execute(_SELECT + " WHERE c.submission_id = :sid", {"sid": submission_id, "viewer": viewer_id})
    nodes = {row["id"]: dict(row, children=[]) for row in rows}
    roots = []
    for node in nodes.values():
        parent = nodes.get(node["parent_id"])
        (parent["children"] if parent else roots).append(node)
    key = THREAD_ORDERS[order]
    for node in nodes.values():
        node["children"].sort(key=key)
    if root_id is not None:
        return [nodes[root_id]] if root_id in nodes else []
    return sorted(roots, key=key)


def get_comment(db: sqlite3.Connection, comment_id: int, viewer_id: int | None = None) -> dict[str, Any] | None:
    row = db.execute(_SELECT_WITH_CONTEXT + " WHERE c.id = :id", {"id": comment_id, "viewer": viewer_id}).fetchone()
    return dict(row) if row else None


def user_comments(db: sqlite3.Connection, user_id: int, viewer_id: int | None, page: int = 1) -> Page:
    """A user's comments, newest first, each with its context."""
    rows = db.execute(
        _SELECT_WITH_CONTEXT + " WHERE c.user_id = :user AND c.soft_deleted = 0"
        " ORDER BY c.created_at DESC, c.id DESC LIMIT :limit OFFSET :offset",
        {"user": user_id, "viewer": viewer_id, "limit": PAGE_SIZE + 1, "offset": offset_for(page)},
    ).fetchall()
    return page_of(rows, page)


def recent_comments(db: sqlite3.Connection, viewer_id: int | None, forum_id: int | None, page: int = 1) -> Page:
    """The newest comments site-wide or in one forum."""
    where = " WHERE c.soft_deleted = 0" + (" AND s.forum_id = :forum" if forum_id is not None else "")
    rows = db.execute(
        _SELECT_WITH_CONTEXT + where + " ORDER BY c.created_at DESC, c.id DESC LIMIT :limit OFFSET :offset",
        {"forum": forum_id, "viewer": viewer_id, "limit": PAGE_SIZE + 1, "offset": offset_for(page)},
    ).fetchall()
    return page_of(rows, page)


def search_comments(db: sqlite3.Connection, text: str, viewer_id: int | None, limit: int = 50) -> list[dict]:
    query = search_query(text)
    if not query:
        return []
    rows = db.execute(
        _SELECT_WITH_CONTEXT + " JOIN comment_search ON comment_search.rowid = c.id"
        " WHERE comment_search MATCH :query AND c.soft_deleted = 0"
        " ORDER BY bm25(comment_search), c.id DESC LIMIT :limit",
        {"query": query, "viewer": viewer_id, "limit": limit},
    )
    return [dict(row) for row in rows]


def create_comment(
    db: sqlite3.Connection, submission_id: int, parent_id: int | None, user_id: int, body: str
) -> int:
    """A new comment at the current time, upvoted by its author; the post's count and activity follow."""
    now = int(time.time())
    cursor = db.execute(
        "INSERT INTO comments (submission_id, parent_id, user_id, body, created_at, net_score)"
        " VALUES (?, ?, ?, ?, ?, 1)",
        (submission_id, parent_id, user_id, body, now),
    )
    db.execute("INSERT INTO comment_votes (user_id, comment_id, choice) VALUES (?, ?, 1)", (user_id, cursor.lastrowid))
    db.execute(
        "UPDATE submissions SET comment_count = comment_count + 1, last_active = ? WHERE id = ?",
        (now, submission_id),
    )
    db.commit()
    return cursor.lastrowid


def update_comment(db: sqlite3.Connection, comment_id: int, body: str) -> None:
    db.execute("UPDATE comments SET body = ?, edited_at = ? WHERE id = ?", (body, int(time.time()), comment_id))
    db.commit()


def delete_comment(db: sqlite3.Connection, comment: dict[str, Any]) -> None:
    """Remove a comment; one with replies keeps its place as '[deleted]' so the replies stay readable."""
    has_replies = db.execute("SELECT 1 FROM comments WHERE parent_id = ? LIMIT 1", (comment["id"],)).fetchone()
    if has_replies:
        db.execute("UPDATE comments SET soft_deleted = 1, body = '' WHERE id = ?", (comment["id"],))
    else:
        db.execute("DELETE FROM comments WHERE id = ?", (comment["id"],))
        db.execute(
            "UPDATE submissions SET comment_count = comment_count - 1 WHERE id = ?", (comment["submission_id"],)
        )
    db.commit()
