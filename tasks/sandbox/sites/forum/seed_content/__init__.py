"""Hand-written seed text for the forum: forums, users, posts and comment pools, one YAML file each.

Only text lives here; `seed.py` decides authors, times, scores and threading. The files are
read into the shapes `seed.py` walks (lists of tuples, in the files' order).
"""

from __future__ import annotations

from pathlib import Path

import yaml

_HERE = Path(__file__).resolve().parent


def _read(name: str):
    return yaml.safe_load((_HERE / f"{name}.yaml").read_text(encoding="utf-8"))


Post = tuple[str, str | None, str | None]  # title, url, markdown body

# (name, title, description, sidebar markdown)
FORUMS: list[tuple[str, str, str, str]] = [
    (forum["name"], forum["title"], forum["description"], forum["sidebar"]) for forum in _read("forums")
]

_users = _read("users")
USERNAMES: list[str] = _users["usernames"]
BIOGRAPHIES: dict[str, str] = _users["biographies"]

_posts = _read("posts")
POSTS: dict[str, list[Post]] = {
    forum: [(post["title"], post.get("url"), post.get("body")) for post in posts]
    for forum, posts in _posts["posts"].items()
}
# (forum, title, url, body, created "YYYY-MM-DD HH:MM", net score)
OWN_POSTS: list[tuple[str, str, str | None, str | None, str, int]] = [
    (post["forum"], post["title"], post["url"], post["body"], post["created"], post["score"])
    for post in _posts["own_posts"]
]
# (forum, post title, text, parent: None for a top-level comment, "first" for a reply to the best one)
OWN_COMMENTS: list[tuple[str, str, str, str | None]] = [
    (comment["forum"], comment["post"], comment["text"], comment["parent"]) for comment in _posts["own_comments"]
]

_comments = _read("comments")
TOP_LEVEL: dict[str, list[str]] = _comments["top_level"]
GENERAL: list[str] = _comments["general"]
REPLIES: list[str] = _comments["replies"]
# (index into OWN_COMMENTS, author, text)
REPLIES_TO_OWN: list[tuple[int, str, str]] = [
    (reply["comment"], reply["author"], reply["text"]) for reply in _comments["replies_to_own"]
]
