"""Who is signed in, signing in and out, and pages that need an account."""

from __future__ import annotations

import functools
import sqlite3
from urllib.parse import urlparse

from flask import flash, g, redirect, request, session

from tasks.sandbox.sites.shop.db import db
from tasks.sandbox.sites.shop.passwords import verify_password

LOGIN_PATH = "/customer/account/login/"
LOGIN_FAILED = (
    "The account sign-in was incorrect or your account is disabled temporarily. Please wait and try again later."
)


def current_customer() -> sqlite3.Row | None:
    if "customer" not in g:
        customer_id = session.get("customer_id")
        g.customer = (
            db().execute("SELECT * FROM customer WHERE id = ?", (customer_id,)).fetchone() if customer_id else None
        )
    return g.customer


def authenticate(email: str, password: str) -> sqlite3.Row | None:
    customer = db().execute("SELECT * FROM customer WHERE email = ?", (email.strip(),)).fetchone()
    if customer is None or not verify_password(customer["password_hash"], password):
        return None
    return customer


def sign_in(customer: sqlite3.Row) -> None:
    """The session's customer from now on; the caller moves a guest's cart over (cart.merge_guest_cart)."""
    session["customer_id"] = customer["id"]
    session.permanent = True
    g.pop("customer", None)


def sign_out() -> None:
    session.pop("customer_id", None)
    session.pop("last_order_id", None)
    g.pop("customer", None)


def safe_local_path(target: str | None, fallback: str) -> str:
    """Only same-site paths are followed after a form or a sign-in."""
    if not target:
        return fallback
    parsed = urlparse(target)
    # "//host" and "/\\host" would leave the site in a browser.
    if parsed.scheme or parsed.netloc or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return fallback
    return target


def referrer_path(fallback: str) -> str:
    """The page a form was posted from, as a local path (the Referer header), else `fallback`."""
    referrer = request.referrer
    if not referrer:
        return fallback
    parsed = urlparse(referrer)
    if parsed.netloc and parsed.netloc != request.host:
        return fallback
    path = parsed.path + (f"?{parsed.query}" if parsed.query else "")
    return safe_local_path(path, fallback)


def login_required(view):
    """Send a guest to the sign-in page, and back to this page after signing in."""

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        if current_customer() is None:
            if request.method == "GET":
                session["after_login"] = request.full_path.rstrip("?")
            else:
                session["after_login"] = referrer_path("/customer/account/")
            return redirect(LOGIN_PATH)
        return view(*args, **kwargs)

    return wrapper


def require_customer_for(message: str):
    """Like login_required, with a notice saying why (e.g. adding to a wish list as a guest)."""

    def decorate(view):
        inner = login_required(view)

        @functools.wraps(view)
        def wrapper(*args, **kwargs):
            if current_customer() is None:
                flash(message, "error")
            return inner(*args, **kwargs)

        return wrapper

    return decorate


def default_address(customer_id: int) -> sqlite3.Row | None:
    return db().execute(
        "SELECT * FROM customer_address WHERE customer_id = ? ORDER BY is_default_shipping DESC, id LIMIT 1",
        (customer_id,),
    ).fetchone()


def addresses(customer_id: int) -> list[sqlite3.Row]:
    return db().execute(
        "SELECT * FROM customer_address WHERE customer_id = ? "
        "ORDER BY is_default_shipping DESC, is_default_billing DESC, id",
        (customer_id,),
    ).fetchall()
