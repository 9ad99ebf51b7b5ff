"""Logging in and out, and signing up."""

from __future__ import annotations

import re

from flask import Blueprint, flash, redirect, render_template, request, session, url_for

from tasks.sandbox.sites.forum.store import users as user_store
from tasks.sandbox.sites.forum.views.users import MIN_PASSWORD_LENGTH
from tasks.sandbox.sites.forum.web import LOGIN_TARGET_KEY, db, local_path, referring_page, viewer

bp = Blueprint("auth", __name__)

USERNAME_PATTERN = re.compile(r"^\w{3,25}$")


def _log_in(user_id: int, remember: bool) -> None:
    session.clear()
    session["user_id"] = user_id
    session.permanent = remember


@bp.get("/login")
def login():
    if viewer():
        return redirect(url_for("listings.front"))
    target = session.get(LOGIN_TARGET_KEY)
    if not target:
        came_from = referring_page()
        if came_from and not came_from.startswith(("/login", "/registration")):
            target = came_from
    return render_template(
        "login.html",
        error=session.pop("login_error", None),
        last_username=session.pop("last_username", ""),
        target=target or "",
    )


@bp.post("/login_check")
def login_check():
    username = request.form.get("_username", "").strip()
    user = user_store.authenticate(db(), username, request.form.get("_password", ""))
    target = local_path(request.form.get("_target_path")) or session.get(LOGIN_TARGET_KEY)
    if user is None:
        session["login_error"] = "Invalid credentials."
        session["last_username"] = username
        if target:
            session[LOGIN_TARGET_KEY] = target
        return redirect(url_for("auth.login"))
    _log_in(user["id"], remember=bool(request.form.get("_remember_me")))
    return redirect(target or url_for("listings.front"))


@bp.route("/logout", methods=["GET", "POST"])
@bp.route("/log_out", methods=["GET", "POST"])
def logout():
    session.clear()
    return redirect(url_for("listings.front"))


@bp.route("/registration", methods=["GET", "POST"])
def registration():
    if viewer():
        return redirect(url_for("listings.front"))
    errors: dict[str, str] = {}
    form = request.form
    username = form.get("user[username]", "").strip()
    email = form.get("user[email]", "").strip()
    if request.method == "POST":
        password, repeat = form.get("user[password][first]", ""), form.get("user[password][second]", "")
        if not USERNAME_PATTERN.match(username):
            errors["username"] = "Use 3 to 25 letters, numbers or underscores."
        elif user_store.find_user(db(), username):
            errors["username"] = "That username is already taken."
        if len(password) < MIN_PASSWORD_LENGTH:
            errors["password"] = f"The password must be at least {MIN_PASSWORD_LENGTH} characters long."
        elif password != repeat:
            errors["password"] = "The passwords do not match."
        if not errors:
            _log_in(user_store.create_user(db(), username, password, email), remember=True)
            flash("Your account has been registered.", "success")
            return redirect(url_for("listings.front"))
    return render_template("registration.html", errors=errors, username=username, email=email)
