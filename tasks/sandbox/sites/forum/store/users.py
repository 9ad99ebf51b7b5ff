"""Users: lookup, registration, biography, preferences and their activity."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

from werkzeug.security import check_password_hash, generate_password_hash

from tasks.sandbox.sites.forum.store import PAGE_SIZE, Page, offset_for
from tasks.sandbox.sites.forum.store.comments import user_comments
from tasks.sandbox.sites.forum.store.submissions import list_submissions

FRONT_PAGE_SORTS = ("hot", "new", "active", "top", "controversial", "most_commented")


def get_user(db: sqlite3.Connection, user_id: int) -> dict[str, Any] | None:
    row = db.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    return dict(row) if row else None


def find_user(db: sqlite3.Connection, username: str) -> dict[str, Any] | None:
    """A user by name, any letter case, with their post and comment counts."""
    row = db.execute(
        "SELECT u.*, (SELECT count(*) FROM submissions s WHERE s.user_id = u.id) AS submission_count,"
        " (SELECT count(*) FROM comments c WHERE c.user_id = u.id AND c.soft_deleted = 0) AS comment_count"
        " FROM users u WHERE u.username = ?",
        (username,),
    ).fetchone()
    return dict(row) if row else None


def authenticate(db: sqlite3.Connection, username: str, password: str) -> dict[str, Any] | None:
    user = find_user(db, username)
    if user and check_password_hash(user["password_hash"], password):
        return user
    return None


def create_user(db: sqlite3.Connection, username: str, password: str, email: str) -> int:
    cursor = db.execute(
        "INSERT INTO users (username, password_hash, email, created_at) VALUES (?, ?, ?, ?)",
        (username, generate_password_hash(password), email, int(time.time())),
    )
    db.commit()
    return cursor.lastrowid


def update_biography(db: sqlite3.Connection, user_id: int, biography: str) -> None:
    db.execute("UPDATE users SET biography = ? WHERE id = ?", (biography, user_id))
    db.commit()


def update_account(db: sqlite3.Connection, user_id: int, email: str, new_password: str | None) -> None:
    db.execute("UPDATE users SET email = ? WHERE id = ?", (email, user_id))
    if new_password:
        db.execute("UPDATE users SET password_hash = ? WHERE id = ?", (generate_password_hash(new_password), user_id))
    db.commit()


def update_preferences(
    db: sqlite3.Connection, user_id: int, front_page_sort: str, night_mode: bool, open_links_in_new_tab: bool,
    full_width_display: bool = False, show_thumbnails: bool = False,
) -> None:
    db.execute(
        "UPDATE users SET front_page_sort = ?, night_mode = ?, open_links_in_new_tab = ?, full_width_display = ?, "
        "show_thumbnails = ? WHERE id = ?",
        (front_page_sort, int(night_mode), int(open_links_in_new_tab), int(full_width_display), int(show_thumbnails),
         user_id),
    )
    db.commit()


def user_overview(db: sqlite3.Connection, user_id: int, viewer_id: int | None, page: int = 1) -> Page:
    """A user's posts and comments interleaved, newest first. Each item has `kind`."""
    wanted = offset_for(page) + PAGE_SIZE + 1
    # Enough of each kind to fill this page after merging.
    post_items = _all_pages(lambda n: list_submissions(db, viewer_id, sort="new", user_id=user_id, page=n), wanted)
    comment_items = _all_pages(lambda n: user_comments(db, user_id, viewer_id, page=n), wanted)
    merged = [dict(item, kind="submission") for item in post_items] + [
        dict(item, kind="comment") for item in comment_items
    ]
    merged.sort(key=lambda item: (item["created_at"], item["id"]), reverse=True)
    start = offset_for(page)
    return Page(merged[start : start + PAGE_SIZE], page, len(merged) > start + PAGE_SIZE)


def _all_pages(fetch, wanted: int) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    number = 1
    while len(items) < wanted:
        current = fetch(number)
        items += current.items
        if not current.has_more:
            break
        number += 1
    return items
