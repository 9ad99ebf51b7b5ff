"""Static pages on a free local port, in a background thread: what both recording styles serve their apps with."""

from __future__ import annotations

import http.server
import threading
from functools import partial
from pathlib import Path


class PageServer:
    """Writes each page (name -> HTML) into `folder` as `<name>.html` and serves the folder."""

    def __init__(self, folder: Path, pages: dict[str, str]) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        for name, html in pages.items():
            (folder / f"{name}.html").write_text("<!doctype html><meta charset='utf-8'>" + html, encoding="utf-8")
        handler = partial(_QuietHandler, directory=str(folder))
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def url(self, app: str) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/{app}.html"

    def __enter__(self) -> "PageServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # a request per page is not worth a line
        pass


def page_files(folder: Path) -> dict[str, str]:
    """The `*.html` pages of `folder` by name, as `PageServer` takes them."""
    return {page.stem: page.read_text("utf-8") for page in folder.glob("*.html")}
