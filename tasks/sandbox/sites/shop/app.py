"""The shop's Flask app: wiring of the database, the views and the template helpers."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from pathlib import Path

from flask import Flask, render_template, request

from tasks.sandbox.sites.base import install_database, install_sandbox_routes, open_db
from tasks.sandbox.sites.shop import accounts, cart
from tasks.sandbox.sites.shop.catalog import category_tree, product_image_url, product_url
from tasks.sandbox.sites.shop.db import parse_time
from tasks.sandbox.sites.shop.orders import STATUS_LABELS
from tasks.sandbox.sites.shop.pricing import money
from tasks.sandbox.sites.shop.views import ALL_BLUEPRINTS
from tasks.sandbox.sites.shop.views.rest import register_rest

STORE_NAME = "One Stop Market"


def create_app(db_path: Path, seed_path: Path, reset_token: str) -> Flask:
    app = Flask(__name__, static_url_path="/static")
    # Derived from the reset token so that sign-ins survive a server restart (as Magento sessions do).
    app.secret_key = hashlib.sha256(f"sandbox-shop-session:{reset_token}".encode()).hexdigest()
    app.config.update(
        SESSION_COOKIE_NAME="shop_session",
        PERMANENT_SESSION_LIFETIME=timedelta(days=7),
        SESSION_COOKIE_SAMESITE="Lax",
    )
    app.json.sort_keys = False
    app.extensions["shop.get_db"] = install_database(app, db_path)
    app.extensions["shop.static_cache"] = {}

    for blueprint in ALL_BLUEPRINTS:
        app.register_blueprint(blueprint)
    register_rest(app)
    install_sandbox_routes(app, "shop", db_path, seed_path, reset_token, counts=lambda: _counts(Path(db_path)))
    _install_template_helpers(app)
    _install_error_pages(app)
    return app


def _counts(db_path: Path) -> dict[str, int]:
    conn = open_db(db_path)
    try:
        return {
            table_label: conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            for table_label, table in (
                ("products", "product"),
                ("categories", "category"),
                ("orders", "sales_order"),
                ("reviews", "review"),
                ("customers", "customer"),
            )
        }
    finally:
        conn.close()


def _install_template_helpers(app: Flask) -> None:
    app.jinja_env.filters["money"] = money
    app.jinja_env.filters["short_date"] = _short_date
    app.jinja_env.filters["long_date"] = _long_date
    app.jinja_env.filters["status_label"] = lambda status: STATUS_LABELS.get(status, status.title())
    app.jinja_env.globals.update(product_url=product_url, product_image_url=product_image_url, store_name=STORE_NAME)

    @app.context_processor
    def _page_context():
        if (request.blueprint or "").startswith("rest") or request.path.startswith("/__sandbox__"):
            return {}
        return {
            "customer": accounts.current_customer(),
            "cart_count": cart.item_count(),
            "nav_categories": category_tree().tops,
        }


def _long_date(text: str) -> str:
    """E.g. May 4, 2023."""
    moment = parse_time(text)
    return f"{moment:%B} {moment.day}, {moment.year}"


def _short_date(text: str) -> str:
    """Magento's short US date, e.g. 5/4/23."""
    moment = parse_time(text)
    return f"{moment.month}/{moment.day}/{moment:%y}"


def _install_error_pages(app: Flask) -> None:
    @app.errorhandler(404)
    def _not_found(_error):
        if request.path.startswith("/rest/"):
            return {"message": "Request does not match any route."}, 404
        return render_template("not_found.html"), 404
