"""Submission listings (front page, forums), recent comments and search."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from tasks.sandbox.sites.forum.store import comments as comment_store
from tasks.sandbox.sites.forum.store import forums as forum_store
from tasks.sandbox.sites.forum.store import submissions as submission_store
from tasks.sandbox.sites.forum.web import canonical_forum_redirect, db, forum_or_404, page_number, viewer, viewer_id

bp = Blueprint("listings", __name__)

SORT = "<any(" + ",".join(submission_store.SORTS) + "):sort>"


def _window() -> str:
    window = request.args.get("t", "all")
    return window if window in submission_store.TIME_WINDOWS else "all"


@bp.get("/")
@bp.get(f"/{SORT}")
@bp.get("/all")
@bp.get(f"/all/{SORT}")
def front(sort: str | None = None):
    user = viewer()
    sort = sort or (user["front_page_sort"] if user else "hot")
    page = submission_store.list_submissions(db(), viewer_id(), sort=sort, window=_window(), page=page_number())
    subscriptions = forum_store.subscribed_forums(db(), user["id"]) if user else []
    return render_template(
        "front.html",
        listing=page,
        sort=sort,
        window=_window(),
        sort_base="/",
        subscriptions=subscriptions,
        forums=forum_store.list_forums(db(), viewer_id(), "by_name"),
    )


@bp.get("/f/<forum_name>")
@bp.get(f"/f/<forum_name>/{SORT}")
def forum(forum_name: str, sort: str = "hot"):
    forum = forum_or_404(forum_name)
    moved = canonical_forum_redirect(forum, forum_name)
    if moved:
        return moved
    page = submission_store.list_submissions(
        db(), viewer_id(), sort=sort, window=_window(), page=page_number(), forum_id=forum["id"]
    )
    return render_template(
        "forum.html", forum=forum, listing=page, sort=sort, window=_window(), sort_base=f"/f/{forum['name']}/"
    )


@bp.get("/comments")
@bp.get("/f/<forum_name>/comments")
def recent_comments(forum_name: str | None = None):
    forum = forum_or_404(forum_name) if forum_name else None
    if forum:
        moved = canonical_forum_redirect(forum, forum_name)
        if moved:
            return moved
    page = comment_store.recent_comments(db(), viewer_id(), forum["id"] if forum else None, page_number())
    return render_template("recent_comments.html", forum=forum, listing=page)


@bp.get("/search")
def search():
    query = request.args.get("q", "").strip()
    found_posts = submission_store.search_submissions(db(), query, viewer_id()) if query else []
    found_comments = comment_store.search_comments(db(), query, viewer_id()) if query else []
    return render_template("search.html", query=query, submissions=found_posts, comments=found_comments)
