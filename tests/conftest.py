"""Fixtures shared by the whole suite: isolated settings, the running sandbox sites, Chromium."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from model_access.local_servers.process import LocalServerDied, dead_servers
from model_access.scripted_server import ScriptedServer
from settings import Settings, load_settings


TESTS_DIR = Path(__file__).resolve().parent
# The heaviest modules (docs/testing.md, measured), or folders of them: `make test`'s parallel run (pytest-xdist,
# `--dist loadfile`: a module stays on one worker, so its module fixtures are made once) hands them out first, so
# that neither worker is left with a long module at the end while the other idles. `--no-loadscope-reorder` keeps
# this order: xdist otherwise hands out the modules with the most tests first, and these have few.
HEAVY_FIRST = (
    "real_servers/test_roles_on_real_servers.py", "tasks/test_sandbox_plays_reference_shop.py",
    "tasks/test_tutorials_teach.py", "tasks/test_sandbox_plays_reference_forum.py", "tasks/test_tutorials.py",
    "tasks/test_sandbox_plays_nothing_shop.py", "tasks/test_sandbox_plays_nothing_forum.py", "cli/test_demo.py",
    "real_servers/", "tasks/test_labeler_sealed.py", "running/test_runner.py", "ecosystem/",
    "running/test_run_folder_lock.py", "tasks/test_labeler_untouched.py",
    "processing/test_process_videos_lock.py",
    "running/test_run_samples.py", "agent/test_replay_policy.py", "reports/test_loss_account.py",
    "tasks/test_forum_site.py",
)  # fmt: skip
TEST_PORTS = 17770  # the sandbox sites of worker N listen on 17770 + 2N and 17771 + 2N when those are free


def pytest_configure(config: pytest.Config) -> None:
    from tests.memory_watch import MemoryWatch  # each file's peak memory, and its bound (issue 65)

    config.pluginmanager.register(MemoryWatch(config), "memory-watch")


def _heaviness(item) -> int:
    relative = Path(str(item.fspath)).resolve().relative_to(TESTS_DIR).as_posix()
    return next((rank for rank, start in enumerate(HEAVY_FIRST) if relative.startswith(start)), len(HEAVY_FIRST))


def pytest_collection_modifyitems(config, items) -> None:
    """`HEAVY_FIRST` modules first, so a parallel run hands them out first; the order is otherwise kept."""
    items.sort(key=_heaviness)  # stable


def _name_dead_servers() -> Generator[None, object, object]:
    """A test (or its setup) that failed while a local model server it started had died fails with that death:
    "llama.cpp server (pid N) died with SIGILL (illegal instruction); log: ...", the original error chained."""
    try:
        return (yield)
    except Exception as exc:  # not pytest's skip/fail outcomes, which are BaseExceptions
        notes = dead_servers()
        if not notes or isinstance(exc, LocalServerDied) or any(note in str(exc) for note in notes):
            raise
        raise LocalServerDied("; ".join(notes)) from exc


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _name_dead_servers())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _name_dead_servers())


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_or_free(preferred: int) -> int:
    """`preferred` when it is free, else any free port. The same ports session after session let the recordings
    store (tasks/recording_store.py) reuse the sandbox tutorials, whose browser bar shows the site's address."""
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", preferred))
        except OSError:
            return free_port()
    return preferred


def worker_number() -> int:
    """0 in a serial run, N in pytest-xdist's worker gwN."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(name[2:]) if name[2:].isdigit() else 0


@pytest.fixture(scope="session")
def test_cache_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="session")
def test_settings(test_cache_dir: Path) -> Settings:
    """Settings with a private cache folder and free ports, so tests never touch the user's sandbox."""
    settings = load_settings()
    settings.paths.cache_dir = test_cache_dir
    # Not the sandbox's own ports (7770, 9999): a user's sandbox may be running.
    settings.sandbox.shop_port = port_or_free(TEST_PORTS + 2 * worker_number())
    settings.sandbox.forum_port = port_or_free(TEST_PORTS + 2 * worker_number() + 1)
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
