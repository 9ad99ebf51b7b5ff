"""One submission with its comments, and creating, editing and deleting submissions."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from tasks.sandbox.sites.forum.formatting import slugify
from tasks.sandbox.sites.forum.store import comments as comment_store
from tasks.sandbox.sites.forum.store import forums as forum_store
from tasks.sandbox.sites.forum.store import submissions as submission_store
from tasks.sandbox.sites.forum.web import canonical_forum_redirect, db, forum_or_404, login_required, viewer_id

bp = Blueprint("submissions", __name__)

MAX_TITLE_LENGTH = 300
MAX_URL_LENGTH = 2000
MAX_BODY_LENGTH = 25000
BLANK = "This value should not be blank."


def submission_path(submission: dict[str, Any]) -> str:
    return url_for(
        "submissions.submission",
        forum_name=submission["forum_name"],
        submission_id=submission["id"],
        slug=slugify(submission["title"]),
    )


def submission_or_404(forum_name: str, submission_id: int) -> dict[str, Any]:
    submission = submission_store.get_submission(db(), submission_id, viewer_id())
    if submission is None or submission["forum_name"].lower() != forum_name.lower():
        abort(404, description="That submission does not exist (it may have been deleted).")
    return submission


def own_submission_or_403(forum_name: str, submission_id: int) -> dict[str, Any]:
    submission = submission_or_404(forum_name, submission_id)
    if submission["user_id"] != viewer_id():
        abort(403, description="You can only change your own submissions.")
    return submission


@bp.get("/f/<forum_name>/<int:submission_id>")
@bp.get("/f/<forum_name>/<int:submission_id>/<slug>")
def submission(forum_name: str, submission_id: int, slug: str | None = None):
    post = submission_or_404(forum_name, submission_id)
    forum = forum_or_404(post["forum_name"])
    moved = canonical_forum_redirect(forum, forum_name)
    if moved:
        return moved
    order = request.args.get("sort", "top")
    order = order if order in comment_store.THREAD_ORDERS else "top"
    return render_template(
        "submission.html",
        submission=post,
        forum=forum,
        comments=comment_store.comment_tree(db(), post["id"], viewer_id(), order),
        order=order,
    )


@bp.get("/<int:submission_id>")
def shortcut(submission_id: int):
    post = submission_store.get_submission(db(), submission_id, viewer_id())
    if post is None:
        abort(404, description="That submission does not exist.")
    return redirect(submission_path(post))


def _read_form() -> dict[str, str]:
    return {
        field: request.form.get(f"submission[{field}]", "").strip() for field in ("title", "url", "body", "forum")
    }


def _url_error(url: str) -> str | None:
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or " " in url:
        return "This value is not a valid URL."
    if len(url) > MAX_URL_LENGTH:
        return f"This value is too long. It should have {MAX_URL_LENGTH} characters or less."
    return None


def _form_errors(form: dict[str, str]) -> dict[str, str]:
    errors = {}
    if not form["title"]:
        errors["title"] = BLANK
    elif len(form["title"]) > MAX_TITLE_LENGTH:
        errors["title"] = f"This value is too long. It should have {MAX_TITLE_LENGTH} characters or less."
    if _url_error(form["url"]):
        errors["url"] = _url_error(form["url"])
    if len(form["body"]) > MAX_BODY_LENGTH:
        errors["body"] = f"This value is too long. It should have {MAX_BODY_LENGTH} characters or less."
    return errors


def _chosen_forum(value: str) -> dict[str, Any] | None:
    """The forum select sends an id; a forum name is accepted too."""
    forums = forum_store.forum_names(db())
    for forum in forums:
        if value == str(forum["id"]) or value.lower() == forum["name"].lower():
            return forum
    return None


@bp.route("/submit", methods=["GET", "POST"])
@bp.route("/submit/<forum_name>", methods=["GET", "POST"])
@login_required
def submit(forum_name: str | None = None):
    preselected = forum_or_404(forum_name) if forum_name else None
    form = _read_form() if request.method == "POST" else {"title": "", "url": "", "body": "", "forum": ""}
    if request.method == "GET" and preselected:
        form["forum"] = str(preselected["id"])
    errors: dict[str, str] = {}
    if request.method == "POST":
        errors = _form_errors(form)
        forum = _chosen_forum(form["forum"])
        if forum is None:
            errors["forum"] = BLANK
        if not errors:
            new_id = submission_store.create_submission(
                db(), viewer_id(), forum["id"], form["title"], form["url"] or None, form["body"] or None
            )
            return redirect(submission_path({"forum_name": forum["name"], "id": new_id, "title": form["title"]}))
    return render_template(
        "submit.html", form=form, errors=errors, forums=forum_store.forum_names(db()), editing=None
    )


@bp.route("/f/<forum_name>/<int:submission_id>/<slug>/edit", methods=["GET", "POST"])
@login_required
def edit(forum_name: str, submission_id: int, slug: str):
    post = own_submission_or_403(forum_name, submission_id)
    if request.method == "GET":
        form = {"title": post["title"], "url": post["url"] or "", "body": post["body"] or "", "forum": ""}
        return render_template("submit.html", form=form, errors={}, forums=[], editing=post)
    form = _read_form()
    errors = _form_errors(form)
    if errors:
        return render_template("submit.html", form=form, errors=errors, forums=[], editing=post)
    submission_store.update_submission(db(), post["id"], form["title"], form["url"] or None, form["body"] or None)
    flash("The submission was edited.", "success")
    return redirect(submission_path(dict(post, title=form["title"])))


@bp.post("/f/<forum_name>/<int:submission_id>/<slug>/delete")
@login_required
def delete(forum_name: str, submission_id: int, slug: str):
    post = own_submission_or_403(forum_name, submission_id)
    submission_store.delete_submission(db(), post["id"])
    flash("The submission was deleted.", "success")
    return redirect(url_for("listings.forum", forum_name=post["forum_name"]))
