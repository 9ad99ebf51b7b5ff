"""Time of `videodemo sandbox reset --site NAME` on a running site whose every table was emptied.

Target: under 5 s per site on the 2-core reference machine (the time tests/tasks/test_sandbox_server.py
once asserted; timings live here, not in tests). Starts both sandbox sites on free ports with a private cache,
then for each round and site: empties the live database, runs the command as a user does and checks the seed
is back. Prints, per site, the median wall time of the command, the site's own reset time (the seconds its
line reports) and, as the baseline measured in the same run, the median time of `videodemo --help` (the
command's start alone), with the ratios.

    .venv/bin/python benchmarks/sandbox_reset.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.private_sandbox import private_sandbox  # noqa: E402
from tasks.sandbox import server  # noqa: E402
from tasks.sandbox.sites import SITES  # noqa: E402

VIDEODEMO = str(Path(sys.executable).parent / "videodemo")
TARGET_S = 5.0


def tables(conn: sqlite3.Connection) -> list[str]:
    query = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    return [row[0] for row in conn.execute(query)]


def row_count(path: Path) -> int:
    conn = sqlite3.connect(path, timeout=30)
    try:
        return sum(conn.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0] for table in tables(conn))
    finally:
        conn.close()


def empty_tables(path: Path) -> None:
    conn = sqlite3.connect(path, timeout=30)
    try:
        conn.execute("PRAGMA foreign_keys = OFF")
        with conn:
            for table in tables(conn):
                conn.execute(f'DELETE FROM "{table}"')
    finally:
        conn.close()


def timed(args: list[str], env: dict[str, str]) -> tuple[float, str]:
    started = time.perf_counter()
    result = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(args[1:])} failed: {result.stderr.strip()}")
    return elapsed, result.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="resets per site")
    args = parser.parse_args()

    with private_sandbox("videodemo-bench-reset-") as sandbox:
        settings, urls, env = sandbox.settings, sandbox.urls, sandbox.env
        start_s = [timed([VIDEODEMO, "--help"], env)[0] for _ in range(args.rounds)]
        baseline = statistics.median(start_s)
        print(f"baseline `videodemo --help` (the command's start): median {baseline:.2f} s over {args.rounds}")
        print("| site | command median s | site's own reset median s | command / start | command / 5 s target |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for name in urls:
            _, live_path = server.paths_for(SITES[name], settings)
            seeded = row_count(live_path)
            command_s, own_s = [], []
            for _ in range(args.rounds):
                empty_tables(live_path)
                elapsed, out = timed(
                    [VIDEODEMO, "sandbox", "reset", "--site", name, "--token", settings.sandbox.reset_token], env
                )
                if row_count(live_path) != seeded:
                    raise SystemExit(f"{name}: the reset did not bring back the seed's {seeded} rows")
                command_s.append(elapsed)
                own_s.append(float(re.search(r"in ([\d.]+)s", out).group(1)))
            median = statistics.median(command_s)
            print(
                f"| {name} | {median:.2f} | {statistics.median(own_s):.2f} | {median / baseline:.2f}x "
                f"| {median / TARGET_S:.2f} |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
