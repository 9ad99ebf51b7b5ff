"""Does each installed local server serve, not only start? One real request each, for scripts/bootstrap.sh.

    .venv/bin/python -m model_access.local_servers.readiness [--force] llama_cpp whisper

llama.cpp: a completion of a few tokens from the bundled SmolLM2; faster-whisper: the transcription of a short
espeak-ng phrase (an ffmpeg tone without espeak-ng). A server that dies, or answers with an error, fails the install
with one line naming it, how it ended (the signal, the exit code or the HTTP status) and its log. Starting is not
enough: a llama.cpp built for another CPU loads its model and answers `/v1/models`, then dies with SIGILL on its
first completion (ggml's AMX matmul; issue 59).

A check that passed leaves `.venv-servers/<name>/.ready` holding this machine's CPU fingerprint; later installs skip
the check until the server is installed again (its `.installed` is newer) or the checkout runs on another CPU.
"""

from __future__ import annotations

import hashlib
import json
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from pathlib import Path

from foundation.errors import UserError
from model_access.local_servers.process import LocalServer, exit_description, servers_dir

REQUEST_TIMEOUT_S = 180.0  # a loaded 2-core machine; a healthy answer takes a second or two
REINSTALL = {
    "llama_cpp": "rm .venv-servers/llama_cpp/.installed && bash scripts/servers/llama_cpp.sh",
    "whisper": "rm -r .venv-servers/whisper && bash scripts/servers/whisper.sh",
}
ILLEGAL_INSTRUCTION_HINT = (
    "the build uses an instruction this CPU lacks: turn it off in scripts/servers/llama_cpp_flags.txt, then run "
    "bash scripts/servers/llama_cpp.sh (new flags build llama.cpp again)"
)


def _hint(server: LocalServer) -> str:
    code = server.process.poll() if server.process is not None else None
    if server.name == "llama_cpp" and code == -signal.SIGILL:
        return ILLEGAL_INSTRUCTION_HINT
    return f"see its log; install it again with: {REINSTALL.get(server.name, 'its scripts/servers/ script')}"


class NotReady(UserError):
    """A local server failed its first real request; the message is the one line the install prints."""


def cpu_fingerprint() -> str:
    """The machine and its CPU's instruction sets: a build that served on one CPU may not on another."""
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        cpuinfo = ""
    flags = next((line.partition(":")[2].strip() for line in cpuinfo.splitlines() if line.startswith("flags")), "")
    return hashlib.sha256(f"{platform.machine()} {flags}".encode()).hexdigest()[:16]


def is_ready(name: str) -> bool:
    """Whether server `name` passed its check on this CPU since it was last installed."""
    stamp, installed = servers_dir() / name / ".ready", servers_dir() / name / ".installed"
    try:
        return stamp.stat().st_mtime >= installed.stat().st_mtime and stamp.read_text().strip() == cpu_fingerprint()
    except OSError:
        return False


def _post(url: str, body: bytes, content_type: str) -> dict:
    request = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": content_type})
    with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT_S) as response:
        return json.loads(response.read() or b"{}")


def _ask(server: LocalServer, what: str, send: Callable[[], dict]) -> dict:
    """`send()` once; NotReady naming the server and how it failed, with its log, when it does not answer."""
    assert server.process is not None
    try:
        return send()
    except urllib.error.HTTPError as exc:  # it answered, so it is alive
        failure = f"HTTP {exc.code} ({' '.join(exc.read().decode(errors='replace').split())[:200]})"
    except (OSError, ValueError) as exc:  # refused, reset, timed out, or not JSON
        failure = f"{type(exc).__name__}: {exc}"
        try:
            server.process.wait(timeout=3)  # a process that just crashed may not be reaped yet
        except subprocess.TimeoutExpired:
            pass
    code = server.process.poll()
    ended = exit_description(code) if code is not None else f"failed ({failure})"
    raise NotReady(f"[servers] {server.title} {ended} on its first {what}; log: {server.log_path}; {_hint(server)}")


