"""Helpers for the reddit site (Postmill, or the sandbox forum that mirrors its page structure).

The comment readers build the page's comment tree the way the reference does: the
root stands for the whole `#main` block (its fields are the first author link,
score, comment text and comment time found in it), and each `.comment` whose
`data-level` is one deeper than its parent's becomes that parent's child.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import urlparse

from evaluation.scoring.site_helpers.generic import evaluate_or

_COMMENT_TREE_JS = """() => {
  const read = (node, level) => {
    const tree = {
      username: node.querySelector('.fg-inherit').outerText,
      net_score: parseInt(node.querySelector('.vote__net-score').outerText),
      content: node.querySelector('.comment__content').outerText,
      time: node.querySelector('.comment__main > header > h1 > span > time').dateTime,
      children: [],
    };
    node.querySelectorAll('.comment').forEach((child) => {
      if (parseInt(child.getAttribute('data-level')) === level + 1) tree.children.push(read(child, level + 1));
    });
    return tree;
  };
  return read(document.querySelector('#main'), 0);
}"""


def reddit_get_post_url(url: str) -> str:
    """The post a URL belongs to: `/f/<forum>/<id>/...` -> `/f/<forum>/<id>/`; other URLs unchanged."""
    parsed = urlparse(url)
    parts = parsed.path.split("/")
    if len(parts) < 4 or parts[1] != "f":
        return url
    return f"{parsed.scheme}://{parsed.netloc}/f/{parts[2]}/{parts[3]}/"


def reddit_get_post_comment_tree(page: Any) -> dict[str, Any]:
    """The comment tree of the post page shown; {} when the page has none (a page without comments
    fails to read, as in the reference, because the root needs a comment's text and time)."""
    tree = evaluate_or(page, _COMMENT_TREE_JS, {})
    return tree if isinstance(tree, dict) else {}


def _time(node: dict[str, Any]) -> datetime:
    # ISO 8601 from the <time datetime> attribute; naive and aware times are compared as written.
    return datetime.fromisoformat(str(node["time"]).replace("Z", "+00:00")).replace(tzinfo=None)


def _summary(node: dict[str, Any]) -> dict[str, Any]:
    return {key: node[key] for key in ("username", "net_score", "content", "time")}


def reddit_get_latest_comment_obj_by_username(page: Any, username: str) -> dict[str, Any]:
    """The user's newest comment on the page (username, net_score, content, time); {} when none."""
    found: dict[str, Any] = {"comment": {}, "time": datetime.min}

    # Depth first in page order, so that of equal times the first comment found is kept.
    def visit(node: dict[str, Any]) -> None:
        if node.get("username") == username and _time(node) > found["time"]:
            found["comment"], found["time"] = _summary(node), _time(node)
        for child in node.get("children", []):
            visit(child)

    try:
        visit(reddit_get_post_comment_tree(page))
    except (KeyError, TypeError, ValueError):
        return {}
    return found["comment"]


def reddit_get_latest_comment_content_by_username(page: Any, username: str) -> str:
    return str(reddit_get_latest_comment_obj_by_username(page, username).get("content", ""))


def reddit_get_parent_comment_obj_of_latest_comment_by_username(page: Any, username: str) -> dict[str, Any]:
    """The comment (or, for a top-level comment, the root) that the user's newest comment answers; {} when none.

    As in the reference, the search does not go below a comment by the user, so a reply the
    user wrote to their own comment is not considered.
    """
    found: dict[str, Any] = {"parent": {}, "time": datetime.min}

    def visit(node: dict[str, Any]) -> None:
        for child in node.get("children", []):
            if child.get("username") == username:
                if _time(child) > found["time"]:
                    found["parent"], found["time"] = _summary(node), _time(child)
            else:
                visit(child)

    try:
        visit(reddit_get_post_comment_tree(page))
    except (KeyError, TypeError, ValueError):
        return {}
    return found["parent"]


def reddit_get_parent_comment_username_of_latest_comment_by_username(page: Any, username: str) -> str:
    return str(reddit_get_parent_comment_obj_of_latest_comment_by_username(page, username).get("username", ""))
