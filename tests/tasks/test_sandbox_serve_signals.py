"""A foreground `videodemo sandbox serve` takes its two site servers with it, however it is stopped:
SIGTERM, SIGINT (Ctrl-C from another terminal, `kill -INT`), and even SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tasks.sandbox import server
from tasks.sandbox.sites import SITES
from tests.tasks.test_sandbox_server import PROJECT_ROOT, free_port, ports_args

NAMES = ["shop", "forum"]


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    """One cache for the module, so the seed databases are built once."""
    return tmp_path_factory.mktemp("serve-cache")


def running(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie waiting to be reaped is not)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return False
    return fields[0] != "Z"


def start_serve(cache: Path) -> tuple[subprocess.Popen, dict[str, int], dict[str, int]]:
    """(the serve process, site -> port, site -> server PID) once both sites answer."""
    ports = {name: free_port() for name in NAMES}
    env = dict(os.environ, VIDEODEMO_CACHE=str(cache), PYTHONUNBUFFERED="1")
    for spec in SITES.values():
        env.pop(spec.env_var, None)
    args = [sys.executable, "-m", "cli.main", "sandbox", "serve", *[a for name in NAMES for a in ("--site", name)], *ports_args(ports)]
    # A suite started in the background (`cmd &`, nohup) inherits an ignored SIGINT, and Python then installs no
    # Ctrl-C handler: the child gets the default back, as a terminal's serve has it.
    serve = subprocess.Popen(
        args, env=env, cwd=PROJECT_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    lines = []
    while not lines or lines[-1] != "Ctrl-C stops them":
        line = serve.stdout.readline()
        assert line, f"serve ended before the sites were up: {''.join(lines)}{serve.stderr.read()}"
        lines.append(line.strip())
    pids = {name: int((cache / "sandbox" / "run" / f"{name}.pid").read_text()) for name in NAMES}
    assert all(running(pid) for pid in pids.values())
    assert all(server.port_in_use("127.0.0.1", port) for port in ports.values())
    return serve, ports, pids


def assert_sites_gone(ports: dict[str, int], pids: dict[str, int], within_s: float = 15.0) -> None:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        alive = [name for name, pid in pids.items() if running(pid)]
        bound = [name for name, port in ports.items() if server.port_in_use("127.0.0.1", port)]
        if not alive and not bound:
            return
        time.sleep(0.1)
    for pid in pids.values():  # do not leave them to the next test
        if running(pid):
            os.kill(pid, signal.SIGKILL)
    raise AssertionError(f"site servers still running: {alive}; ports still bound: {bound}")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_stop_signal_ends_serve_and_both_site_servers(cache, signum):
    serve, ports, pids = start_serve(cache)
    serve.send_signal(signum)  # to the serve process alone, as `kill PID` does
    assert serve.wait(timeout=30) == 0, serve.stderr.read()
    serve.stdout.close()
    serve.stderr.close()
    assert_sites_gone(ports, pids)
    assert not any((cache / "sandbox" / "run" / f"{name}.pid").exists() for name in NAMES)


def test_sites_do_not_outlive_a_killed_serve(cache):
    serve, ports, pids = start_serve(cache)
    serve.kill()  # SIGKILL: no clean-up code of serve runs
    serve.wait(timeout=30)
    serve.stdout.close()
    serve.stderr.close()
    assert_sites_gone(ports, pids)
