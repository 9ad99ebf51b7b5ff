"""Run, check and reset the sandbox sites.

Each site runs in its own process under waitress (a real multi-threaded WSGI
server) over its own SQLite file in `<cache>/sandbox/`. The seed database is
built once from deterministic seed code and rebuilt only when that code changes.

    python -m tasks.sandbox.server --site shop   # one site in the foreground (used by `serve`)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

from foundation.errors import UserError
from settings import Settings, load_settings
from tasks.sandbox.sites import SITES, SiteSpec
from tasks.sandbox.sites.base import HEALTH_PATH, RESET_PATH, TOKEN_HEADER, reset_database


@dataclass
class SiteStatus:
    name: str
    url: str
    up: bool
    detail: str
    # When it answers but this cache did not start it (no pid file of ours names its process): whose it is. Its
    # data is not this cache's database, and `sandbox stop` here does not stop it.
    elsewhere: str = ""


def site_url(spec: SiteSpec, settings: Settings) -> str:
    """Base URL of a site: the WebArena-style environment variable if set, else the local default."""
    from_env = os.environ.get(spec.env_var, "").strip()
    if from_env:
        return from_env.rstrip("/")
    return f"http://{settings.sandbox.host}:{getattr(settings.sandbox, spec.port_setting)}"


def bind_address(spec: SiteSpec, settings: Settings) -> tuple[str, int]:
    """Where to listen: follows the environment variable when it names a local port."""
    parsed = urlparse(site_url(spec, settings))
    if parsed.hostname in ("127.0.0.1", "localhost", "0.0.0.0") and parsed.port:
        return settings.sandbox.host, parsed.port
    return settings.sandbox.host, getattr(settings.sandbox, spec.port_setting)


def paths_for(spec: SiteSpec, settings: Settings) -> tuple[Path, Path]:
    """(seed database, live database) of a site."""
    root = settings.paths.sandbox_dir
    return root / "seed" / f"{spec.name}-{spec.seed_fingerprint()}.sqlite", root / f"{spec.name}.sqlite"


def ensure_seed(spec: SiteSpec, settings: Settings) -> Path:
    seed_path, _ = paths_for(spec, settings)
    if not seed_path.exists():
        seed_path.parent.mkdir(parents=True, exist_ok=True)
        for stale in seed_path.parent.glob(f"{spec.name}-*.sqlite"):
            stale.unlink()
        partial = seed_path.with_suffix(".partial")
        partial.unlink(missing_ok=True)
        spec.build_seed(partial)
        partial.rename(seed_path)
    return seed_path


def prepare_database(spec: SiteSpec, settings: Settings, fresh: bool = False) -> tuple[Path, Path]:
    """Build the seed if needed and make the live database from it when missing (or when `fresh`)."""
    seed_path = ensure_seed(spec, settings)
    _, live_path = paths_for(spec, settings)
    marker = live_path.with_suffix(".seed")
    # A live database made from an older seed would not match the current code.
    if fresh or not live_path.exists() or not marker.exists() or marker.read_text() != seed_path.name:
        shutil.copyfile(seed_path, live_path)
        marker.write_text(seed_path.name)
    return seed_path, live_path


def port_in_use(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return True
    return False


def check_port_free(spec: SiteSpec, host: str, port: int) -> None:
    if port_in_use(host, port):
        raise UserError(
            f"port {port} for the {spec.name} site is in use (another sandbox? see `videodemo sandbox status`); "
            f"stop it or pick another port with --set sandbox.{spec.port_setting}=N"
        )


def serve_foreground(spec: SiteSpec, settings: Settings, db_path: Path | None = None, threads: int = 8) -> None:
    """Serve one site in this process until interrupted."""
    import waitress

    host, port = bind_address(spec, settings)
    check_port_free(spec, host, port)
    if db_path is None:
        seed_path, db_path = prepare_database(spec, settings)
    else:
        if not db_path.exists():
            raise UserError(
                f"database file {db_path} for the {spec.name} site does not exist; "
                f"run `videodemo sandbox reset --site {spec.name}` to recreate it from the seed"
            )
        seed_path = ensure_seed(spec, settings)
    app = spec.create_app(db_path=db_path, seed_path=seed_path, reset_token=settings.sandbox.reset_token)
    waitress.serve(app, host=host, port=port, threads=threads, ident=f"sandbox-{spec.name}", _quiet=True)


# ---- background processes (used by `sandbox serve --background`, the demo and the tests) ----


def _run_dir(settings: Settings) -> Path:
    path = settings.paths.sandbox_dir / "run"
    path.mkdir(parents=True, exist_ok=True)
    return path


def start_background(
    settings: Settings, names: list[str] | None = None, timeout_s: float = 60.0, *, exit_with_parent: bool = False
) -> list[str]:
    """Start the named sites (all by default) as background processes and wait until they answer.

    Returns the base URLs. A site that is already up is left alone. With `exit_with_parent` the sites
    end when this process does, even when it is killed (a foreground `sandbox serve`).
    """
    urls = []
    for name in names or list(SITES):
        spec = SITES[name]
        url = site_url(spec, settings)
        if _health(url, timeout=1.0) is not None:
            urls.append(url)
            continue
        host, port = bind_address(spec, settings)
        check_port_free(spec, host, port)
        prepare_database(spec, settings)  # built here so that errors show in this process
        log_path = _run_dir(settings) / f"{spec.name}.log"
        env = dict(os.environ, VIDEODEMO_CACHE=str(settings.paths.cache_dir))
        cmd = [
            sys.executable,
            "-m",
            "tasks.sandbox.server",
            "--site",
            spec.name,
            "--host",
            host,
            "--port",
            str(port),
            "--reset-token",
            settings.sandbox.reset_token,
        ]
        if exit_with_parent:
            cmd += ["--exit-with-parent", str(os.getpid())]
        with open(log_path, "ab") as log:
            proc = subprocess.Popen(
                cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True, cwd=_project_root()
            )
        (_run_dir(settings) / f"{spec.name}.pid").write_text(str(proc.pid))
        _wait_until_up(spec, url, proc, log_path, timeout_s)
        urls.append(url)
    return urls


def _project_root() -> str:
    from settings import PROJECT_ROOT

    return str(PROJECT_ROOT)


def _wait_until_up(spec: SiteSpec, url: str, proc: subprocess.Popen, log_path: Path, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = log_path.read_text(errors="replace").strip().splitlines()[-1:] or ["(no output)"]
            raise UserError(f"the {spec.name} site exited at start: {tail[0]} (full log: {log_path})")
        if _health(url, timeout=1.0) is not None:
            return
        time.sleep(0.1)
    raise UserError(f"the {spec.name} site did not answer at {url} within {timeout_s:.0f}s; see {log_path}")


@contextmanager
def sites_up(settings: Settings, names: list[str] | None = None) -> Iterator[list[str]]:
    """The named sites (all by default) up for the block, their base URLs yielded; the ones it had to start are
    stopped after it, and sites already running (from this cache or another) are left as they were."""
    already_up = {row.name for row in status(settings) if row.up}
    urls = start_background(settings, names)
    try:
        yield urls
    finally:
        started_here = [name for name in names or list(SITES) if name not in already_up]
        if started_here:
            stop_background(settings, started_here)


def stop_background(settings: Settings, names: list[str] | None = None) -> list[str]:
    stopped = []
    for name in names or list(SITES):
        pid_file = _run_dir(settings) / f"{name}.pid"
        if not pid_file.exists():
            continue
        try:
            pid = int(pid_file.read_text())
            os.killpg(pid, signal.SIGTERM)
            stopped.append(name)
        except (ValueError, ProcessLookupError, PermissionError):
            pass
        else:
            _wait_for_exit(pid)
        pid_file.unlink(missing_ok=True)
    return stopped


def sites_of_others(settings: Settings, names: list[str] | None = None) -> list[str]:
    """One line per named site that answers but was not started from this cache (no pid file of ours names its
    process): whose it is and how to stop it, since `sandbox stop` here cannot."""
    lines = []
    for name in names or list(SITES):
        url = site_url(SITES[name], settings)
        health = _health(url, timeout=1.0)
        where = started_elsewhere(settings, name, health) if health is not None else ""
        if not where:
            continue
        pid = health.get("pid")
        stop = f"`kill {pid}`" if pid is not None else "`videodemo sandbox stop` run with the cache that started it"
        lines.append(
            f"the {name} site at {url} was started from another cache or command ({where}), not from "
            f"{settings.paths.cache_dir}: `videodemo sandbox stop` here does not stop it; stop it with {stop}"
        )
    return lines


def started_elsewhere(settings: Settings, name: str, health: dict) -> str:
    """'' when the site answering with `health` was started from this cache (its pid file names the process);
    else whose it is: "pid N, database PATH", or "an older server" for one whose health names no process."""
    pid_file = _run_dir(settings) / f"{name}.pid"
    ours = pid_file.read_text().strip() if pid_file.exists() else ""
    pid = health.get("pid")
    if ours and (pid is None or str(pid) == ours):
        return ""
    return f"pid {pid}, database {health.get('database', '?')}" if pid is not None else "an older server"


def _wait_for_exit(pid: int, timeout_s: float = 10.0) -> None:
    """Wait until the process is gone so that its port is free for an immediate restart."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            finished, _ = os.waitpid(pid, os.WNOHANG)  # our own child: reap it
            if finished:
                return
        except ChildProcessError:  # started by another process: poll for existence
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
        time.sleep(0.05)
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _health(url: str, timeout: float) -> dict | None:
    try:
        with urllib.request.urlopen(url + HEALTH_PATH, timeout=timeout) as resp:
            return json.loads(resp.read())
    except (urllib.error.URLError, OSError, ValueError):
        return None


