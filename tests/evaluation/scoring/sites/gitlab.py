"""A local stand-in for the WebArena GitLab: its sign-in form, the REST call the site check makes and
the project members page the role reader uses. Tests only."""

from __future__ import annotations

import secrets

from flask import Flask, abort, jsonify, redirect, request, session

ACCOUNT = ("byteblaze", "hello1234")
MEMBERS = {
    "byteblaze/a11yproject.com": [("Byte Blaze", "byteblaze", "Owner"), ("Abishek S", "abisubramanya27", "Developer")],
}

_SIGN_IN = """<!doctype html><html><head><title>Sign in · GitLab</title></head><body>
<form class="new_user gl-show-field-errors" id="new_user" action="/users/sign_in" accept-charset="UTF-8" method="post">
<input type="hidden" name="authenticity_token" value="{token}" autocomplete="off">
<div class="form-group"><label for="user_login">Username or email</label>
<input class="form-control gl-form-input top js-username-field" autocomplete="username" autofocus="autofocus"
 autocapitalize="off" autocorrect="off" required="required" title="This field is required."
 data-testid="username-field" type="text" name="user[login]" id="user_login"></div>
<div class="form-group"><label for="user_password">Password</label>
<input class="form-control gl-form-input bottom" autocomplete="current-password" required="required"
 title="This field is required." data-testid="password-field" type="password" name="user[password]"
 id="user_password"></div>
<div class="gl-form-checkbox custom-control custom-checkbox"><input name="user[remember_me]" type="hidden" value="0">
<input class="custom-control-input" type="checkbox" value="1" name="user[remember_me]" id="user_remember_me">
<label class="custom-control-label" for="user_remember_me"><span>Remember me</span></label></div>
<button type="submit" class="gl-button btn btn-block btn-md btn-confirm" data-testid="sign-in-button">
<span class="gl-button-text">Sign in</span></button></form>{message}</body></html>"""


def _member_row(name: str, username: str, role: str) -> str:
    return f"""<tr><td data-label="Account" class="col-user"><div class="gl-avatar-labeled">
<div class="gl-avatar-labeled-labels"><span class="gl-avatar-labeled-label">{name}</span>
<span class="gl-avatar-labeled-sublabel">@{username}</span></div></div></td>
<td data-label="Source" class="col-source">Direct member</td>
<td data-label="Max role" class="col-max-role"><span class="gl-dropdown-button-text">{role}</span></td></tr>"""


def create_app() -> Flask:
    app = Flask(__name__)
    app.secret_key = secrets.token_hex(16)
    app.config["SESSION_COOKIE_NAME"] = "_gitlab_session"

    def signed_in() -> bool:
        return session.get("user") == ACCOUNT[0]

    @app.get("/users/sign_in")
    def sign_in():
        session.setdefault("token", secrets.token_hex(8))
        message = '<div class="flash-alert">Invalid login or password.</div>' if session.pop("error", 0) else ""
        return _SIGN_IN.format(token=session["token"], message=message)

    @app.post("/users/sign_in")
    def sign_in_post():
        given = (request.form.get("user[login]"), request.form.get("user[password]"))
        if request.form.get("authenticity_token") == session.get("token") and given == ACCOUNT:
            session["user"] = ACCOUNT[0]
            return redirect("/")
        session["error"] = 1
        return redirect("/users/sign_in")

    def page(title: str):
        if not signed_in():
            return redirect("/users/sign_in")
        return f"<html><head><title>{title} · GitLab</title></head></html>"

    @app.get("/")
    def dashboard():
        return page("Projects")

    @app.get("/-/profile")
    def profile():
        return page("Profile")

    @app.get("/api/v4/user")
    def api_user():
        if not signed_in():
            return jsonify({"message": "401 Unauthorized"}), 401
        return jsonify({"id": 2330, "username": "byteblaze", "name": "Byte Blaze", "state": "active",
                        "web_url": request.host_url + "byteblaze", "is_admin": False})  # fmt: skip

    @app.get("/<namespace>/<project>/-/project_members")
    def members(namespace: str, project: str):
        rows = MEMBERS.get(f"{namespace}/{project}")
        if rows is None:
            abort(404)
        if not signed_in():
            return redirect("/users/sign_in")
        body = "".join(_member_row(*row) for row in rows)
        table = f'<table class="table b-table"><tbody>{body}</tbody></table>'
        return f"<html><head><title>Members</title></head><body>{table}</body></html>"

    return app
