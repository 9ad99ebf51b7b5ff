"""Fixtures of the browser-environment tests: a small site of fixture pages, tasks, environments."""

from __future__ import annotations

import copy
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from evaluation.browser_env.environment import BrowserEnv
from evaluation.browser_env.observation import ObservationOptions

from tests.evaluation.browser_env.browser_env_helpers import VOTE_DELAY_S  # noqa: I001 (this folder's own helpers)

PAGES_DIR = Path(__file__).parent / "pages"


class _PagesHandler(SimpleHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        if self.path.startswith("/votes.json"):
            time.sleep(VOTE_DELAY_S)
        super().do_GET()

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="session")
def pages_url():
    """Base URL of the fixture pages, served by a real HTTP server in a thread."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_PagesHandler, directory=str(PAGES_DIR)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def env_settings(test_settings):
    """A copy of the test settings a test may change freely."""
    return copy.deepcopy(test_settings)


@pytest.fixture
def make_env(env_settings, chromium):
    """Build environments on the shared Chromium; all are closed after the test."""
    made: list[BrowserEnv] = []

    def build(options: ObservationOptions | None = None, settings=None) -> BrowserEnv:
        env = BrowserEnv(settings or env_settings, browser=chromium, options=options)
        made.append(env)
        return env

    yield build
    for env in made:
        env.close()
