"""`process-videos` (also `videodemo process-videos`) and `videodemo index inspect`."""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from processing.sources import SourceResult
    from settings import Settings

SOURCES = ("videowa_tutorials", "dir", "urls", "sandbox", "manifest")


def register(subparsers, common: argparse.ArgumentParser) -> None:
    from foundation.arguments import add_switch
    from model_access.cli import add_model_arguments

    parser = subparsers.add_parser(
        "process-videos",
        parents=[common],
        help="turn tutorial videos into objective-tagged trajectories and index them",
        description="Changed frames, VLM action labeling, merging, action filtering, trajectory construction and "
        "filtering, then the FAISS index; every stage is cached, so a re-run only does what changed.",
    )
    parser.add_argument("--source", required=True, choices=SOURCES, help="where the videos come from")
    add = parser.add_argument
    add("--videos", metavar="DIR", help="video folder (dir; videowa_tutorials: default <cache>/videos/videowa)")
    add("--tasks", metavar="PATH", help="task config file or folder naming the videos (videowa_tutorials)")
    add("--urls", nargs="+", metavar="URL_OR_FILE", help="video URLs, or files of one URL per line (urls)")
    add("--manifest", nargs="+", metavar="FILE", help="manifests written by retrieval (manifest)")
    add("--workers", type=int, metavar="N", help="videos processed at once (processing.workers)")
    add("--ray", nargs="?", const="", metavar="ADDRESS",
        help="process the videos on Ray actors (--workers of them): a local Ray, or join the cluster at ADDRESS "
        "(needs `pip install -e .[scale]`; see docs/scaling.md)")  # fmt: skip
    add("--limit", type=int, metavar="N", help="process only the first N videos")
    add("--dry-run", action="store_true", help="list the videos, what is stored and the model calls to come")
    add_switch(parser, "action-filtering",
               on="filter actions by relevance, even for --source videowa_tutorials (processing.action_filtering=true)",
               off="keep all actions (processing.action_filtering=false); the default for --source "
               "videowa_tutorials, as in the paper's VideoWA runs")  # fmt: skip
    add_switch(parser, "trajectory-filtering",
               on="ask the VLM whether each named trajectory fits its objective and drop those that do not "
               "(processing.trajectory_filtering=true, the default)",
               off="keep every named trajectory (processing.trajectory_filtering=false)")  # fmt: skip
    add("--replace-empty-index", action="store_true",
        help="let a video whose run kept no trajectory replace the ones the index holds for it "
        "(processing.replace_empty_index; by default they are kept and the run says so)")  # fmt: skip
    add("--labeler", metavar="NAME",
        help="who labels actions (processing.labeler): vlm (the method) or ocr (model-free baseline)")  # fmt: skip
    add("--objectives", metavar="NAME",
        help="who names objectives (processing.objectives): vlm (the method) or derived (model-free "
        "baseline)")  # fmt: skip
    add("--index", metavar="DIR", help="trajectory index folder (default <cache>/index)")
    add("--verify", action="store_true",
        help="after the index, carry out each trajectory on the live site (reset first) and keep its verdict: "
        "verified, partly or not (docs/processing.md); the sites must run; --tasks names the sites "
        "(default for --source sandbox: the sandbox tasks); --workers browsers at once")  # fmt: skip
    add_model_arguments(parser)
    parser.set_defaults(handler=_process_videos)

    index = subparsers.add_parser("index", parents=[common], help="the trajectory index: look at what it holds")
    sub = index.add_subparsers(dest="index_command", metavar="ACTION", required=True)
    inspect = sub.add_parser("inspect", parents=[common], help="write an HTML page of the trajectories, per video")
    inspect.add_argument("--index", metavar="DIR", help="trajectory index folder (default <cache>/index)")
    inspect.add_argument("--video", action="append", metavar="ID", help="only this video (repeatable)")
    inspect.add_argument("--out", metavar="FILE", help="page to write (default <index>/gallery.html)")
    inspect.set_defaults(handler=_inspect)


