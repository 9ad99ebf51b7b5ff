"""Comment permalinks, and posting, editing and deleting comments."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from tasks.sandbox.sites.forum.formatting import slugify
from tasks.sandbox.sites.forum.store import comments as comment_store
from tasks.sandbox.sites.forum.views.submissions import submission_or_404, submission_path
from tasks.sandbox.sites.forum.web import canonical_forum_redirect, db, forum_or_404, login_required, viewer_id

bp = Blueprint("comments", __name__)

MAX_COMMENT_LENGTH = 10000
SUBMISSION_PATH = "/f/<forum_name>/<int:submission_id>/<slug>"


def comment_path(forum_name: str, submission_id: int, comment_id: int, title: str | None = None) -> str:
    return url_for(
        "comments.permalink",
        forum_name=forum_name,
        submission_id=submission_id,
        slug=slugify(title) if title else "-",
        comment_id=comment_id,
    )


def comment_or_404(submission: dict[str, Any], comment_id: int) -> dict[str, Any]:
    comment = comment_store.get_comment(db(), comment_id, viewer_id())
    if comment is None or comment["submission_id"] != submission["id"]:
        abort(404, description="That comment does not exist (it may have been deleted).")
    return comment


def own_comment_or_403(submission: dict[str, Any], comment_id: int) -> dict[str, Any]:
    comment = comment_or_404(submission, comment_id)
    if comment["user_id"] != viewer_id() or comment["soft_deleted"]:
        abort(403, description="You can only change your own comments.")
    return comment


def _body_error(body: str) -> str | None:
    if not body:
        return "The comment must not be empty."
    if len(body) > MAX_COMMENT_LENGTH:
        return f"The comment can have at most {MAX_COMMENT_LENGTH} characters."
    return None


@bp.get(SUBMISSION_PATH + "/comment/<int:comment_id>")
def permalink(forum_name: str, submission_id: int, slug: str, comment_id: int):
    post = submission_or_404(forum_name, submission_id)
    forum = forum_or_404(post["forum_name"])
    moved = canonical_forum_redirect(forum, forum_name)
    if moved:
        return moved
    comment_or_404(post, comment_id)
    thread = comment_store.comment_tree(db(), post["id"], viewer_id(), "top", root_id=comment_id)
    return render_template("comment_thread.html", submission=post, forum=forum, comments=thread, focus_id=comment_id)


@bp.get("/f/<forum_name>/<int:submission_id>/comment/<int:comment_id>")
def legacy_permalink(forum_name: str, submission_id: int, comment_id: int):
    return redirect(comment_path(forum_name, submission_id, comment_id), code=301)


@bp.post(SUBMISSION_PATH + "/comment")
@bp.post(SUBMISSION_PATH + "/comment/<int:comment_id>")
@login_required
def post_comment(forum_name: str, submission_id: int, slug: str, comment_id: int | None = None):
    post = submission_or_404(forum_name, submission_id)
    parent = comment_or_404(post, comment_id) if comment_id else None
    field = f"reply_to_comment_{comment_id}[comment]" if comment_id else f"reply_to_submission_{submission_id}[comment]"
    body = request.form.get(field, "").strip()
    error = _body_error(body)
    if error:
        flash(error, "error")
        return redirect(comment_path(post["forum_name"], post["id"], comment_id) if parent else submission_path(post))
    new_id = comment_store.create_comment(db(), post["id"], comment_id, viewer_id(), body)
    return redirect(comment_path(post["forum_name"], post["id"], new_id, post["title"]))


@bp.route(SUBMISSION_PATH + "/comment/<int:comment_id>/edit", methods=["GET", "POST"])
@login_required
def edit(forum_name: str, submission_id: int, slug: str, comment_id: int):
    post = submission_or_404(forum_name, submission_id)
    comment = own_comment_or_403(post, comment_id)
    body = request.form.get("comment[comment]", "").strip() if request.method == "POST" else comment["body"]
    error = _body_error(body) if request.method == "POST" else None
    if request.method == "POST" and not error:
        comment_store.update_comment(db(), comment_id, body)
        return redirect(comment_path(post["forum_name"], post["id"], comment_id, post["title"]))
    return render_template("comment_edit.html", submission=post, comment=comment, body=body, error=error)


@bp.post(SUBMISSION_PATH + "/comment/<int:comment_id>/delete_own")
@login_required
def delete(forum_name: str, submission_id: int, slug: str, comment_id: int):
    post = submission_or_404(forum_name, submission_id)
    comment_store.delete_comment(db(), own_comment_or_403(post, comment_id))
    flash("The comment was deleted.", "success")
    return redirect(submission_path(post))