def _check_log(server: LocalServer) -> LocalServer:
    """The server with its log at .venv-servers/logs/<name>-check.log, emptied."""
    server.log_path = servers_dir() / "logs" / f"{server.name}-check.log"
    server.log_path.parent.mkdir(parents=True, exist_ok=True)
    server.log_path.write_bytes(b"")
    return server


def check_llama_cpp(work: Path) -> str:
    from model_access.local_servers.llama_cpp import llama_cpp_server

    server = _check_log(llama_cpp_server(work, context=2048))
    body = json.dumps({"model": server.model, "prompt": "The capital of France is", "max_tokens": 4,
                       "temperature": 0}).encode()  # fmt: skip
    with _started(server):
        started = time.monotonic()
        reply = _ask(server, "completion", lambda: _post(f"{server.base_url}/completions", body, "application/json"))
        tokens = (reply.get("usage") or {}).get("completion_tokens", "?")
        return f"{server.title} answered a completion ({tokens} tokens) in {time.monotonic() - started:.1f} s"


def speech_wav(path: Path) -> Path:
    """A second or two of speech (espeak-ng), or of a tone (ffmpeg) where espeak-ng is missing."""
    if shutil.which("espeak-ng"):
        command = ["espeak-ng", "-w", str(path), "Open the shop."]
    else:
        command = ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1", str(path)]
    subprocess.run(command, check=True, capture_output=True, timeout=60)
    return path


def _multipart(fields: dict[str, str], file_name: str, data: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
             for name, value in fields.items()]  # fmt: skip
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{file_name}"\r\n'
                 "Content-Type: audio/wav\r\n\r\n".encode() + data + b"\r\n")  # fmt: skip
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def check_whisper(work: Path) -> str:
    from model_access.local_servers.whisper import whisper_server

    server = _check_log(whisper_server(work))
    # faster-whisper-server reads the model from `model_name` (model_access/local_servers/whisper.py).
    fields = {"model_name": server.model, "model": server.model, "response_format": "json", "language": "en"}
    body, kind = _multipart(fields, "check.wav", speech_wav(work / "check.wav").read_bytes())
    with _started(server):
        started = time.monotonic()
        reply = _ask(server, "transcription", lambda: _post(f"{server.base_url}/audio/transcriptions", body, kind))
        text = str(reply.get("text", "")).strip()
        return f"{server.title} transcribed a test phrase ({text!r}) in {time.monotonic() - started:.1f} s"


class _started:
    """Start `server` (NotReady with the install's one line when it cannot), stop it on the way out."""

    def __init__(self, server: LocalServer) -> None:
        self.server = server

    def __enter__(self) -> LocalServer:
        try:
            return self.server.start()
        except UserError as exc:
            raise NotReady(f"[servers] {exc}; {_hint(self.server)}") from exc

    def __exit__(self, *exc: object) -> None:
        self.server.stop()


CHECKS: dict[str, Callable[[Path], str]] = {"llama_cpp": check_llama_cpp, "whisper": check_whisper}


def main(argv: list[str]) -> int:
    force = "--force" in argv
    names = [arg for arg in argv if arg != "--force"] or list(CHECKS)
    unknown = [name for name in names if name not in CHECKS]
    if unknown:
        print(f"[servers] error: no readiness check for {', '.join(unknown)} (known: {', '.join(CHECKS)})",
              file=sys.stderr)  # fmt: skip
        return 2
    failed = False
    for name in names:
        if not force and is_ready(name):
            continue
        with tempfile.TemporaryDirectory(prefix=f"ready-{name}-") as work:
            try:
                print(f"[servers] {CHECKS[name](Path(work))}", flush=True)
            except UserError as exc:
                failed = True
                line = str(exc) if str(exc).startswith("[servers]") else f"[servers] {name}: {exc}"
                print(line, file=sys.stderr, flush=True)
                continue
        (servers_dir() / name / ".ready").write_text(cpu_fingerprint() + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