def _settings(args: argparse.Namespace) -> "Settings":
    from foundation.errors import UserError
    from settings import load_settings_from_args
    from model_access.cli import apply_model_arguments

    settings = load_settings_from_args(args)
    apply_model_arguments(args, settings)
    p = settings.processing
    action_filtering = getattr(args, "action_filtering", None)
    if action_filtering is not None:
        p.action_filtering = action_filtering
    elif getattr(args, "source", None) == "videowa_tutorials" and p.action_filtering:
        # One VideoWA video serves many tasks, so the paper keeps every action there (its appendix A.1).
        p.action_filtering = False
        print("action filtering is off for --source videowa_tutorials, as in the paper; --action-filtering turns it on")
    if getattr(args, "trajectory_filtering", None) is not None:
        p.trajectory_filtering = args.trajectory_filtering
    if getattr(args, "replace_empty_index", False):
        p.replace_empty_index = True
    if getattr(args, "labeler", None):
        p.labeler = args.labeler
    if getattr(args, "objectives", None):
        p.objectives = args.objectives
    if getattr(args, "workers", None) is not None:
        p.workers = args.workers
    if p.workers < 1:
        raise UserError(f"--workers is {p.workers}: pass 1 or more")
    return settings


def summary_file(settings: "Settings", index_dir: Path) -> Path:
    """Where a run's summary goes: `<processed>/summary.json` for the default index, and a file of its own for
    any other `--index`, so runs building different indexes from the same videos do not overwrite each other's."""
    from processing.oracle_labels import default_index_dir, processed_dir

    if index_dir.resolve() == default_index_dir(settings).resolve():
        return processed_dir(settings) / "summary.json"
    tag = hashlib.sha256(str(index_dir.resolve()).encode()).hexdigest()[:8]
    return processed_dir(settings) / f"summary-{index_dir.name}-{tag}.json"


def _index_dir(args: argparse.Namespace, settings: "Settings") -> Path:
    from processing.oracle_labels import default_index_dir

    return Path(args.index).expanduser() if getattr(args, "index", None) else default_index_dir(settings)


def resolve_source(args: argparse.Namespace, settings: "Settings", dry_run: bool) -> "SourceResult":
    from foundation.errors import UserError
    from processing import sources

    if args.source == "dir":
        if not args.videos:
            raise UserError("--source dir needs --videos DIR: the folder holding the videos")
        return sources.from_dir(args.videos, settings)
    if args.source == "videowa_tutorials":
        if not args.tasks:
            raise UserError("--source videowa_tutorials needs --tasks PATH: the VideoWA task configs (file or folder)")
        videos = args.videos or settings.paths.videos_dir / "videowa"
        return sources.from_videowa(videos, args.tasks, settings)
    if args.source == "sandbox":
        return sources.from_sandbox(settings)
    if args.source == "manifest":
        if not args.manifest:
            raise UserError("--source manifest needs --manifest FILE...: manifests written by retrieval")
        return sources.from_manifests(args.manifest, settings)
    from processing.downloads import from_urls, read_url_list

    urls = read_url_list(args.urls or [])
    if not urls:
        raise UserError("--source urls needs --urls URL... (or a file of one URL per line)")
    return from_urls(urls[: args.limit] if args.limit else urls, settings, dry_run=dry_run)  # download no more


