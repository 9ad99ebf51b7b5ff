"""Start one server process on a free port, wait until it answers, stop it and everything it started."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from foundation.errors import UserError

PROJECT_ROOT = Path(__file__).resolve().parents[2]


class ServerMissing(UserError):
    """A local server's environment or weights are not installed; the message names the install script."""


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

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> "LocalServer":
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("ab")
        env = {**os.environ, **self.env}
        # Its own process group, so stop() also ends the workers a server forks.
        self.process = subprocess.Popen(
            self.command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
        log.close()
        deadline = time.monotonic() + self.startup_timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise UserError(
                    f"the local {self.name} server exited with code {self.process.returncode} while starting; "
                    f"its log {self.log_path} ends with: {self.log_tail()}"
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
