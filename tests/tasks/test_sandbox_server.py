"""The sandbox base: starting, checking, resetting and stopping the sites, through the
`videodemo sandbox ...` command and `python -m tasks.sandbox.server` as a user runs them.

Every failure a user can cause must come out as one line naming the problem and the
fix, with a non-zero exit code and no traceback.
"""

from __future__ import annotations

import copy
import os
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from foundation.errors import UserError
from tasks.sandbox import server
from tasks.sandbox.sites import SITES

VIDEODEMO = str(Path(sys.executable).parent / "videodemo")
# The forum is built alongside the shop; test every site whose package exists.
PROJECT_ROOT = Path(__file__).parents[2]
SITE_NAMES = [name for name, spec in SITES.items() if (PROJECT_ROOT / spec.package.replace(".", "/")).is_dir()]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def busy_port():
    """A port held by another socket, as when something else already listens there."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


def run(args: list[str], cache: Path, extra_env: dict[str, str] | None = None, keep_site_urls: bool = False):
    # This checkout's code first: the environment's `videodemo` may be an editable install of another checkout.
    path = os.pathsep.join(filter(None, [str(PROJECT_ROOT), os.environ.get("PYTHONPATH", "")]))
    env = dict(os.environ, VIDEODEMO_CACHE=str(cache), PYTHONPATH=path)
    if not keep_site_urls:
        for spec in SITES.values():
            env.pop(spec.env_var, None)
    env.update(extra_env or {})
    return subprocess.run(args, capture_output=True, text=True, env=env, timeout=120, cwd=PROJECT_ROOT)


def assert_one_line_error(result: subprocess.CompletedProcess, *fragments: str) -> None:
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def ports_args(ports: dict[str, int]) -> list[str]:
    args = []
    for name, port in ports.items():
        args += ["--set", f"sandbox.{SITES[name].port_setting}={port}"]
    return args


def live_counts(url: str) -> dict:
    return requests.get(url + "/__sandbox__/health", timeout=10).json()["counts"]


# ---- starting ----


@pytest.mark.parametrize("name", SITE_NAMES)
def test_starting_a_site_on_a_busy_port_names_the_port_and_the_fix(
    test_settings, tmp_path, busy_port, monkeypatch, name
):
    for spec in SITES.values():
        monkeypatch.delenv(spec.env_var, raising=False)
    settings = copy.deepcopy(test_settings)
    settings.paths.cache_dir = tmp_path
    setattr(settings.sandbox, SITES[name].port_setting, busy_port)
    with pytest.raises(UserError) as caught:
        server.start_background(settings, [name])
    message = str(caught.value)
    assert f"port {busy_port}" in message and f"--set sandbox.{SITES[name].port_setting}=" in message


def test_cli_serve_on_a_busy_port_prints_one_line(tmp_path, busy_port):
    args = [VIDEODEMO, "sandbox", "serve", "--site", "shop", "--background", *ports_args({"shop": busy_port})]
    result = run(args, tmp_path)
    assert_one_line_error(result, f"port {busy_port}", "sandbox.shop_port")


def test_server_module_with_a_missing_database_file_prints_one_line(tmp_path):
    missing = tmp_path / "missing.sqlite"
    result = run(
        [sys.executable, "-m", "tasks.sandbox.server", "--site", "shop", "--db", str(missing),
         "--port", str(free_port())],
        tmp_path,
    )
    assert_one_line_error(result, str(missing), "sandbox reset")


def test_cli_serve_status_stop_cycle(tmp_path):
    ports = {name: free_port() for name in SITE_NAMES}
    names = [arg for name in SITE_NAMES for arg in ("--site", name)]
    try:
        started = run([VIDEODEMO, "sandbox", "serve", "--background", *names, *ports_args(ports)], tmp_path)
        assert started.returncode == 0, started.stderr
        assert "running in the background" in started.stdout
        status = run([VIDEODEMO, "sandbox", "status", *ports_args(ports)], tmp_path)
        for name, port in ports.items():
            line = next(line for line in status.stdout.splitlines() if line.startswith(name))
            assert "up" in line.split() and f"127.0.0.1:{port}" in line
        shop_line = next(line for line in status.stdout.splitlines() if line.startswith("shop"))
        assert "products=" in shop_line
    finally:
        stopped = run([VIDEODEMO, "sandbox", "stop", *ports_args(ports)], tmp_path)
    assert stopped.returncode == 0 and all(name in stopped.stdout for name in SITE_NAMES)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(server.port_in_use("127.0.0.1", p) for p in ports.values()):
        time.sleep(0.2)
    after = run([VIDEODEMO, "sandbox", "status", *ports_args(ports)], tmp_path)
    assert after.returncode == 1 and "DOWN" in after.stdout


def test_sites_started_from_another_cache_are_named_with_how_to_stop_them(tmp_path):
    # Both sites on free ports: `sandbox stop` looks at every site, and a sandbox already running on the default
    # ports (a demo's) is another cache's too.
    ports = {"shop": free_port(), "forum": free_port()}
    first, second = tmp_path / "first", tmp_path / "second"
    try:
        started = run([VIDEODEMO, "sandbox", "serve", "--background", "--site", "shop", *ports_args(ports)], first)
        assert started.returncode == 0, started.stderr
        again = run([VIDEODEMO, "sandbox", "serve", "--background", "--site", "shop", *ports_args(ports)], second)
        assert again.returncode == 0, again.stderr
        # The site is first's: this cache's `sandbox stop` cannot stop it, and the output says so and how.
        assert "started from another cache" in again.stdout and "`kill " in again.stdout, again.stdout
        assert "`videodemo sandbox stop` stops those" not in again.stdout
        # `sandbox status` here (its ports named, not the SHOPPING/REDDIT variables) says the site is not this
        # cache's, and whose it is.
        status = run([VIDEODEMO, "sandbox", "status", *ports_args(ports)], second)
        shop = status.stdout.split("shop", 1)[1].split("forum")[0]
        assert f"not started from {second}" in shop and "pid " in shop, status.stdout
        assert "not started from" not in run([VIDEODEMO, "sandbox", "status", *ports_args(ports)], first).stdout
        stop_here = run([VIDEODEMO, "sandbox", "stop", *ports_args(ports)], second)
        assert f"nothing started from {second}" in stop_here.stdout
        assert "the shop site at" in stop_here.stdout and "`kill " in stop_here.stdout, stop_here.stdout
        assert server.port_in_use("127.0.0.1", ports["shop"])  # still up: first's
        # `videodemo demo` plays on whatever answers on its ports: it says whose the site is.
        overrides = [arg for arg in ports_args(ports) if arg != "--set"]
        demo_start = ("import sys; from cli.demo_steps import PhaseClock, start_sites; "
                      "from settings import load_settings; "
                      "start_sites(load_settings(overrides=sys.argv[1:]), PhaseClock())")  # fmt: skip
        demo = run([sys.executable, "-c", demo_start, *overrides], second)
        assert demo.returncode == 0, demo.stderr
        assert "note: the shop site at" in demo.stdout and "started from another cache" in demo.stdout, demo.stdout
    finally:
        run([VIDEODEMO, "sandbox", "stop", *ports_args(ports)], second)  # the forum the demo started there
        stopped = run([VIDEODEMO, "sandbox", "stop", *ports_args(ports)], first)
    assert "stopped: shop" in stopped.stdout and "another cache" not in stopped.stdout


def test_cli_status_reports_the_running_sandbox(sandbox):
    result = run([VIDEODEMO, "sandbox", "status"], sandbox.settings.paths.cache_dir, keep_site_urls=True)
    lines = {line.split()[0]: line for line in result.stdout.splitlines() if line.strip()}
    assert lines["shop"].split()[1] == "up" and sandbox.shop_url in lines["shop"]
    assert "products=" in lines["shop"] and "orders=" in lines["shop"]
    if "forum" in SITE_NAMES:
        assert lines["forum"].split()[1] == "up"
    assert result.returncode == 0


# ---- resetting ----


def test_cli_reset_with_a_wrong_token_prints_one_line(sandbox):
    result = run(
        [VIDEODEMO, "sandbox", "reset", "--site", "shop", "--token", "not-the-token"],
        sandbox.settings.paths.cache_dir,
        keep_site_urls=True,
    )
    assert_one_line_error(result, "refused the reset token", "--set sandbox.reset_token")


@pytest.mark.parametrize("name", SITE_NAMES)
def test_cli_reset_restores_the_seed_of_a_running_site(sandbox, name):
    # Its time (issue target: under 5 s) is measured by benchmarks/sandbox_reset.py, not here: on a loaded
    # machine the command's own start alone can take longer.
    spec = SITES[name]
    url = server.site_url(spec, sandbox.settings)
    sandbox.reset()
    seeded = live_counts(url)
    _, live_path = server.paths_for(spec, sandbox.settings)
    conn = sqlite3.connect(live_path, timeout=30)
    try:
        conn.execute("PRAGMA foreign_keys = OFF")
        tables = [
            row[0]
            for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        ]
        with conn:
            for table in tables:
                conn.execute(f'DELETE FROM "{table}"')
    finally:
        conn.close()
    assert live_counts(url) != seeded

    result = run(
        [VIDEODEMO, "sandbox", "reset", "--site", name, "--token", sandbox.settings.sandbox.reset_token],
        sandbox.settings.paths.cache_dir,
        keep_site_urls=True,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().startswith(f"{name}: reset through its endpoint")
    assert live_counts(url) == seeded


def test_cli_reset_of_a_stopped_site_rewrites_its_database_file(tmp_path):
    ports = ports_args({"shop": free_port()})
    result = run([VIDEODEMO, "sandbox", "reset", "--site", "shop", *ports], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "shop: reset on its database file (site not running)" in result.stdout
    live = tmp_path / "sandbox" / "shop.sqlite"
    conn = sqlite3.connect(live)
    try:
        with conn:
            conn.execute("DELETE FROM review")
        assert conn.execute("SELECT COUNT(*) FROM review").fetchone()[0] == 0
    finally:
        conn.close()
    again = run([VIDEODEMO, "sandbox", "reset", "--site", "shop", *ports], tmp_path)
    assert again.returncode == 0, again.stderr
    conn = sqlite3.connect(live)
    try:
        assert conn.execute("SELECT COUNT(*) FROM review").fetchone()[0] > 500
    finally:
        conn.close()


def test_sites_up_stops_only_the_sites_it_started(tmp_path, monkeypatch):
    # What the recorder and the benchmarks rely on: a site already running before the block is still running after.
    from settings import load_settings

    monkeypatch.setenv("VIDEODEMO_CACHE", str(tmp_path))
    for spec in SITES.values():
        monkeypatch.delenv(spec.env_var, raising=False)
    ports = {name: free_port() for name in SITE_NAMES}
    settings = load_settings(overrides=[f"sandbox.{SITES[name].port_setting}={port}" for name, port in ports.items()])
    first, *others = SITE_NAMES
    server.start_background(settings, [first])
    try:
        with server.sites_up(settings, SITE_NAMES) as urls:
            assert [requests.get(url, timeout=5).ok for url in urls] == [True] * len(SITE_NAMES)
        assert server.port_in_use("127.0.0.1", ports[first])
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(server.port_in_use("127.0.0.1", ports[n]) for n in others):
            time.sleep(0.2)
        assert not any(server.port_in_use("127.0.0.1", ports[name]) for name in others)
    finally:
        server.stop_background(settings)
