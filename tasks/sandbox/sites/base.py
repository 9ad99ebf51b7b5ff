"""What every sandbox site shares: its registry entry, its SQLite database, and the
sandbox-only routes (health and reset).

A site is a Flask app made by `create_app(db_path, seed_path, reset_token)` in
its own package, plus `build_seed(db_path)` that writes its deterministic seed
database. The live database is a copy of the seed; a reset copies the seed back
with SQLite's backup API, which takes well under a second at this size and is
safe while the server runs.
"""

from __future__ import annotations

import hashlib
import hmac
import importlib
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from flask import Flask, abort, g, jsonify, request

RESET_PATH = "/__sandbox__/reset"
HEALTH_PATH = "/__sandbox__/health"
TOKEN_HEADER = "X-Sandbox-Token"


@dataclass(frozen=True)
class Account:
    username: str
    password: str
    email: str = ""
    role: str = "customer"


@dataclass(frozen=True)
class LoginForm:
    """Where a site's login form posts and the names of its two fields (as on the real site)."""

    post_path: str
    username_field: str
    password_field: str


@dataclass(frozen=True)
class SiteSpec:
    name: str  # sandbox name: "shop", "forum"
    stands_for: str  # VideoWA site key this sandbox plays: "shopping", "reddit"
    env_var: str  # environment variable holding the base URL, as in WebArena configs
    port_setting: str  # attribute of SandboxSettings with the default port
    package: str  # python package with app.create_app and seed.build_seed
    accounts: tuple[Account, ...] = field(default_factory=tuple)
    login_form: LoginForm | None = None

    @property
    def placeholder(self) -> str:
        return f"__{self.env_var}__"

    def create_app(self, db_path: Path, seed_path: Path, reset_token: str) -> Flask:
        module = importlib.import_module(f"{self.package}.app")
        return module.create_app(db_path=db_path, seed_path=seed_path, reset_token=reset_token)

    def build_seed(self, db_path: Path) -> None:
        importlib.import_module(f"{self.package}.seed").build_seed(db_path)

    def seed_fingerprint(self) -> str:
        """Hash of the code and data that can shape the seed (every module and YAML data file except the web
        layer): changing one rebuilds the seed database, changing a view or template does not."""
        package_dir = Path(importlib.import_module(self.package).__file__).parent
        web_layer = {"app.py", "views", "templates", "static"}
        digest = hashlib.sha256()
        for file in sorted(path for path in package_dir.rglob("*") if path.suffix in (".py", ".yaml")):
            relative = file.relative_to(package_dir)
            if relative.parts[0] in web_layer or "__pycache__" in relative.parts:
                continue
            digest.update(relative.as_posix().encode())
            digest.update(file.read_bytes())
        return digest.hexdigest()[:12]


def open_db(db_path: Path) -> sqlite3.Connection:
    """Open an existing database (never create one silently: a missing file is an error)."""
    conn = sqlite3.connect(f"file:{db_path}?mode=rw", uri=True, timeout=30, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def reset_database(seed_path: Path, db_path: Path) -> None:
    """Overwrite the live database with the seed, in place (open connections see the new data)."""
    source = sqlite3.connect(f"file:{seed_path}?mode=ro", uri=True)
    target = sqlite3.connect(db_path, timeout=30)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()


def install_database(app: Flask, db_path: Path) -> Callable[[], sqlite3.Connection]:
    """Give each request its own connection; returns `get_db()` for the site's views."""
    app.config["DB_PATH"] = Path(db_path)

    def get_db() -> sqlite3.Connection:
        if "db" not in g:
            g.db = open_db(app.config["DB_PATH"])
        return g.db

    @app.teardown_appcontext
    def _close_db(_exc: BaseException | None) -> None:
        conn = g.pop("db", None)
        if conn is not None:
            conn.close()

    return get_db


def install_sandbox_routes(
    app: Flask, site: str, db_path: Path, seed_path: Path, reset_token: str, counts: Callable[[], dict[str, Any]]
) -> None:
    """Health (with row counts, and which process and database serve it) and a token-guarded reset endpoint."""

    @app.get(HEALTH_PATH)
    def _health():
        # pid and database let another cache's `sandbox serve`/`stop` say whose site this is and how to stop it.
        return jsonify({"site": site, "ok": True, "counts": counts(), "pid": os.getpid(), "database": str(db_path)})

    @app.post(RESET_PATH)
    def _reset():
        given = request.headers.get(TOKEN_HEADER, "")
        if not hmac.compare_digest(given.encode(), reset_token.encode()):
            abort(403, description=f"wrong reset token; send the server's token in the {TOKEN_HEADER} header")
        reset_database(seed_path, db_path)
        return jsonify({"site": site, "reset": True})