def status(settings: Settings) -> list[SiteStatus]:
    result = []
    for spec in SITES.values():
        url = site_url(spec, settings)
        health = _health(url, timeout=2.0)
        if health is None:
            result.append(SiteStatus(spec.name, url, False, "not answering"))
        else:
            counts = ", ".join(f"{k}={v}" for k, v in health.get("counts", {}).items())
            result.append(SiteStatus(spec.name, url, True, counts, started_elsewhere(settings, spec.name, health)))
    return result


def reset(settings: Settings, names: list[str] | None = None, token: str | None = None) -> list[str]:
    """Restore the seed state: through the HTTP endpoint when the site runs, else on the file directly."""
    token = settings.sandbox.reset_token if token is None else token
    messages = []
    for name in names or list(SITES):
        spec = SITES[name]
        url = site_url(spec, settings)
        started = time.monotonic()
        if _health(url, timeout=1.0) is not None:
            request = urllib.request.Request(url + RESET_PATH, method="POST", headers={TOKEN_HEADER: token})
            try:
                urllib.request.urlopen(request, timeout=30).read()
            except urllib.error.HTTPError as exc:
                if exc.code == 403:
                    raise UserError(
                        f"the {spec.name} site at {url} refused the reset token; "
                        "use the token it was started with (SANDBOX_RESET_TOKEN or --set sandbox.reset_token=...)"
                    ) from None
                raise UserError(f"reset of the {spec.name} site at {url} failed with HTTP {exc.code}") from None
            how = "through its endpoint"
        else:
            seed_path, live_path = prepare_database(spec, settings)
            reset_database(seed_path, live_path)
            how = "on its database file (site not running)"
        messages.append(f"{spec.name}: reset {how} in {time.monotonic() - started:.2f}s")
    return messages


