"""Three small web apps (project tracker, recipe site, account settings) and a tiny server for them.

They behave like real apps where it matters to a labeler: buttons tint on hover, saving
shows a spinner before the result, transient toasts appear and fade, links underline,
and the pages are long enough to scroll.
"""

from __future__ import annotations

import http.server
import threading
from functools import partial
from pathlib import Path

_PAGES = Path(__file__).resolve().parent / "pages"
NAMES = ("tracker", "recipes", "settings")


def page(name: str) -> str:
    """The app's whole page: the shared style and helpers (`pages/common.html`), then its own part."""
    parts = (_PAGES / "common.html", _PAGES / f"{name}.html")
    return "".join(path.read_text(encoding="utf-8") for path in parts)


class AppServer:
    """Serves the apps as static pages from `folder` on a free local port, in a background thread."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        for name in NAMES:
            (folder / f"{name}.html").write_text("<!doctype html><meta charset='utf-8'>" + page(name), encoding="utf-8")
        handler = partial(_QuietHandler, directory=str(folder))
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def url(self, app: str) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/{app}.html"

    def __enter__(self) -> AppServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # a request per page is not worth a line
        pass
