"""A local server that died is named with how it ended, not reported as "connection refused" (issue 59).

A tiny stdlib HTTP server stands for a model server here (the real llama.cpp one is killed in
tests/real_servers/test_server_death.py): started as a LocalServer, killed, then asked through the model client,
its pre-run check, the test suite's failure hook and the install's readiness check.
"""

from __future__ import annotations

import os
import signal
import sys
import textwrap
from pathlib import Path

import pytest

from model_access.client import ModelClient
from model_access.health import EndpointDown, check_endpoint
from model_access.local_servers import readiness
from model_access.local_servers.process import (
    LocalServer,
    LocalServerDied,
    dead_server_at,
    dead_servers,
    exit_description,
    free_port,
)
from model_access.local_servers.readiness import NotReady, _ask, _post
from model_access.messages import user_message
from tests.conftest import _name_dead_servers

# Answers GET /v1/models, which is all LocalServer.start asks.
_TINY_SERVER = textwrap.dedent("""
    import http.server, sys
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = b'{"object": "list", "data": [{"id": "tiny", "object": "model"}]}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        def log_message(self, *args):
            pass
    http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
""")


@pytest.fixture
def tiny_server(tmp_path: Path):
    port = free_port()
    server = LocalServer("tiny", [sys.executable, "-c", _TINY_SERVER, str(port)], port, tmp_path / "tiny.log",
                         model="tiny", startup_timeout_s=60)  # fmt: skip
    with server:
        yield server


def _kill(server: LocalServer, number: signal.Signals = signal.SIGKILL) -> int:
    assert server.process is not None
    pid = server.process.pid
    os.kill(pid, number)
    server.process.wait(timeout=30)
    return pid


def test_exit_descriptions_name_the_signal() -> None:
    assert exit_description(-signal.SIGILL) == "died with SIGILL (illegal instruction)"
    assert exit_description(-signal.SIGKILL).startswith("died with SIGKILL")
    assert exit_description(1) == "exited with code 1"


def test_a_running_or_stopped_server_has_no_death_note(tiny_server: LocalServer) -> None:
    assert tiny_server.death_note() is None and dead_server_at(tiny_server.base_url) is None
    tiny_server.stop()  # asked to end: no death
    assert tiny_server.death_note() is None and dead_servers() == []


def test_a_killed_server_is_named_by_the_client_and_the_pre_run_check(tiny_server: LocalServer, model_settings) -> None:
    model_settings.models.llm.base_url = tiny_server.base_url
    model_settings.models.llm.model = tiny_server.model
    pid = _kill(tiny_server)
    note = f"local tiny server (pid {pid}) died with SIGKILL"
    with ModelClient(model_settings) as client:
        with pytest.raises(EndpointDown) as called:
            client.chat("llm", [user_message("hello")], stage="check", use_cache=False)
        with pytest.raises(EndpointDown) as checked:
            check_endpoint(client, "llm")
    for raised in (called.value, checked.value):
        assert note in str(raised) and str(tiny_server.log_path) in str(raised)
    assert client.ledger.usage().retries == 0  # a dead process is not asked again


def test_a_failing_test_with_a_dead_server_fails_with_its_death(tiny_server: LocalServer) -> None:
    pid = _kill(tiny_server, signal.SIGILL)
    hook = _name_dead_servers()
    next(hook)
    with pytest.raises(LocalServerDied, match=rf"\(pid {pid}\) died with SIGILL \(illegal instruction\); log: "):
        hook.throw(ConnectionRefusedError(111, "Connection refused"))


def test_the_install_check_names_a_server_that_dies_on_its_first_request(tiny_server: LocalServer) -> None:
    def send() -> dict:
        _kill(tiny_server, signal.SIGILL)
        return _post(f"{tiny_server.base_url}/completions", b"{}", "application/json")

    with pytest.raises(NotReady) as caught:
        _ask(tiny_server, "completion", send)
    line = str(caught.value)
    assert line.startswith("[servers] local tiny server died with SIGILL (illegal instruction) on its first completion; "
                           f"log: {tiny_server.log_path}; ")  # fmt: skip
    assert "\n" not in line


def test_the_install_check_names_an_http_error(tiny_server: LocalServer) -> None:
    with pytest.raises(NotReady, match=r"local tiny server failed \(HTTP 501 .*\) on its first completion; log: "):
        _ask(tiny_server, "completion", lambda: _post(f"{tiny_server.base_url}/completions", b"{}", "application/json"))


def test_the_install_check_runs_once_per_install_and_cpu(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("VIDEODEMO_SERVERS", str(tmp_path))
    (tmp_path / "fake").mkdir()
    (tmp_path / "fake" / ".installed").touch()
    asked: list[Path] = []
    monkeypatch.setitem(readiness.CHECKS, "fake", lambda work: asked.append(work) or "fake server answered")
    assert readiness.main(["fake"]) == 0 and readiness.main(["fake"]) == 0
    assert len(asked) == 1 and readiness.is_ready("fake")  # stamped with this CPU: not asked again
    (tmp_path / "fake" / ".ready").write_text("another-cpu\n")
    assert readiness.main(["fake"]) == 0 and len(asked) == 2

    def dies(work: Path) -> str:
        raise NotReady("[servers] fake server died with SIGILL (illegal instruction) on its first completion; log: x")

    monkeypatch.setitem(readiness.CHECKS, "fake", dies)
    assert readiness.main(["--force", "fake"]) == 1
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith("[servers] fake server died with SIGILL")
