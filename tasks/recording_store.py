"""Finished recordings kept per user, across clones and test sessions, the way pip keeps the wheels it built.

A recorder asks `fetch` before it records: when the store holds that recording under that key, its files are
copied into place and nothing is recorded. After recording, `keep` copies the finished files in. The key is what
made the recording: the recorder's fingerprint (script, recorder code, site seed) and anything else its frames
show (the sandbox tutorials show the site's usual address in their browser bar, whatever port it ran on), so a
stored copy is the very video the recorder would make. Where: $VIDEODEMO_RECORDINGS, else
$XDG_CACHE_HOME/videodemo/recordings (~/.cache/videodemo/recordings); VIDEODEMO_RECORDINGS=off records everything anew.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

ENV_VAR = "VIDEODEMO_RECORDINGS"


def store_root() -> Path | None:
    """The store's folder, or None when it is turned off."""
    chosen = os.environ.get(ENV_VAR, "").strip()
    if chosen.lower() in ("off", "0", "none"):
        return None
    if chosen:
        return Path(chosen).expanduser()
    cache_home = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(cache_home) / "videodemo" / "recordings"


def store_key(*parts: str) -> str:
    """One key from what made a recording (fingerprint, site address, ...)."""
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:20]


def _entry(kind: str, name: str, key: str) -> Path | None:
    root = store_root()
    return None if root is None else root / kind / f"{name}-{key}"


def fetch(kind: str, name: str, key: str, files: list[Path]) -> bool:
    """Copy the stored `files` (matched by file name) of recording `name` made under `key` into their places.
    True when all were there; False (and nothing written) when any is missing or the store is off."""
    entry = _entry(kind, name, key)
    if entry is None or not all((entry / file.name).is_file() for file in files):
        return False
    for file in files:
        file.parent.mkdir(parents=True, exist_ok=True)
        partial = file.with_name(file.name + ".from-store")
        shutil.copyfile(entry / file.name, partial)
        partial.replace(file)  # whole or not at all, as the recorders write their own files
    return True


def keep(kind: str, name: str, key: str, files: list[Path]) -> None:
    """Put copies of a finished recording's `files` in the store. Two processes keeping the same recording at
    once both succeed: each fills a folder of its own, and the first to rename it into place wins. A store that
    cannot be written (read-only home, full disk) costs only the reuse, never the recording."""
    entry = _entry(kind, name, key)
    if entry is None or entry.is_dir():
        return
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        filling = Path(tempfile.mkdtemp(prefix=f".{entry.name}-", dir=entry.parent))
        for file in files:
            shutil.copyfile(file, filling / file.name)
        try:
            filling.rename(entry)
        except OSError:  # another process kept it first
            shutil.rmtree(filling, ignore_errors=True)
    except OSError:
        return


@contextlib.contextmanager
def claim(kind: str, name: str, key: str) -> Iterator[None]:
    """Hold the right to make recording `name` under `key` (an exclusive lock on a file beside its entry), so two
    processes that both miss it (a test suite's two workers on an empty store) record it once: the second waits,
    then fetches what the first kept. No lock when the store is off or cannot be written."""
    entry = _entry(kind, name, key)
    handle = None
    if entry is not None:
        try:
            entry.parent.mkdir(parents=True, exist_ok=True)
            handle = open(entry.parent / f".{entry.name}.lock", "a")
        except OSError:
            handle = None
    if handle is None:
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # released when the file closes, or the process dies
        yield