def _process_videos(args: argparse.Namespace) -> int:
    import time

    from foundation.errors import UserError
    from model_access.client import ModelClient
    from processing.artifacts import write_json_atomic
    from processing.index import TrajectoryIndex
    from processing.pipeline import Pipeline, indexing_pipeline

    settings = _settings(args)
    if args.limit is not None and args.limit < 1:
        raise UserError(f"--limit is {args.limit}: pass 1 or more")
    if getattr(args, "ray", None) is not None:
        from model_access.ray_cluster import import_ray

        import_ray()  # a missing ray is one line before any video is touched
    index_dir = _index_dir(args, settings)
    started = time.perf_counter()
    if args.dry_run:
        with ModelClient(settings) as client:
            index = TrajectoryIndex.load(index_dir, settings) if (index_dir / "trajectories.sqlite").is_file() else None
            return _dry_run(args, settings, Pipeline(settings, client, index))
    with indexing_pipeline(settings, index_dir) as pipeline:
        found = resolve_source(args, settings, dry_run=False)
        for name, line in found.problems:
            print(f"skipped {name}: {line}")
        videos = found.videos[: args.limit] if args.limit else found.videos
        if found.catalogue is not None:
            write_json_atomic(settings.paths.processed_dir / "videowa_catalogue.json", found.catalogue)
        print(f"processing {len(videos)} video(s) with {settings.processing.workers} worker(s)")
        if getattr(args, "ray", None) is not None and videos:
            from processing.ray_pipeline import run_on_ray

            outcomes = run_on_ray(pipeline, videos, settings.processing.workers, args.ray)
        else:
            outcomes = pipeline.run(videos, settings.processing.workers)
        summary = pipeline.summary(outcomes, found.problems, time.perf_counter() - started)
    print(summary.format())
    if pipeline.kept_earlier:
        kept = sum(count for _, count in pipeline.kept_earlier)
        print(f"the index kept {kept} earlier trajectories of {len(pipeline.kept_earlier)} video(s) whose run kept "
              "none (see their lines above); --replace-empty-index replaces them with nothing")  # fmt: skip
    if pipeline.stopped:
        print(f"stopped early, {len(pipeline.not_started)} video(s) not started: {pipeline.stopped}")
    summary_path = summary_file(settings, index_dir)
    write_json_atomic(summary_path, summary.to_dict())
    print(f"summary written to {summary_path}")
    # For `--verify`, which cli/verification.py runs after this (it needs the browser and the replay grounding).
    args.indexed = (settings, index_dir, [outcome.video_id for outcome in outcomes if outcome.ok])
    if summary.failed:
        return 1
    return 0 if videos else 1


def _dry_run(args: argparse.Namespace, settings: "Settings", pipeline) -> int:
    found = resolve_source(args, settings, dry_run=True)
    for name, line in found.problems:
        print(f"skipped {name}: {line}")
    for url in found.not_downloaded:
        print(f"would download {url} (its model calls are counted once it is downloaded)")
    videos = found.videos[: args.limit] if args.limit else found.videos
    print(f"dry run: {len(videos)} video(s) would be processed; no model call is made")
    total, exact, speech = 0, True, 0
    for video in videos:
        plan = pipeline.plan(video)
        if "error" in plan:
            print(f"  {video.video_id}: cannot be processed: {plan['error']}")
            continue
        stages = [("stored", plan["stored"]), ("to do", plan["todo"]), ("off", plan["off"])]
        listing = "; ".join(f"{what}: {', '.join(names) or 'nothing'}"
                            for what, names in stages if names or what != "off")  # fmt: skip
        print(f"  {video.video_id} ({video.duration_s:.1f} s): {listing}")
        for stage, calls, basis in plan["calls"]:
            print(f"      {stage}: {calls} model call(s) ({basis})")
        total += plan["total"]
        speech += plan["transcript_calls"]
        exact = exact and plan["exact"]
    qualifier = "exact" if exact else "estimated where marked above"
    print(f"model calls to come: {total} in all ({qualifier}); switched-off stages make none")
    print(f"speech recognition: at most {speech} request(s) in all "
          "(one per piece of audio of each video without subtitles or a stored transcript)")  # fmt: skip
    return 0


def _inspect(args: argparse.Namespace) -> int:
    from foundation.errors import UserError
    from settings import load_settings_from_args
    from processing.gallery import write_gallery
    from processing.index import TrajectoryIndex

    settings = load_settings_from_args(args)
    index_dir = _index_dir(args, settings)
    index = TrajectoryIndex.load(index_dir, settings)
    known = index.videos()
    if args.video:
        unknown = [video for video in args.video if video not in known]
        if unknown:
            listing = ", ".join(known[:10]) + (" ..." if len(known) > 10 else "")
            raise UserError(f"video {unknown[0]!r} is not in the index {index_dir}; it holds: {listing or 'no video'}")
    out = Path(args.out).expanduser() if args.out else index_dir / "gallery.html"
    videos, trajectories = write_gallery(index, out, args.video)
    print(f"wrote {out}: {trajectories} trajectories from {videos} video(s); open {out.resolve().as_uri()}")
    return 0
