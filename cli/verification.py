"""`process-videos --verify`: after processing (processing/cli.py), the verification stage (agent/verification).

Processing sits below the agent and the harness, so it cannot run the browser and the
replay grounding itself; this wraps its handler and runs the stage over the videos the
run indexed.
"""

from __future__ import annotations

import argparse

from foundation.errors import UserError


def register(subparsers, common: argparse.ArgumentParser) -> None:
    parser = subparsers.choices.get("process-videos")
    if parser is None:  # pragma: no cover - processing.cli registers it first (cli/main.py)
        raise RuntimeError("process-videos must be registered before cli.verification")
    processing = parser.get_default("handler")
    parser.set_defaults(handler=lambda args: _process_then_verify(args, processing))


def _process_then_verify(args: argparse.Namespace, processing) -> int:
    if args.verify and args.dry_run:
        raise UserError("--verify carries trajectories out on the live site: drop --dry-run to run it")
    if not args.verify:
        return processing(args)
    from tasks.loading import SANDBOX_CONFIGS_DIR, load_tasks

    tasks_path = args.tasks or (SANDBOX_CONFIGS_DIR if args.source == "sandbox" else None)
    if tasks_path is None:
        raise UserError("--verify needs --tasks PATH: the task configs that name the videos tell which site "
                        "and start page each trajectory belongs to")  # fmt: skip
    code = processing(args)  # checked before: a missing --tasks must not cost the processing first
    from agent.verification.stage import verify_index
    from evaluation.running.runner import check_sites_answer
    from processing.index import TrajectoryIndex

    settings, index_dir, video_ids = args.indexed
    if not video_ids:
        print("verification: no video was indexed in this run, nothing to verify")
        return code
    index = TrajectoryIndex.load(index_dir, settings)
    tasks = load_tasks(tasks_path, settings=settings)
    # A site that does not answer would turn every trajectory of it into a stored "not": stop first, with the fix.
    check_sites_answer([task for task in tasks if set(task.videos) & set(video_ids)], settings)
    print(verify_index(index, settings, tasks, workers=settings.processing.workers, video_ids=video_ids).format())
    return code
