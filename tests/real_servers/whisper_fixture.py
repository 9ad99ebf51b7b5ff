"""The real speech-recognition server for the real-server tier, and a recording proxy in front of it.

`whisper_server` starts faster-whisper-server with the Whisper tiny.en shipped in a wheel
(model_access/local_servers/whisper.py) once per test session. Without its environment
the tests are skipped with the install command, unless VIDEODEMO_REQUIRE_REAL_SERVERS is
set (CI sets it): then a missing server fails them. `RecordingProxy` passes requests on
to it unchanged and keeps what each one carried (path, size, form fields, the uploaded
file's name, size and first bytes), so a test asserts on what went over the wire.
"""

from __future__ import annotations

import os
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator

import pytest

from foundation.errors import UserError
from model_access.local_servers.process import LocalServer, ServerMissing
from model_access.local_servers.whisper import start_whisper
from model_access.scripted_server import _form_fields

REQUIRE = "VIDEODEMO_REQUIRE_REAL_SERVERS"


@pytest.fixture(scope="session")
def whisper_server(tmp_path_factory) -> Iterator[LocalServer]:
    try:
        server = start_whisper(tmp_path_factory.mktemp("whisper-server"))
    except ServerMissing as exc:
        if os.environ.get(REQUIRE):
            pytest.fail(f"{exc} ({REQUIRE} is set, so a missing real server fails)")
        pytest.skip(f"{exc} (set {REQUIRE}=1 to make this a failure)")
    except UserError as exc:
        pytest.fail(str(exc))
    try:
        yield server
    finally:
        server.stop()


class RecordingProxy:
    """A loopback HTTP proxy to `target` (a base URL ending in /v1) that records each request; a context manager."""

    def __init__(self, target: str) -> None:
        self.target = target.rstrip("/")
        self.requests: list[dict[str, Any]] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                kind = self.headers.get("Content-Type", "")
                seen: dict[str, Any] = {"path": self.path, "bytes": len(body)}
                try:
                    seen["form"] = _form_fields(kind, body)
                except ValueError:
                    seen["form"] = {}
                proxy.requests.append(seen)
                upstream = proxy.target + self.path[len("/v1"):]
                request = urllib.request.Request(upstream, data=body, method="POST", headers={"Content-Type": kind})
                try:
                    with urllib.request.urlopen(request, timeout=600) as response:
                        status, reply = response.status, response.read()
                        reply_kind = response.headers.get("Content-Type")
                except urllib.error.HTTPError as exc:
                    status, reply, reply_kind = exc.code, exc.read(), exc.headers.get("Content-Type")
                self.send_response(status)
                self.send_header("Content-Type", reply_kind or "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args: Any) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> "RecordingProxy":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)
