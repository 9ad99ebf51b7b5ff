"""A local stand-in for the VisualWebArena classifieds site (OSClass): its login form, the "My listings"
page and the reset endpoint with its token. Tests only."""

from __future__ import annotations

import secrets

from flask import Flask, redirect, request, session

ACCOUNT = ("blake.sullivan@gmail.com", "Password.123")
RESET_TOKEN = "standin-reset-token"

_LOGIN = """<!doctype html><html><head><title>Login - Classifieds</title></head><body>
<div class="form-container"><h1>Access to your account</h1>
<form action="/index.php" method="post"><input type="hidden" name="page" value="login">
<input type="hidden" name="action" value="login_post">
<div class="control-group"><label class="control-label" for="email">E-mail</label>
<div class="controls"><input id="email" type="text" name="email" value=""></div></div>
<div class="control-group"><label class="control-label" for="password">Password</label>
<div class="controls"><input id="password" type="password" name="password" value="" autocomplete="off"></div></div>
<div class="control-group"><input type="checkbox" name="remember" id="remember" value="1">
<label for="remember">Remember me</label></div>
<div class="actions"><button type="submit" class="ui-button ui-button-middle">Log in</button></div>
</form></div>{message}</body></html>"""


def create_app() -> Flask:
    app = Flask(__name__)
    app.secret_key = secrets.token_hex(16)
    app.config["SESSION_COOKIE_NAME"] = "osclass"
    app.config["state"] = {"listings": ["Blue bike"], "resets": 0}

    @app.route("/index.php", methods=["GET", "POST"])
    def index():
        page, action = request.values.get("page", ""), request.values.get("action", "")
        state = app.config["state"]
        if page == "reset" and request.method == "POST":
            if request.form.get("token") != RESET_TOKEN:
                return "Invalid token", 403
            state["listings"], state["resets"] = ["Blue bike"], state["resets"] + 1
            return "Reset complete"
        if page == "login" and action == "login_post" and request.method == "POST":
            if (request.form.get("email"), request.form.get("password")) == ACCOUNT:
                session["user"] = ACCOUNT[0]
                return redirect("/index.php?page=user&action=dashboard")
            session["error"] = 1
            return redirect("/index.php?page=login")
        if page == "login":
            message = '<div id="flash_message">Wrong e-mail or password</div>' if session.pop("error", 0) else ""
            return _LOGIN.format(message=message)
        if page == "user":
            if "user" not in session:
                return redirect("/index.php?page=login")
            items = "".join(f"<li>{title}</li>" for title in state["listings"])
            body = f"<h1>My listings</h1><ul>{items}</ul>"
            return f"<html><head><title>My listings</title></head><body>{body}</body></html>"
        return "<html><head><title>Classifieds</title></head><body>Classifieds</body></html>"

    return app
