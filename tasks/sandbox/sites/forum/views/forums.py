"""The list of forums, subscribing, and creating or editing a forum."""

from __future__ import annotations

import re

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from tasks.sandbox.sites.forum.store import forums as forum_store
from tasks.sandbox.sites.forum.web import (
    canonical_forum_redirect,
    db,
    forum_or_404,
    login_required,
    redirect_back,
    send_to_login,
    viewer,
    viewer_id,
)

bp = Blueprint("forums", __name__)

ORDER = "<any(" + ",".join(forum_store.FORUM_LIST_ORDERS) + "):order>"
FORUM_NAME_PATTERN = re.compile(r"^\w{3,25}$")
MAX_TITLE_LENGTH = 100
MAX_DESCRIPTION_LENGTH = 1500
MAX_SIDEBAR_LENGTH = 10000
FORUM_FIELDS = ("name", "title", "description", "sidebar")


@bp.get("/forums")
@bp.get(f"/forums/{ORDER}")
@bp.get(f"/forums/{ORDER}/<int:page>")
def forum_list(order: str = "by_submissions", page: int = 1):
    if page != 1:
        abort(404)  # every forum fits on the first page
    return render_template("forums.html", forums=forum_store.list_forums(db(), viewer_id(), order), order=order)


@bp.get("/forums/all")
def forum_list_all():
    return render_template("forums_all.html", forums=forum_store.list_forums(db(), viewer_id(), "by_name"))


@bp.post("/f/<forum_name>/subscribe")
@bp.post("/f/<forum_name>/unsubscribe")
def subscribe(forum_name: str):
    if viewer() is None:
        return send_to_login()
    forum = forum_or_404(forum_name)
    subscribing = request.path.endswith("/subscribe")
    forum_store.set_subscription(db(), viewer_id(), forum["id"], subscribing)
    return redirect_back(url_for("listings.forum", forum_name=forum["name"]))


def _forum_form_errors(form: dict[str, str], creating: bool) -> dict[str, str]:
    errors = {}
    if creating:
        if not FORUM_NAME_PATTERN.match(form["name"]):
            errors["name"] = "The name must be 3 to 25 letters, numbers or underscores."
        elif forum_store.find_forum(db(), form["name"]):
            errors["name"] = "A forum by that name already exists."
    if not form["title"]:
        errors["title"] = "This value should not be blank."
    elif len(form["title"]) > MAX_TITLE_LENGTH:
        errors["title"] = f"The title can have at most {MAX_TITLE_LENGTH} characters."
    if not form["description"]:
        errors["description"] = "This value should not be blank."
    elif len(form["description"]) > MAX_DESCRIPTION_LENGTH:
        errors["description"] = f"The description can have at most {MAX_DESCRIPTION_LENGTH} characters."
    if len(form["sidebar"]) > MAX_SIDEBAR_LENGTH:
        errors["sidebar"] = f"The sidebar can have at most {MAX_SIDEBAR_LENGTH} characters."
    return errors


def _read_forum_form() -> dict[str, str]:
    return {field: request.form.get(f"forum[{field}]", "").strip() for field in FORUM_FIELDS}


@bp.route("/create_forum", methods=["GET", "POST"])
@login_required
def create_forum():
    form = _read_forum_form() if request.method == "POST" else dict.fromkeys(FORUM_FIELDS, "")
    errors = _forum_form_errors(form, creating=True) if request.method == "POST" else {}
    if request.method == "POST" and not errors:
        forum_store.create_forum(db(), viewer_id(), form["name"], form["title"], form["description"], form["sidebar"])
        return redirect(url_for("listings.forum", forum_name=form["name"]))
    return render_template("forum_form.html", form=form, errors=errors, forum=None)


@bp.route("/f/<forum_name>/edit", methods=["GET", "POST"])
@login_required
def edit_forum(forum_name: str):
    forum = forum_or_404(forum_name)
    moved = canonical_forum_redirect(forum, forum_name)
    if moved:
        return moved
    if not forum["moderated"]:
        abort(403, description="Only the moderators of this forum can edit it.")
    form = _read_forum_form() if request.method == "POST" else dict(forum)
    form["name"] = forum["name"]
    errors = _forum_form_errors(form, creating=False) if request.method == "POST" else {}
    if request.method == "POST" and not errors:
        forum_store.update_forum(db(), forum["id"], form["title"], form["description"], form["sidebar"])
        flash("The changes have been saved.", "success")
        return redirect(url_for("forums.edit_forum", forum_name=forum["name"]))
    return render_template("forum_form.html", form=form, errors=errors, forum=forum)
