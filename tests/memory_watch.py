"""The memory each test file holds, and a bound on it (issue 65: one test once held two whole decoded tutorials,
16 GB, on a 24 GiB machine).

Each pytest process that runs tests (a serial run's, or each pytest-xdist worker's) samples, every quarter second,
the memory it and all its child processes hold (Chromium, ffmpeg, the sites, the model servers): their proportional
set sizes summed, so pages they share count once. A spike between two samples still shows through the kernel's
high-water marks (`ru_maxrss`) of the process and its finished children. At the end of each file it writes the
file's peak to cache/last-test-memory/<worker>.jsonl, and the file's last test fails at teardown when the peak
passed the bound: `VIDEODEMO_TEST_MEMORY_GIB` (default 5 GiB a worker: a worker holds its session's model servers too, and one reached 4.1 GiB).
At the end of the run the heaviest files are printed (scripts/memory_table.py reads the same records).
"""

from __future__ import annotations

import importlib.util
import json
import os
import resource
import threading
import time
from collections.abc import Generator
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest

BOUND_GIB = float(os.environ.get("VIDEODEMO_TEST_MEMORY_GIB") or 5.0)
INTERVAL_S = 0.25
SUMMARY_ROWS = 10
GIB = 1024**3


@dataclass
class FilePeak:
    file: str
    worker: str
    tree_bytes: int = 0  # the process and its children together (PSS)
    test: str = ""  # the test running at that peak
    process_bytes: int = 0  # the largest single process (RSS), as /usr/bin/time reports one
    process: str = ""
    started: float = 0.0  # wall clock (time.time) of the file's first test and its end: when it ran, and how long
    ended: float = 0.0


def _children_by_parent() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        parent = int(stat[stat.rindex(b")") + 2 :].split()[1])  # after "pid (comm) state"
        children.setdefault(parent, []).append(int(entry.name))
    return children


def _tree(root: int) -> list[int]:
    children, found, queue = _children_by_parent(), [], [root]
    while queue:
        pid = queue.pop()
        found.append(pid)
        queue.extend(children.get(pid, ()))
    return found


def _memory(pid: int) -> tuple[int, int, str]:
    """(PSS, RSS, name) of a process; zeros for one that is gone."""
    pss = rss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1]) * 1024
                elif line.startswith("Rss:"):
                    rss = int(line.split()[1]) * 1024
        with open(f"/proc/{pid}/comm") as handle:
            name = handle.read().strip()
    except OSError:
        return 0, 0, ""
    return pss, rss, name


def _high_waters() -> tuple[int, int]:
    """The kernel's peak RSS of this process and of its largest finished child, in bytes."""
    return (
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024,
    )


def _file_of(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def _table_module():
    path = Path(__file__).resolve().parent.parent / "scripts" / "memory_table.py"
    spec = importlib.util.spec_from_file_location("memory_table", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class MemoryWatch:
    """Registered by tests/conftest.py in every pytest process; samples only where tests run."""

    def __init__(self, config: pytest.Config) -> None:
        self.folder = config.rootpath / "cache" / "last-test-memory"
        self.worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        is_worker = hasattr(config, "workerinput")
        self.controller = not is_worker and bool(getattr(config.option, "numprocesses", 0))
        self.collecting_only = bool(config.option.collectonly)
        self.peak: FilePeak | None = None
        self.test = ""
        self.high_waters = (0, 0)
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        if not is_worker and not self.collecting_only:  # the run's first process: the records of the last run go
            self.folder.mkdir(parents=True, exist_ok=True)
            for old in self.folder.glob("*.jsonl"):
                old.unlink()
        if not self.controller:
            threading.Thread(target=self._sample_forever, name="memory-watch", daemon=True).start()

    # ---- sampling ----

    def _sample_forever(self) -> None:
        while not self.stopped.wait(INTERVAL_S):
            try:
                self._sample()
            except Exception:  # a sampler must never break the run it watches
                pass

    def _sample(self) -> None:
        tree_bytes, process_bytes, process = 0, 0, ""
        for pid in _tree(os.getpid()):
            pss, rss, name = _memory(pid)
            tree_bytes += pss
            if rss > process_bytes:
                process_bytes, process = rss, name
        with self.lock:
            self._raise(tree_bytes, process_bytes, process)

    def _raise(self, tree_bytes: int, process_bytes: int, process: str) -> None:
        peak = self.peak
        if peak is None:
            return
        if tree_bytes > peak.tree_bytes:
            peak.tree_bytes, peak.test = tree_bytes, self.test
        if process_bytes > peak.process_bytes:
            peak.process_bytes, peak.process = process_bytes, process

    # ---- files ----

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, object, object]:
        if not self.controller:
            with self.lock:
                if self.peak is None or self.peak.file != _file_of(item):
                    self.peak = FilePeak(_file_of(item), self.worker, started=time.time())
                    self.high_waters = _high_waters()
                self.test = item.nodeid.split("::", 1)[1] if "::" in item.nodeid else item.nodeid
        return (yield)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, object, object]:
        result = yield
        if self.controller or (nextitem is not None and _file_of(nextitem) == _file_of(item)):
            return result
        peak = self._finish_file()
        if peak is not None and peak.tree_bytes > BOUND_GIB * GIB:
            pytest.fail(
                f"{peak.file} held {peak.tree_bytes / GIB:.1f} GiB at its peak, in {peak.test} (this pytest process "
                f"and its children; largest process {peak.process}, {peak.process_bytes / GIB:.1f} GiB): past the "
                f"bound of {BOUND_GIB:g} GiB a worker (VIDEODEMO_TEST_MEMORY_GIB; tests/memory_watch.py)",
                pytrace=False,
            )
        return result

    def _finish_file(self) -> FilePeak | None:
        self._sample()  # the state at the file's end counts too
        with self.lock:
            peak, self.peak = self.peak, None
            if peak is None:
                return None
            peak.ended = time.time()
            own_before, children_before = self.high_waters
            own, children = _high_waters()
            if own > own_before:  # this process reached a new high during the file: between samples, perhaps
                self._raise_to(peak, own, "pytest")
            if children > children_before:  # so did a child that has finished since (an ffmpeg, a recorder)
                self._raise_to(peak, children, "a finished child")
        with (self.folder / f"{self.worker}.jsonl").open("a") as handle:
            handle.write(json.dumps(asdict(peak)) + "\n")
        return peak

    @staticmethod
    def _raise_to(peak: FilePeak, process_bytes: int, process: str) -> None:
        if process_bytes > peak.process_bytes:
            peak.process_bytes, peak.process = process_bytes, process
        peak.tree_bytes = max(peak.tree_bytes, process_bytes)  # at least that one process was resident

    # ---- the end ----

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self.stopped.set()

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if hasattr(terminalreporter.config, "workerinput") or self.collecting_only:
            return
        table = _table_module()
        rows = table.read_peaks(self.folder)
        terminalreporter.write_sep("=", f"peak memory per test file (top {SUMMARY_ROWS}; scripts/memory_table.py)")
        terminalreporter.write_line(table.table(rows, SUMMARY_ROWS, int(BOUND_GIB * GIB)))
