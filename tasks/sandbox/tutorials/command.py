"""`videodemo sandbox record [--only NAME] [--force] [--workers N]`: (re)create the tutorial videos."""

from __future__ import annotations

import argparse
import time


def register_record(sandbox_actions, common: argparse.ArgumentParser) -> None:
    record = sandbox_actions.add_parser(
        "record",
        parents=[common],
        help="record the tutorial videos (with action logs and subtitles) that are missing or outdated",
    )
    record.add_argument("--only", action="append", metavar="NAME", help="only this tutorial (repeatable)")
    record.add_argument(
        "--force", action="store_true", help="record again even when up to date (or kept in the recordings store)"
    )
    record.add_argument(
        "--workers", type=int, default=1, metavar="N", help="record the sites side by side, N at once (default 1)"
    )
    record.set_defaults(handler=_record)


def _record(args: argparse.Namespace) -> int:
    from settings import load_settings_from_args
    from tasks import recording_store
    from tasks.sandbox.tutorials.recorder import RecordingResult, record_tutorials, tutorials_dir

    settings = load_settings_from_args(args)
    started = time.monotonic()

    def report(result: RecordingResult) -> None:
        if result.recorded:
            print(f"  {result.name:<26} {result.duration_s:5.1f}s of video, recorded in {result.elapsed_s:4.1f}s")
        elif result.from_store:
            print(f"  {result.name:<26} copied from the recordings store ({recording_store.store_root()})")
        else:
            print(f"  {result.name:<26} up to date")

    print(f"tutorials in {tutorials_dir(settings)}:")
    results = record_tutorials(settings, only=args.only, force=args.force, report=report, workers=args.workers)
    recorded = [result for result in results if result.recorded]
    copied = sum(result.from_store for result in results)
    video_s = sum(result.duration_s for result in recorded)
    print(
        f"total: {len(recorded)} recorded ({video_s:.0f}s of video), {copied} copied from the recordings store, "
        f"{len(results) - len(recorded) - copied} up to date, in {time.monotonic() - started:.0f}s"
    )
    return 0
