"""One writer per folder: a lock file in the folder that names the command writing there.

The file holds a kernel lock (`fcntl.flock`) for as long as its owner runs, and a JSON
record of the owner: PID, host, command line, start time. The kernel lock is what
decides: it is freed the moment its process ends, however it ends, so a lock whose
record names a dead process (SIGKILL, a crash) is taken over with a warning. The
record is what a refused command prints, and what still counts when the record names
another host, since a kernel lock does not reach across hosts on every file system.

    with FolderLock(run_dir, advice="wait for it to end, or run beside it with another --out DIR"):
        ...  # only this command writes in run_dir

flock locks belong to an open file, not to a process: a second FolderLock on the same
folder in the same process is refused too, which keeps two threads apart as well.
"""

from __future__ import annotations

import fcntl
import json
import os
import shlex
import socket
import sys
import time
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable

from foundation.errors import UserError

LOCK_NAME = ".writer.lock"
_COMMAND_CHARS = 300  # enough to recognise a command line, short enough for one line
_RECORD_WAIT_S = 1.0  # a new owner writes its record right after locking: give it this long


@dataclass(frozen=True)
class LockOwner:
    pid: int
    host: str
    command: str
    since: str  # local time with its offset, to the second

    def describe(self) -> str:
        return f"PID {self.pid} on {self.host} (`{self.command}`, since {self.since})"

    @classmethod
    def of_this_process(cls) -> LockOwner:
        since = datetime.now().astimezone().isoformat(timespec="seconds")
        return cls(os.getpid(), socket.gethostname(), this_command(), since)


class FolderBusy(UserError):
    """Another command holds the folder; the message names it and what to do."""

    def __init__(self, message: str, owner: LockOwner | None) -> None:
        super().__init__(message)
        self.owner = owner


def this_command() -> str:
    """This process's command line as a user would type it (`python -m cli.main ...` for a module run)."""
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name:
        head = ["python", "-m", spec.name]
    else:
        head = [os.path.basename(sys.argv[0]) or "python"]
    line = " ".join(shlex.quote(part) for part in [*head, *sys.argv[1:]])
    return line if len(line) <= _COMMAND_CHARS else line[: _COMMAND_CHARS - 3] + "..."


def pid_alive(pid: int) -> bool:
    """Whether a process with this PID exists on this host (one of another user counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


class FolderLock:
    """Hold `folder` for this command: `acquire()` (or `with`) raises FolderBusy when another holds it."""

    def __init__(self, folder: Path, *, advice: str, warn: Callable[[str], None] = _warn) -> None:
        self.folder = Path(folder)
        self.path = self.folder / LOCK_NAME
        self.advice = advice  # what to do instead, e.g. "wait for it to end, or run beside it with another --out DIR"
        self.warn = warn
        self.taken_over: LockOwner | None = None  # the stale owner this lock replaced, if any
        self._fd: int | None = None
        self._made_folder = False

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> FolderLock:
        if self._fd is not None:
            return self
        self._made_folder = not self.folder.exists()
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = self._lock_file()
        try:
            previous = _read_owner(fd, wait_s=0)
            if previous is not None and previous.host != socket.gethostname():
                # On this host the kernel lock decides; across hosts it may not reach, so the record counts.
                raise FolderBusy(
                    f"{self.folder} is held by {previous.describe()}; if that command is no longer running, "
                    f"delete {self.path}; otherwise {self.advice}",
                    previous,
                )
            if previous is not None:
                self.taken_over = previous
                why = "is no longer running" if not pid_alive(previous.pid) else "no longer holds it (PID reused)"
                self.warn(f"{self.folder}: taking over the lock of {previous.describe()}, which {why}")
            record = json.dumps(asdict(LockOwner.of_this_process()), indent=1).encode()
            os.ftruncate(fd, 0)
            os.pwrite(fd, record, 0)
            os.fsync(fd)
        except FolderBusy:
            os.close(fd)  # the other host's record stays
            raise
        except BaseException:
            self._drop(fd)
            raise
        self._fd = fd
        return self

    def release(self) -> None:
        """Give the folder up: the lock file goes, and the folder too when this lock made it and it stayed empty."""
        fd, self._fd = self._fd, None
        if fd is not None:
            self._drop(fd)

    def __enter__(self) -> FolderLock:
        return self.acquire()

    def __exit__(self, *exc_info: object) -> None:
        self.release()

    def clear_folder(self) -> None:
        """Delete everything in the held folder but the lock file (what `--fresh` does, without letting go)."""
        import shutil

        if self._fd is None:
            raise RuntimeError("clear_folder() needs the lock held")
        for entry in self.folder.iterdir():
            if entry.name == LOCK_NAME:
                continue
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()

    def _lock_file(self) -> int:
        """An open descriptor on the lock file, flock-ed; FolderBusy naming the owner when another holds it."""
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                owner = _read_owner(fd, wait_s=_RECORD_WAIT_S)
                os.close(fd)
                holder = owner.describe() if owner else "a command that has not written its record yet"
                raise FolderBusy(f"{self.folder} is in use by {holder}; {self.advice}", owner)
            except BaseException:
                os.close(fd)
                raise
            # An owner that was releasing may have unlinked the file we opened: then lock the new one.
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.path))
            except FileNotFoundError:
                same = False
            if same:
                return fd
            os.close(fd)

    def _drop(self, fd: int) -> None:
        try:
            if os.path.samestat(os.fstat(fd), os.stat(self.path)):
                os.unlink(self.path)  # while still locked, so no one reads a record without an owner
        except FileNotFoundError:
            pass
        finally:
            os.close(fd)  # closing frees the kernel lock
        if self._made_folder:
            try:
                self.folder.rmdir()  # only when empty: a command that stopped before writing leaves nothing
            except OSError:
                pass


def _read_owner(fd: int, wait_s: float) -> LockOwner | None:
    """The record in the lock file, waiting up to `wait_s` for one still being written; None when there is none."""
    deadline = time.monotonic() + wait_s
    while True:
        raw = os.pread(fd, 64 * 1024, 0)
        try:
            data = json.loads(raw)
            return LockOwner(int(data["pid"]), str(data["host"]), str(data["command"]), str(data["since"]))
        except (ValueError, KeyError, TypeError):
            if time.monotonic() >= deadline:
                return None
        time.sleep(0.05)


__all__ = ["LOCK_NAME", "FolderBusy", "FolderLock", "LockOwner", "pid_alive", "this_command"]
