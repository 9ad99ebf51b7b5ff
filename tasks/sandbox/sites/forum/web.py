"""What every view needs: the database, the logged-in user, login checks and safe redirects."""

from __future__ import annotations

import sqlite3
from functools import wraps
from typing import Any, Callable
from urllib.parse import urlsplit

from flask import abort, current_app, g, redirect, request, session, url_for

from tasks.sandbox.sites.forum.store import forums as forum_store
from tasks.sandbox.sites.forum.store.users import get_user

LOGIN_TARGET_KEY = "login_target"


def db() -> sqlite3.Connection:
    return current_app.extensions["forum_db"]()


def viewer() -> dict[str, Any] | None:
    """The logged-in user, or None."""
    return g.get("viewer")


def viewer_id() -> int | None:
    user = viewer()
    return user["id"] if user else None


def load_viewer() -> None:
    """Before each request: the session's user, forgotten when a reset removed them."""
    g.viewer = None
    user_id = session.get("user_id")
    if user_id is not None:
        g.viewer = get_user(db(), user_id)
        if g.viewer is None:
            session.clear()


def local_path(target: str | None) -> str | None:
    """`target` when it is a path on this site (never another host), else None."""
    if not target:
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        if parts.netloc != request.host:
            return None
        target = parts.path + (f"?{parts.query}" if parts.query else "")
    if not target.startswith("/") or target.startswith("//"):
        return None
    return target


def referring_page() -> str | None:
    """The page the request came from, when it is on this site."""
    return local_path(request.referrer)


def redirect_back(default: str):
    return redirect(referring_page() or default)


def send_to_login():
    """Remember where the user was going, then show the login form."""
    target = request.full_path.rstrip("?") if request.method == "GET" else referring_page()
    if target:
        session[LOGIN_TARGET_KEY] = target
    return redirect(url_for("auth.login"))


def login_required(view: Callable) -> Callable:
    @wraps(view)
    def wrapped(*args, **kwargs):
        if viewer() is None:
            return send_to_login()
        return view(*args, **kwargs)

    return wrapped


def page_number() -> int:
    """The `?page=N` of a listing; anything odd is page 1."""
    try:
        return max(int(request.args.get("page", "1")), 1)
    except ValueError:
        return 1


def forum_or_404(name: str) -> dict[str, Any]:
    forum = forum_store.find_forum(db(), name, viewer_id())
    if forum is None:
        abort(404, description=f"There is no forum named {name}.")
    return forum


def canonical_forum_redirect(forum: dict[str, Any], name_in_url: str):
    """Forum names are matched in any case; send other spellings to the real one (as Postmill does)."""
    if forum["name"] == name_in_url:
        return None
    path = request.path.replace(f"/f/{name_in_url}", f"/f/{forum['name']}", 1)
    return redirect(path + (f"?{request.query_string.decode()}" if request.query_string else ""))