def exit_with_parent(parent: int) -> None:
    """End this process when `parent` ends, however it ends (SIGKILL too).

    Linux: the kernel sends SIGTERM at the parent's death (prctl PR_SET_PDEATHSIG). Elsewhere a thread
    watches for this process being handed to another parent. Either way, a parent gone before this is
    set up is caught by comparing the parent PID.
    """
    if sys.platform.startswith("linux"):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    else:
        import threading

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(0)

        threading.Thread(target=watch, daemon=True, name="parent-watch").start()
    if os.getppid() != parent:
        sys.exit(0)  # the parent died before the signal was set up


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve one sandbox site in the foreground.")
    parser.add_argument("--site", required=True, choices=list(SITES))
    parser.add_argument("--host")
    parser.add_argument("--port", type=int)
    parser.add_argument("--db", type=Path, help="live database file (default: <cache>/sandbox/<site>.sqlite)")
    parser.add_argument("--reset-token")
    parser.add_argument("--exit-with-parent", type=int, metavar="PID", help="end when process PID (the parent) ends")
    args = parser.parse_args(argv)
    if args.exit_with_parent:
        exit_with_parent(args.exit_with_parent)
    settings = load_settings()
    spec = SITES[args.site]
    if args.host:
        settings.sandbox.host = args.host
    if args.port:
        setattr(settings.sandbox, spec.port_setting, args.port)
        os.environ.pop(spec.env_var, None)  # an explicit port wins over the environment
    if args.reset_token:
        settings.sandbox.reset_token = args.reset_token
    try:
        serve_foreground(spec, settings, db_path=args.db)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
