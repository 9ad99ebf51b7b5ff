"""Local stand-ins for the sites without a login: the map (OpenStreetMap) and wikipedia (Kiwix). Tests only."""

from __future__ import annotations

from flask import Flask


def create_app(title: str) -> Flask:
    app = Flask(__name__)

    @app.get("/")
    def front():
        return f"<!doctype html><html><head><title>{title}</title></head><body><h1>{title}</h1></body></html>"

    return app
