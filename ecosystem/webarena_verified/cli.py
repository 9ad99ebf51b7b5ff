"""`videodemo verified-scores RUN_DIR --tasks-path CONFIGS`: WebArena-Verified's score beside ours, per task."""

from __future__ import annotations

import argparse
import json


def register(subparsers, common: argparse.ArgumentParser) -> None:
    parser = subparsers.add_parser(
        "verified-scores", parents=[common],
        help="score a run's WebArena tasks with WebArena-Verified's evaluator, beside our score (docs/ecosystem.md)",
    )  # fmt: skip
    parser.add_argument("run_dir", help="a run folder (tasks/<task>/record.json)")
    parser.add_argument("--tasks-path", required=True,
                        help="the task configs the run used (VideoWA's raw configs), to map each task to WebArena's")
    parser.add_argument("--json", action="store_true", help="print the rows as one JSON line instead of a table")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from ecosystem.webarena_verified.scores import format_rows, verified_scores

    rows = verified_scores(args.run_dir, args.tasks_path)
    print(json.dumps(rows) if args.json else "\n".join(format_rows(rows)))
    return 0
