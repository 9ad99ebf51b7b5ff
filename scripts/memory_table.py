"""The peak resident memory of each test file of the last test run, as tests/memory_watch.py recorded it.

Each pytest process (a serial run's, or each pytest-xdist worker's) writes a line per test file it ran to
cache/last-test-memory/<worker>.jsonl: the peak of the memory that process and all its child processes (Chromium,
ffmpeg, the sites, the model servers) held together while the file ran (proportional set size, so pages they share
count once), the largest single process's resident set then, and the test it peaked in. `make test` prints the top
of this table beside its slowest tests; this prints it again:

    .venv/bin/python scripts/memory_table.py [--top 15] [--folder cache/last-test-memory]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

DEFAULT_FOLDER = Path(__file__).resolve().parent.parent / "cache" / "last-test-memory"
GIB = 1024**3


def read_peaks(folder: Path = DEFAULT_FOLDER) -> list[dict]:
    """Every file's record, largest tree peak first."""
    rows = []
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                rows.append(json.loads(line))
    return sorted(rows, key=lambda row: -row["tree_bytes"])


def table(rows: list[dict], top: int, bound_bytes: int | None = None) -> str:
    """The heaviest `top` files as aligned lines, and any file past the bound."""
    if not rows:
        return "no memory records (tests/memory_watch.py writes them during a test run)"
    lines = [f"{'GiB (tree)':>10} {'GiB (1 proc)':>12} {'s':>5}  {'worker':<6} file: the test it peaked in (largest process)"]
    for row in rows[:top]:
        seconds = row.get("ended", 0.0) - row.get("started", 0.0)
        lines.append(
            f"{row['tree_bytes'] / GIB:10.2f} {row['process_bytes'] / GIB:12.2f} {seconds:5.0f}  {row['worker']:<6} "
            f"{row['file']}: {row['test']} ({row['process']})"
        )
    if bound_bytes is not None:
        over = [row["file"] for row in rows if row["tree_bytes"] > bound_bytes]
        bound = f"{bound_bytes / GIB:g} GiB"
        lines.append(f"files past the bound of {bound}: {', '.join(over)}" if over else f"no file past {bound}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--top", type=int, default=15, metavar="N", help="rows (default 15)")
    parser.add_argument("--folder", type=Path, default=DEFAULT_FOLDER, help="where the run wrote its records")
    args = parser.parse_args()
    print(table(read_peaks(args.folder), args.top))


if __name__ == "__main__":
    main()
