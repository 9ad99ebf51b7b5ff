"""Votes on submissions and comments: one choice per user, applied to the stored score."""

from __future__ import annotations

import sqlite3

# kind -> (vote table, its item column, scored table)
_TABLES = {
    "submission": ("submission_votes", "submission_id", "submissions"),
    "comment": ("comment_votes", "comment_id", "comments"),
}


def cast_vote(db: sqlite3.Connection, kind: str, item_id: int, user_id: int, choice: int) -> tuple[int, int] | None:
    """Set the user's vote to `choice` (1, -1, 0); voting the same way twice retracts.

    Returns (the user's choice now, the new net score), or None when the item is gone.
    """
    votes, column, scored = _TABLES[kind]
    if db.execute(f"SELECT 1 FROM {scored} WHERE id = ?", (item_id,)).fetchone() is None:
        return None
    row = db.execute(f"SELECT choice FROM {votes} WHERE user_id = ? AND {column} = ?", (user_id, item_id)).fetchone()
    old = row[0] if row else 0
    new = 0 if choice == old else choice
    if new == 0:
        db.execute(f"DELETE FROM {votes} WHERE user_id = ? AND {column} = ?", (user_id, item_id))
    else:
        db.execute(
            f"INSERT INTO {votes} (user_id, {column}, choice) VALUES (?, ?, ?)"
            f" ON CONFLICT (user_id, {column}) DO UPDATE SET choice = excluded.choice",
            (user_id, item_id, new),
        )
    db.execute(f"UPDATE {scored} SET net_score = net_score + ? WHERE id = ?", (new - old, item_id))
    db.commit()
    score = db.execute(f"SELECT net_score FROM {scored} WHERE id = ?", (item_id,)).fetchone()[0]
    return new, score
