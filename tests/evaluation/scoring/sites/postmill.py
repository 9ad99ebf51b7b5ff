"""A local stand-in for the WebArena Postmill forum (the `reddit` site): its login form and the post
page structure the comment readers use. Tests only."""

from __future__ import annotations

import secrets

from flask import Flask, abort, redirect, request, session

ACCOUNT = ("MarvelsGrantMan136", "test1234")

_LOGIN_PAGE = """<!doctype html><html><head><title>Log in</title></head><body><main class="site-content">
<h1 class="page-heading">Log in</h1>
<form action="/login_check" method="post" class="form">
<div class="form__row"><label for="login-username" class="form__label">Username</label>
<input type="text" id="login-username" name="_username" class="form-control" required></div>
<div class="form__row"><label for="login-password" class="form__label">Password</label>
<input type="password" id="login-password" name="_password" class="form-control" required></div>
<div class="form__row"><input type="checkbox" id="remember-me" name="_remember_me" checked>
<label for="remember-me">Remember me</label></div>
<input type="hidden" name="_csrf_token" value="{csrf}">
<div class="form__row form__button-row"><button class="button" type="submit">Log in</button></div>
</form>{message}</main></body></html>"""


def _comment(level: int, author: str, score: int, text: str, time: str, replies: str = "") -> str:
    return f"""<article class="comment comment--level-{level}" data-level="{level}" id="comment_{secrets.token_hex(3)}">
<div class="comment__row"><div class="comment__main"><header class="comment__header"><h1 class="comment__info">
<span class="comment__author"><a href="/user/{author}" class="fg-inherit">{author}</a></span>
<span class="comment__timestamp"><time class="comment__timestamp" datetime="{time}" title="">some time ago</time></span>
</h1></header><div class="comment__body break-text"><div class="comment__content"><p>{text}</p></div></div>
<div class="vote"><span class="vote__net-score">{score}</span></div></div></div>
{replies}</article>"""


_POST_PAGE = """<!doctype html><html><head><title>{title}</title></head><body>
<main id="main" class="site-content"><article class="submission" data-id="{post_id}">
<header><h1 class="submission__title"><a href="/f/{forum}/{post_id}/{slug}" class="submission__link">{title}</a></h1>
<p class="submission__info">Submitted by
<a href="/user/Sarah_Lee" class="submission__submitter fg-inherit">Sarah_Lee</a>
</p></header></article>
<section class="comment-section">{comments}</section></main></body></html>"""

POST_COMMENTS = _comment(
    1, "Sarah_Lee", 5, "First!", "2023-03-01T10:00:00+00:00",
    _comment(2, "MarvelsGrantMan136", 3, "Agreed, nice post.", "2023-03-02T11:00:00+00:00")
    + _comment(2, "bob", 1, "Me too.", "2023-03-03T12:00:00+00:00"),
) + _comment(1, "MarvelsGrantMan136", 8, "My newest top comment.", "2023-03-04T09:00:00+00:00")  # fmt: skip

POSTS = {
    7: ("books", "what-are-you-reading", "What are you reading?", POST_COMMENTS),
    8: ("books", "quiet", "Quiet", ""),
}


def create_app() -> Flask:
    app = Flask(__name__)
    app.secret_key = secrets.token_hex(16)
    app.config["SESSION_COOKIE_NAME"] = "PHPSESSID"

    @app.get("/login")
    def login():
        session.setdefault("csrf", secrets.token_hex(8))
        message = '<div class="alert alert--bad">Invalid credentials.</div>' if session.pop("error", 0) else ""
        return _LOGIN_PAGE.format(csrf=session["csrf"], message=message)

    @app.post("/login_check")
    def login_check():
        given = (request.form.get("_username"), request.form.get("_password"))
        if request.form.get("_csrf_token") == session.get("csrf") and given == ACCOUNT:
            session["user"] = ACCOUNT[0]
            return redirect("/")
        session["error"] = 1
        return redirect("/login")

    @app.get("/user/<name>/account")
    def account(name: str):
        if session.get("user") != name:
            return redirect("/login")
        return f"<html><head><title>Account settings</title></head><body>{name}<button>Delete</button></body></html>"

    @app.get("/")
    def front():
        items = "".join(
            f'<article class="submission"><h1 class="submission__title"><a class="submission__link" '
            f'href="/f/{forum}/{post_id}/{slug}">{title}</a></h1><a href="/f/{forum}/{post_id}/{slug}" '
            f'class="submission__comment-link">comments</a></article>'
            for post_id, (forum, slug, title, _) in sorted(POSTS.items(), reverse=True)
        )
        return f'<html><head><title>Postmill</title></head><body><a href="/f/books">books</a>{items}</body></html>'

    @app.get("/f/<forum>/<int:post_id>/")
    @app.get("/f/<forum>/<int:post_id>/<slug>")
    def post(forum: str, post_id: int, slug: str = ""):
        if post_id not in POSTS or POSTS[post_id][0] != forum:
            abort(404)
        _, slug, title, comments = POSTS[post_id]
        return _POST_PAGE.format(title=title, forum=forum, post_id=post_id, slug=slug, comments=comments)

    return app
