"""The forum's Flask app: database, session, template helpers, pages and sandbox routes."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from pathlib import Path

from flask import Flask, render_template
from werkzeug.exceptions import HTTPException

from tasks.sandbox.sites.base import install_database, install_sandbox_routes
from tasks.sandbox.sites.forum import formatting
from tasks.sandbox.sites.forum.markdown import render_markdown
from tasks.sandbox.sites.forum.store import site_counts
from tasks.sandbox.sites.forum.views import register_views
from tasks.sandbox.sites.forum.views.comments import comment_path
from tasks.sandbox.sites.forum.views.submissions import submission_path
from tasks.sandbox.sites.forum.web import load_viewer, viewer

SITE_NAME = "Millpond"
# The shop runs on the same host; cookies are shared across ports, so each site names its own.
SESSION_COOKIE = "forum_session"
SORT_LABELS = {
    "hot": "Hot",
    "new": "New",
    "active": "Active",
    "top": "Top",
    "controversial": "Controversial",
    "most_commented": "Most commented",
}
WINDOW_LABELS = {
    "day": "Past 24 hours",
    "week": "Past week",
    "month": "Past month",
    "year": "Past year",
    "all": "All time",
}


def _install_templates(app: Flask) -> None:
    app.jinja_env.filters.update(
        markdown=render_markdown,
        iso_time=formatting.iso_time,
        long_time=formatting.long_time,
        relative_time=formatting.relative_time,
        score=formatting.format_score,
        host=formatting.link_host,
        slugify=formatting.slugify,
    )
    app.jinja_env.globals.update(
        pluralize=formatting.pluralize,
        submission_path=submission_path,
        comment_path=comment_path,
        site_name=SITE_NAME,
        sort_labels=SORT_LABELS,
        window_labels=WINDOW_LABELS,
    )
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.context_processor(lambda: {"viewer": viewer()})


def _install_error_pages(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def _error(exc: HTTPException):
        return render_template("error.html", error=exc), exc.code


def create_app(db_path: Path, seed_path: Path, reset_token: str) -> Flask:
    app = Flask(__name__)
    app.config.update(
        # Derived from the reset token so sessions (and saved login cookies) survive a restart.
        SECRET_KEY=hashlib.sha256(f"forum-session:{reset_token}".encode()).hexdigest(),
        SESSION_COOKIE_NAME=SESSION_COOKIE,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=timedelta(days=30),
        MAX_CONTENT_LENGTH=1024 * 1024,
    )
    app.url_map.strict_slashes = False  # /f/books/12/ (as WebArena's helpers write it) = /f/books/12
    get_db = install_database(app, db_path)
    app.extensions["forum_db"] = get_db
    install_sandbox_routes(app, "forum", db_path, seed_path, reset_token, counts=lambda: site_counts(get_db()))
    app.before_request(load_viewer)
    _install_templates(app)
    _install_error_pages(app)
    register_views(app)
    return app
