"""Fixtures shared by the whole suite: isolated settings, the running sandbox sites, Chromium."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from model_access.scripted_server import ScriptedServer
from settings import Settings, load_settings


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def test_cache_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="session")
def test_settings(test_cache_dir: Path) -> Settings:
    """Settings with a private cache folder and free ports, so tests never touch the user's sandbox."""
    settings = load_settings()
    settings.paths.cache_dir = test_cache_dir
    settings.sandbox.shop_port = free_port()
    settings.sandbox.forum_port = free_port()
    settings.sandbox.reset_token = "test-reset-token"
    return settings


@dataclass
class Sandbox:
    settings: Settings
    shop_url: str
    forum_url: str

    def reset(self) -> None:
        from tasks.sandbox import server

        server.reset(self.settings)


@pytest.fixture(scope="session")
def sandbox(test_settings: Settings):
    """Both sandbox sites running in the background for the whole session, URLs exported like WebArena's."""
    from tasks.sandbox import server

    saved = {key: os.environ.get(key) for key in ("SHOPPING", "REDDIT", "VIDEODEMO_CACHE")}
    for key in ("SHOPPING", "REDDIT"):
        os.environ.pop(key, None)
    shop_url, forum_url = server.start_background(test_settings, ["shop", "forum"])
    os.environ["SHOPPING"], os.environ["REDDIT"] = shop_url, forum_url
    try:
        yield Sandbox(test_settings, shop_url, forum_url)
    finally:
        server.stop_background(test_settings)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@pytest.fixture
def fresh_sandbox(sandbox: Sandbox) -> Sandbox:
    """The sandbox reset to its seed state before the test."""
    sandbox.reset()
    return sandbox


@pytest.fixture(scope="module")
def chromium(test_settings: Settings):
    # Module scope, not session: a live sync Playwright holds the thread's event loop, and
    # code under test that starts its own Playwright (recorder, runner) must find it free.
    from playwright.sync_api import sync_playwright

    from foundation.browser import launch_chromium

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright, test_settings.browser)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.set_default_timeout(10000)
    yield page
    context.close()


@pytest.fixture
def scripted_server() -> Callable[..., ScriptedServer]:
    """scripted_server(script, **server options): a scripted OpenAI-compatible server on a free port,
    stopped after the test."""
    servers: list[ScriptedServer] = []

    def start(script: Any, **options: Any) -> ScriptedServer:
        server = ScriptedServer(script, **options).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
