"""The BrowserGym bridge's tests drive the BrowserGym environment's own Python by subprocess (it pins an older
Playwright than ours), as the real-server tier drives its servers. A missing environment skips them with the line
that installs it, unless VIDEODEMO_REQUIRE_REAL_SERVERS=1 (as `make test` and CI set it): then they fail."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from model_access.local_servers.process import ServerMissing, server_python

PROJECT_ROOT = Path(__file__).resolve().parents[2]
REQUIRE = os.environ.get("VIDEODEMO_REQUIRE_REAL_SERVERS", "") not in ("", "0")


def _environment(name: str, script: str, what: str) -> Path:
    """The Python of server environment `name`; missing, a skip with the line that installs it (a failure when
    REQUIRE)."""
    try:
        return server_python(name, script=script, what=what)
    except ServerMissing as missing:
        message = f"{missing} (make test does)"
        if REQUIRE:
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="session")
def browsergym_python() -> Path:
    return _environment("browsergym", "browsergym", "the BrowserGym environment")


@pytest.fixture(scope="session")
def verified_python() -> Path:
    """The WebArena-Verified environment's Python (scripts/servers/webarena_verified.sh), gated like the above."""
    return _environment("webarena-verified", "webarena_verified", "the WebArena-Verified environment")


@pytest.fixture(scope="module")
def bridge(browsergym_python, sandbox, test_settings) -> Callable[..., dict]:
    """bridge(module, *args): run `python -m ecosystem.browsergym.<module> *args` in the BrowserGym environment
    against this session's sandbox; its last stdout line, read as JSON."""
    settings = [
        f"sandbox.shop_port={test_settings.sandbox.shop_port}",
        f"sandbox.forum_port={test_settings.sandbox.forum_port}",
        f"sandbox.reset_token={test_settings.sandbox.reset_token}", f"paths.cache_dir={test_settings.paths.cache_dir}",
    ]  # fmt: skip

    def run(module: str, *args: str, timeout: float = 300, sandbox_settings: bool = True) -> dict:
        command = [str(browsergym_python), "-m", f"ecosystem.browsergym.{module}", *args]
        for item in settings if sandbox_settings else []:
            command += ["--set", item]
        env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env, cwd=PROJECT_ROOT)
        assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stderr[-3000:]}"
        return json.loads(done.stdout.strip().splitlines()[-1])

    return run
