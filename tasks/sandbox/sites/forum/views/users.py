"""User pages (overview, submissions, comments), biography and preferences."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from tasks.sandbox.sites.forum.store import comments as comment_store
from tasks.sandbox.sites.forum.store import submissions as submission_store
from tasks.sandbox.sites.forum.store import users as user_store
from tasks.sandbox.sites.forum.web import db, login_required, page_number, viewer_id

bp = Blueprint("users", __name__)

MAX_BIOGRAPHY_LENGTH = 300
MIN_PASSWORD_LENGTH = 8


def user_or_404(username: str) -> dict[str, Any]:
    user = user_store.find_user(db(), username)
    if user is None:
        abort(404, description=f"There is no user named {username}.")
    return user


def own_account_or_403(username: str) -> dict[str, Any]:
    user = user_or_404(username)
    if user["id"] != viewer_id():
        abort(403, description="You can only change your own account.")
    return user


@bp.get("/user/<username>")
def overview(username: str):
    user = user_or_404(username)
    listing = user_store.user_overview(db(), user["id"], viewer_id(), page_number())
    return render_template("user.html", user=user, tab="overview", listing=listing)


@bp.get("/user/<username>/submissions")
def submissions(username: str):
    user = user_or_404(username)
    listing = submission_store.list_submissions(db(), viewer_id(), sort="new", user_id=user["id"], page=page_number())
    for item in listing.items:
        item["kind"] = "submission"
    return render_template("user.html", user=user, tab="submissions", listing=listing)


@bp.get("/user/<username>/comments")
def comments(username: str):
    user = user_or_404(username)
    listing = comment_store.user_comments(db(), user["id"], viewer_id(), page_number())
    for item in listing.items:
        item["kind"] = "comment"
    return render_template("user.html", user=user, tab="comments", listing=listing)


@bp.get("/u/<username>")
def short_profile(username: str):
    return redirect(url_for("users.overview", username=username))


@bp.route("/user/<username>/edit_biography", methods=["GET", "POST"])
@login_required
def edit_biography(username: str):
    user = own_account_or_403(username)
    biography = user["biography"]
    if request.method == "POST":
        biography = request.form.get("user_biography[biography]", "").strip()
    error = None
    if request.method == "POST":
        if len(biography) > MAX_BIOGRAPHY_LENGTH:
            error = f"The biography can have at most {MAX_BIOGRAPHY_LENGTH} characters."
        else:
            user_store.update_biography(db(), user["id"], biography)
            flash("The biography was updated.", "success")
            return redirect(url_for("users.overview", username=user["username"]))
    return render_template("edit_biography.html", user=user, biography=biography, error=error)


@bp.route("/user/<username>/account", methods=["GET", "POST"])
@login_required
def account(username: str):
    """Email and password. The password fields sit in a closed section: a visible password
    field is how login checks recognise a login page."""
    user = own_account_or_403(username)
    errors: dict[str, str] = {}
    email = request.form.get("user[email]", "").strip() if request.method == "POST" else user["email"]
    if request.method == "POST":
        password = request.form.get("user[password][first]", "")
        repeat = request.form.get("user[password][second]", "")
        if password or repeat:
            if len(password) < MIN_PASSWORD_LENGTH:
                errors["password"] = f"The password must be at least {MIN_PASSWORD_LENGTH} characters long."
            elif password != repeat:
                errors["password"] = "The passwords do not match."
        if email and "@" not in email:
            errors["email"] = "This value is not a valid email address."
        if not errors:
            user_store.update_account(db(), user["id"], email, password or None)
            flash("Your password has been updated." if password else "Your account has been updated.", "success")
            return redirect(url_for("users.account", username=user["username"]))
    return render_template("account.html", user=user, email=email, errors=errors)


@bp.route("/user/<username>/preferences", methods=["GET", "POST"])
@login_required
def preferences(username: str):
    user = own_account_or_403(username)
    if request.method == "POST":
        sort = request.form.get("user_settings[frontPageSortMode]", "hot")
        if sort not in user_store.FRONT_PAGE_SORTS:
            abort(400, description="Choose one of the listed sort modes.")
        user_store.update_preferences(
            db(),
            user["id"],
            front_page_sort=sort,
            night_mode=bool(request.form.get("user_settings[nightMode]")),
            open_links_in_new_tab=bool(request.form.get("user_settings[openExternalLinksInNewTab]")),
            full_width_display=bool(request.form.get("user_settings[fullWidthDisplay]")),
            show_thumbnails=bool(request.form.get("user_settings[showThumbnails]")),
        )
        flash("User settings have been updated.", "success")
        return redirect(url_for("users.preferences", username=user["username"]))
    return render_template("preferences.html", user=user, sorts=user_store.FRONT_PAGE_SORTS)
