"""Where a test run's time went, as the markdown tables of docs/testing.md: the heaviest modules and tests.

`make test` leaves its JUnit file in cache/last-test-run.xml (each test's time includes the setup of the fixtures
it was first to need, so a module's sum is what it cost):

    .venv/bin/python scripts/durations_table.py cache/last-test-run.xml [--top 25]
"""

from __future__ import annotations

import argparse
import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("junit", type=Path, help="pytest's --junitxml file")
    parser.add_argument("--top", type=int, default=25, metavar="N", help="rows per table (default 25)")
    args = parser.parse_args()
    cases = list(ElementTree.parse(args.junit).iter("testcase"))
    by_module: Counter[str] = Counter()
    tests = []
    for case in cases:
        module = case.get("classname", "").replace(".", "/") + ".py"
        seconds = float(case.get("time") or 0)
        by_module[module] += seconds
        tests.append((seconds, f"{module}::{case.get('name')}"))
    total = sum(by_module.values())
    print(f"{len(cases)} tests, {total:,.0f} s of test time in all (summed over workers)\n")
    print("| module | s | share |\n| --- | ---: | ---: |")
    for module, seconds in by_module.most_common(args.top):
        print(f"| `{module}` | {seconds:,.0f} | {seconds / total:.1%} |")
    print("\n| test | s |\n| --- | ---: |")
    for seconds, name in sorted(tests, reverse=True)[: args.top]:
        print(f"| `{name}` | {seconds:,.0f} |")


if __name__ == "__main__":
    main()
