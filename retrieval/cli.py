"""`videodemo retrieve`: find, filter and download YouTube tutorials for tasks, one manifest per task.

    videodemo retrieve --tasks configs/ --site shopping --llm-url ... --vlm-url ...
    videodemo retrieve --task "Add a product to the wish list" --site shopping
    process-videos --source manifest --manifest cache/retrieval/manifests/*.json
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from retrieval.applications import RetrievalTask
    from retrieval.pipeline import TaskOutcome
    from settings import Settings


def register(subparsers, common: argparse.ArgumentParser) -> None:
    from model_access.cli import add_model_arguments
    from tasks.placeholders import KNOWN_SITES

    parser = subparsers.add_parser(
        "retrieve",
        parents=[common],
        help="find tutorials on YouTube for tasks, filter and download them (one manifest per task)",
        description="Per task: an LLM query per application, YouTube search (API key in $YOUTUBE_API_KEY), "
        "duration and language filter, coarse LLM selection, download with yt-dlp, VLM content check. "
        "Writes one manifest per task for `process-videos --source manifest`. Everything is cached: "
        "a re-run spends no API quota and no model calls.",
    )
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--tasks", metavar="PATH", help="task configs: a JSON file or a folder of them")
    which.add_argument("--task", metavar="TEXT", help="one task given as text")
    parser.add_argument("--site", choices=KNOWN_SITES, help="with --tasks: only tasks on this site; "
                        "with --task: the site the task is done on")  # fmt: skip
    parser.add_argument("--ids", metavar="SPEC", help="with --tasks: only these task ids, e.g. 3,5,10-20")
    parser.add_argument(
        "--out", metavar="DIR", help="folder for the manifests (default: <cache>/retrieval/manifests)"
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="show the tasks, applications and the most it could cost; call nothing"
    )
    add_model_arguments(parser)
    parser.set_defaults(handler=_retrieve)


def _retrieve(args: argparse.Namespace) -> int:
    from foundation.errors import UserError
    from settings import load_settings_from_args
    from model_access.cli import apply_model_arguments

    settings = load_settings_from_args(args)
    apply_model_arguments(args, settings)
    if args.ids and not args.tasks:
        raise UserError("--ids selects among --tasks; pass --tasks PATH as well, or drop --ids")
    tasks = _chosen_tasks(args, settings)
    out_dir = Path(args.out) if args.out else settings.paths.cache_dir / "retrieval" / "manifests"
    if args.dry_run:
        _dry_run(tasks, settings, out_dir)
        return 0
    return _run(tasks, settings, out_dir)


def _chosen_tasks(args: argparse.Namespace, settings: "Settings") -> list["RetrievalTask"]:
    from foundation.errors import UserError
    from retrieval.applications import RetrievalTask

    if args.task is not None:
        if not args.task.strip():
            raise UserError("--task is empty; give the task's text, e.g. --task \"Add a laptop to the cart\"")
        return [RetrievalTask.from_text(args.task.strip(), args.site)]
    from tasks.filters import filter_tasks
    from tasks.loading import load_task_set

    task_set = load_task_set(args.tasks, settings=settings)
    for problem in task_set.file_problems:
        print(f"skipped {problem}")
    chosen = filter_tasks(task_set.tasks, site=args.site, ids=args.ids)
    if not chosen:
        raise UserError(f"no task in {args.tasks} matches --site/--ids; check them with `videodemo tasks list`")
    return [RetrievalTask.from_task(task) for task in chosen]


def _dry_run(tasks: list["RetrievalTask"], settings: "Settings", out_dir: Path) -> None:
    from retrieval.applications import application_of
    from retrieval.manifest import manifest_file_name
    from retrieval.youtube import PAGE_SIZE, QUOTA_UNITS

    pages = math.ceil(settings.retrieval.results_per_query / PAGE_SIZE)
    per_query = pages * (QUOTA_UNITS["search.list"] + QUOTA_UNITS["videos.list"])
    verify = settings.retrieval.coarse_max_videos
    print(f"dry run: {len(tasks)} task(s), one query each (abstracting the task's operation); nothing is called")
    for task in tasks:
        path = out_dir / manifest_file_name(task.key)
        state = "manifest exists" if path.is_file() else "no manifest yet"
        print(f"  {task.key}  on {application_of(task).description[:60]!r}  ({state})  {task.intent[:80]!r}")
    print(
        f"at most, with nothing cached: {len(tasks) * per_query} YouTube API units "
        f"({pages} search page(s) at {QUOTA_UNITS['search.list']} + {pages} details call(s) at "
        f"{QUOTA_UNITS['videos.list']} per query), {2 * len(tasks)} query + {len(tasks)} coarse "
        f"LLM calls, {verify * len(tasks)} VLM content checks, {verify * len(tasks)} downloads; "
        f"cached API responses, model replies and videos cost nothing"
    )
    print(f"manifests would go to {out_dir}")


def _run(tasks: list["RetrievalTask"], settings: "Settings", out_dir: Path) -> int:
    from foundation.progress_bar import progress_bar
    from model_access.client import ModelClient
    from retrieval.pipeline import Retriever
    from retrieval.youtube import YouTubeApi, require_api_key

    api_key = require_api_key(settings)
    with ModelClient(settings) as client:
        for role in ("llm", "vlm"):
            client.role_settings(role)  # an unconfigured role is one clear line before any work
        retriever = Retriever(settings, client, YouTubeApi(settings, api_key=api_key), out_dir=out_dir)
        with progress_bar(len(tasks), desc="retrieve", unit="task") as bar:

            def report(outcome: "TaskOutcome") -> None:
                bar.write(outcome.summary_line())  # on stdout either way, so a log needs no count line too
                bar.advance()

            outcomes = retriever.run(tasks, on_task=report)
        print(summary_table(outcomes))
        youtube = retriever.youtube
        sent = sum(youtube.sent.values())
        print(
            f"YouTube API: {sent} request(s) sent ({youtube.units_spent} units), "
            f"{sum(youtube.replayed.values())} answered from the cache"
        )
        if youtube.quota_message:
            print(f"QUOTA: {youtube.quota_message}; {youtube.skipped_for_quota} request(s) not sent")
        print(f"downloads: {retriever.downloader.fetched} fetched; manifests in {out_dir}")
        print(client.ledger.summary_table())
    incomplete = [outcome for outcome in outcomes if not outcome.manifest.complete]
    if incomplete:
        print(f"{len(incomplete)} task(s) incomplete (see their manifests' errors); a re-run retries what failed")
    return 1 if incomplete else 0


def summary_table(outcomes: list["TaskOutcome"]) -> str:
    header = ["task", "candidates", "picked", "downloaded", "verified", "errors", "query"]
    rows = [
        [
            outcome.task.key,
            *(str(outcome.manifest.counts.get(name, 0)) for name in ("candidates", "picked", "downloaded", "verified")),
            str(len(outcome.manifest.errors)),
            outcome.manifest.query or "-",
        ]
        for outcome in outcomes
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in [header, *rows]]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)
