"""Start one server process on a free port, wait until it answers, stop it and everything it started.

A server started here is remembered (per process) until it is stopped, so that a request that cannot reach it
can say why: `death_note()` names the server, its pid, the signal or exit code it ended with and its log, and
`dead_server_at(url)` finds the server behind a URL. The model client's connection watch
(model_access/health.py) and the test suite's failure hook (tests/conftest.py) put that line in place of a bare
"connection refused": a llama.cpp built for another CPU dies with SIGILL on its first completion (issue 59).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from foundation.errors import UserError

PROJECT_ROOT = Path(__file__).resolve().parents[2]


class ServerMissing(UserError):
    """A local server's environment or weights are not installed; the message names the install script."""


class LocalServerDied(UserError):
    """A local server process ended that nobody stopped; the message is its `death_note()`."""


# How the servers are named in messages.
TITLES = {"llama_cpp": "llama.cpp server", "whisper": "faster-whisper server", "transformers": "transformers serve"}
_LOOPBACK = {"127.0.0.1", "localhost", "::1"}
# The servers started in this process and not stopped, by port.
_started: dict[int, LocalServer] = {}
_started_lock = threading.Lock()


def exit_description(returncode: int) -> str:
    """How a process ended, as Popen's returncode says: "died with SIGILL (illegal instruction)", "exited with
    code 1" (a negative returncode is the signal that ended it)."""
    if returncode >= 0:
        return f"exited with code {returncode}"
    try:
        number = signal.Signals(-returncode)
    except ValueError:
        return f"died with signal {-returncode}"
    meaning = signal.strsignal(number)
    return f"died with {number.name}" + (f" ({meaning.lower()})" if meaning else "")


def dead_server_at(url: str) -> str | None:
    """The death note of the local server this process started behind `url`, if it has died; else None."""
    parts = urllib.parse.urlsplit(url)
    if parts.hostname not in _LOOPBACK or parts.port is None:
        return None
    with _started_lock:
        server = _started.get(parts.port)
    return server.death_note() if server is not None else None


def dead_servers() -> list[str]:
    """The death notes of every local server this process started that has died since."""
    with _started_lock:
        servers = list(_started.values())
    return [note for server in servers if (note := server.death_note())]


def servers_dir() -> Path:
    """Where the servers' virtual environments live (VIDEODEMO_SERVERS moves them off the checkout)."""
    return Path(os.environ.get("VIDEODEMO_SERVERS", PROJECT_ROOT / ".venv-servers"))


def server_python(name: str, script: str = "", what: str = "") -> Path:
    """The Python of server environment `name`, or ServerMissing naming the script that installs it
    (scripts/servers/<script or name>.sh); `what` names it in the message (default: the local <name> server)."""
    python = servers_dir() / name / "bin" / "python"
    if not python.is_file() or not (servers_dir() / name / ".installed").is_file():
        raise ServerMissing(f"{what or f'the local {name} server'} is not installed ({python} missing); "
                            f"run: bash scripts/servers/{script or name}.sh")  # fmt: skip
    return python


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class LocalServer:
    """A server command that serves the OpenAI API under `/v1` on `port`; a context manager."""

    name: str
    command: list[str]
    port: int
    log_path: Path
    env: dict[str, str] = field(default_factory=dict)
    # Loading weights on a loaded 2-core machine can take a minute.
    startup_timeout_s: float = 300.0
    # The model name requests must carry (what the server serves).
    model: str = ""
    process: subprocess.Popen | None = None
    # Set by stop(): an ending it asked for is no death.
    stopping: bool = field(default=False, init=False, repr=False)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def title(self) -> str:
        return TITLES.get(self.name, f"local {self.name} server")

    def death_note(self) -> str | None:
        """One line when the process has ended without stop() asking it to, else None: e.g. "llama.cpp server
        (pid 4242) died with SIGKILL (killed); log: /tmp/llama_cpp-5000.log"."""
        if self.process is None or self.stopping or self.process.poll() is None:
            return None
        ended = exit_description(self.process.returncode)
        return f"{self.title} (pid {self.process.pid}) {ended}; log: {self.log_path}"

    def start(self) -> "LocalServer":
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("ab")
        env = {**os.environ, **self.env}
        # Its own process group, so stop() also ends the workers a server forks.
        self.process = subprocess.Popen(
            self.command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
        log.close()
        self.stopping = False
        with _started_lock:
            _started[self.port] = self
        deadline = time.monotonic() + self.startup_timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self._forget()
                raise LocalServerDied(
                    f"{self.title} (pid {self.process.pid}) {exit_description(self.process.returncode)} while "
                    f"starting; its log {self.log_path} ends with: {self.log_tail()}"
                )
            if self.answers():
                return self
            time.sleep(0.5)
        self.stop()
        raise UserError(
            f"the local {self.name} server did not answer within {self.startup_timeout_s:.0f} s; "
            f"its log {self.log_path} ends with: {self.log_tail()}"
        )

    def answers(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.base_url}/models", timeout=2) as response:
                return response.status < 500
        except urllib.error.HTTPError as exc:
            return exc.code < 500
        except (OSError, urllib.error.URLError):
            return False

    def stop(self) -> None:
        self.stopping = True
        self._forget()
        if self.process is None or self.process.poll() is not None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=15)
        except ProcessLookupError:
            pass

    def _forget(self) -> None:
        with _started_lock:
            if _started.get(self.port) is self:
                del _started[self.port]

    def log_tail(self, lines: int = 5) -> str:
        try:
            text = self.log_path.read_text(errors="replace").strip().splitlines()
        except OSError:
            return "(no log)"
        return " | ".join(text[-lines:]) or "(empty log)"

    def __enter__(self) -> "LocalServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
