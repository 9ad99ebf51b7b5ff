"""`videodemo run`, `videodemo report` and `videodemo rescore`."""

from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path


def register(subparsers, common: argparse.ArgumentParser) -> None:
    from evaluation.running.policies import policies, run_options
    from evaluation.reports.run_groups import ERROR_MODES
    from evaluation.scoring.scoring_rules import RULE_SETS
    from model_access.cli import add_model_arguments
    from tasks.filters import KINDS
    from tasks.placeholders import KNOWN_SITES
    from foundation.arguments import add_switch

    run = subparsers.add_parser(
        "run",
        parents=[common],
        help="play tasks with a policy, score them, keep records (resumable)",
        description="Play each task (default: every sandbox task, both kinds) in Chromium with a policy (default: video, the "
        "method), score it with the task's evaluators and keep one record per task in a run folder, with an "
        "index.html and a page per task. A re-run of the same configuration resumes: finished tasks are kept "
        "(--fresh starts over, --retry-errors plays errored ones again). The agent's flags are the paper's "
        "ablations (--no-videos, --no-trajectory-selection, --no-visual, ...; docs/agent.md). "
        "E.g. videodemo run --policy replay --kind skill --workers 2",
    )
    run.add_argument("--tasks", type=Path, metavar="PATH", help="config file or folder (default: the sandbox tasks)")
    run.add_argument("--site", choices=KNOWN_SITES, help="only tasks on this site")
    run.add_argument("--kind", choices=KINDS, help="only skill-retention or factual-retention tasks")
    run.add_argument("--ids", metavar="IDS", help="only these task ids, e.g. 3,5,10-20 or source:7")
    run.add_argument(
        "--policy",
        default="video",
        metavar="NAME",
        help="policy to play: "
        + "; ".join(f"{entry.name}: {entry.summary}" for entry in policies().values())
        + "; or module:callable",
    )
    run.add_argument("--solutions", metavar="FILE_OR_DIR", help="scripted policy: actions per task id (JSON)")
    run.add_argument("--workers", type=int, metavar="N", help="parallel workers, one browser each (run.workers)")
    run.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="run the tasks as Ray actors (--workers of them): a local Ray, or join the cluster at ADDRESS "
        "(needs `pip install -e .[scale]`; see docs/scaling.md)",
    )
    run.add_argument(
        "--out", type=Path, metavar="DIR", help="run folder (default: <cache>/runs/<policy>-<tasks>-<hash>)"
    )
    run.add_argument("--max-steps", type=int, metavar="N", help="step budget per task (agent.max_steps)")
    run.add_argument(
        "--samples",
        type=int,
        metavar="N",
        help="play the configuration N times as independent samples 1..N, each in its own resumable folder "
        "(<folder>-sample<K> for K > 1); calls at temperature > 0 are drawn anew per sample",
    )
    run.add_argument(
        "--sample",
        type=int,
        metavar="K",
        help="play only sample K of the configuration (run.sample); with --samples N, sample K of those N, in the "
        "folder --samples gives it",
    )
    run.add_argument("--fresh", action="store_true", help="delete the run folder's results and start over")
    run.add_argument("--retry-errors", action="store_true", help="run again the tasks recorded as errors")
    add_switch(run, "progress", on="a line per finished task (the default)", off="no progress lines")
    for options in run_options():
        options.add(run)
    add_model_arguments(run)
    run.set_defaults(handler=_run)

    report = subparsers.add_parser(
        "report",
        parents=[common],
        help="success rates of a run by site, kind, difficulty, eval type; several runs side by side, each "
        "paired with the first (tasks helped / hurt, McNemar p, bootstrap interval of the difference)",
        description="One run: its success rates, site-state changes, model usage and cost. Two or more runs: one "
        "column per run (success rate and intermediate score, points vs the first run), the tasks whose outcome "
        "differs, and each run paired with the first on the tasks scored in both: the tasks it helped (it passes, "
        "the first fails) and hurt (the reverse), listed by key; the exact McNemar test's p-value on those helped / "
        "hurt counts; and its success-rate difference from the first in points, with a paired bootstrap interval "
        "that resamples tasks (level, resamples, seed and method: report.confidence, report.bootstrap_resamples, "
        "report.bootstrap_seed, report.bootstrap_method; by default 95%, 10000, 0, percentile). The folders of "
        "one `videodemo run --samples N` count as one run: a task passes when it passed in most of its samples, "
        "and the difference uses each task's pass frequency. "
        "Each failed task is accounted for against its reference solution and the tutorials' logs: the first stage "
        "that lost it (no covering trajectory, covering not chosen, step not grounded, wrong value, evaluator, other, "
        "unknown), written into its record, counted per run, and where failures moved between the first run and "
        "each other. "
        "E.g. videodemo report runs/base runs/transcript runs/frames runs/summary runs/video",
    )
    report.add_argument("run_dirs", type=Path, nargs="+", metavar="DIR", help="run folders; the first is the reference")
    report.add_argument(
        "--labels",
        metavar="A,B,...",
        help="names for the runs' columns, one per configuration (samples of one count once), comma-separated "
        "(default: policy and flags)",
    )
    report.add_argument(
        "--errors",
        choices=ERROR_MODES,
        help="errored tasks (an error, a context overflow): 'recorded' as each record has it (an error is not "
        "scored, an overflow is scored on what was done; report.errors default), 'fail' counts them as failures, "
        "'exclude' leaves them out of the rate as VideoWA's run.py does",
    )
    report.add_argument(
        "--prices",
        type=Path,
        metavar="FILE",
        help="YAML: per model name, dollars per million input / cached_input / output tokens (adds to report.prices)",
    )
    report.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="folder for the report's pages and tasks.csv (default: <first run>/reports/<hash>)",
    )
    report.add_argument(
        "--solutions",
        metavar="FILE_OR_DIR",
        help="reference solutions to account each failed task against, where it was lost (report.account_solutions; "
        "default: a solutions folder beside the run's task configs, as the sandbox has, else the run's --solutions)",
    )
    report.add_argument(
        "--index",
        type=Path,
        metavar="DIR",
        help="trajectory index (its tutorials' ground-truth logs beside the videos) for that account "
        "(report.account_index; default: the index the run read)",
    )
    report.set_defaults(handler=_report)

    rescore = subparsers.add_parser(
        "rescore",
        parents=[common],
        help="score a finished run again from its saved evidence (no sites needed)",
        description="Score every task of a finished run again from the evidence its records saved, without the "
        "sites or the policy: after an evaluator was fixed, "
        "or under another rule set (--rules). It rewrites the records in place, or in a copy with --out, and "
        "prints the tasks whose status changed and the run's report. E.g. videodemo rescore cache/runs/<run> "
        "--rules agentoccam --out cache/runs/<run>-agentoccam",
    )
    rescore.add_argument("run_dir", type=Path, metavar="DIR", help="a run folder")
    rescore.add_argument("--tasks", type=Path, metavar="PATH", help="task configs (default: those of the run)")
    rescore.add_argument(
        "--rules",
        choices=RULE_SETS,
        help="score under this rule set (evaluation.rules): videowa (VisualWebArena's evaluators, the default) or "
        "agentoccam (AgentOccam's evaluator; url_match tasks need evaluation.agentoccam_task_file)",
    )
    rescore.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="rescore a copy made in DIR and leave the run as it is; the two are then reported side by side",
    )
    add_model_arguments(rescore)
    rescore.set_defaults(handler=_rescore)


def _settings(args: argparse.Namespace):
    from settings import load_settings_from_args
    from model_access.cli import apply_model_arguments

    settings = load_settings_from_args(args)
    apply_model_arguments(args, settings)
    return settings


def _run(args: argparse.Namespace) -> int:
    from evaluation.running.policies import run_options
    from foundation.errors import UserError
    from evaluation.reports.report import print_summary, write_run_outputs
    from evaluation.running.runner import RunSpec, run
    from tasks.loading import SANDBOX_CONFIGS_DIR

    settings = _settings(args)
    for options in run_options():
        options.apply(args, settings)
    if args.max_steps is not None:
        if args.max_steps < 1:
            raise UserError("--max-steps must be at least 1")
        settings.agent.max_steps = args.max_steps
    workers = args.workers if args.workers is not None else settings.run.workers
    if workers < 1:
        raise UserError("--workers must be at least 1")
    if args.ray is not None:
        from model_access.ray_cluster import import_ray

        import_ray()  # a missing ray is one line before any folder is made
    tasks_path = args.tasks or SANDBOX_CONFIGS_DIR
    sample_numbers = _sample_numbers(args, settings)
    if len(sample_numbers) > 1:
        _say_which_calls_are_shared(settings)
    run_dirs = []
    for sample in sample_numbers:
        sample_settings = copy.deepcopy(settings)
        sample_settings.run.sample = sample
        if args.samples is not None and args.samples > 1:
            print(f"sample {sample} of {args.samples}", file=sys.stderr)
        spec = RunSpec(
            tasks_path=tasks_path,
            policy=args.policy,
            policy_args=args,
            out_dir=_sample_folder(args.out, sample) if args.samples is not None else args.out,
            site=args.site,
            kind=args.kind,
            ids=args.ids,
            workers=workers,
            fresh=args.fresh,
            retry_errors=args.retry_errors,
            progress=args.progress is not False,
            ray=args.ray,
        )
        run_dir = run(spec, sample_settings)
        print_summary(write_run_outputs(run_dir, sample_settings.report))
        run_dirs.append(run_dir)
        print(f"\nrecords and pages: {run_dir} (open {run_dir / 'index.html'})")
    if len(run_dirs) > 1:
        print(f"\nthe {len(run_dirs)} samples: " + " ".join(str(d) for d in run_dirs))
        print("compare with another configuration: videodemo report <its folders> " + " ".join(str(d) for d in run_dirs))
    return 0


def _sample_numbers(args: argparse.Namespace, settings) -> list[int]:
    """Which samples this command plays: 1..N for --samples N, K for --sample K (one of the N with both),
    else run.sample (1)."""
    from foundation.errors import UserError

    if args.samples is not None and args.samples < 1:
        raise UserError("--samples must be at least 1")
    if args.samples is not None and args.sample is None:
        return list(range(1, args.samples + 1))
    sample = args.sample if args.sample is not None else settings.run.sample
    if sample < 1:
        raise UserError(f"the sample number must be at least 1 (--sample / run.sample), got {sample}")
    if args.samples is not None and sample > args.samples:
        raise UserError(
            f"--sample {sample} is out of range: --samples {args.samples} plays samples 1..{args.samples}; "
            f"to play sample {sample} too, pass --samples {sample} (finished samples are kept)"
        )
    return [sample]


def _sample_folder(out: Path | None, sample: int) -> Path | None:
    """--out DIR holds sample 1; sample K > 1 goes beside it as DIR-sampleK (None: the default names do so)."""
    if out is None or sample == 1:
        return out
    return out.with_name(f"{out.name}-sample{sample}")


def _say_which_calls_are_shared(settings) -> None:
    """Samples are independent only where calls draw: name the roles whose calls every sample shares."""
    from model_access import ROLES

    fixed = [
        role
        for role in ROLES
        if getattr(settings.models, role).base_url and getattr(settings.models, role).temperature == 0
    ]
    if fixed:
        print(
            f"note: {', '.join(fixed)} run(s) at temperature 0: their calls are made once and every later sample "
            "replays them from the cache (counted as 'shared' in usage); only calls at temperature > 0 differ "
            "between samples",
            file=sys.stderr,
        )


def _report(args: argparse.Namespace) -> int:
    from evaluation.reports.command import report

    for folder in args.run_dirs:
        _check_run_folder(folder)
    labels = [label.strip() for label in args.labels.split(",")] if args.labels else None
    settings = _settings(args).report
    if args.errors:
        settings.errors = args.errors
    if args.solutions:
        settings.account_solutions = args.solutions
    if args.index:
        settings.account_index = str(args.index)
    print(report(*args.run_dirs, labels=labels, settings=settings, prices_file=args.prices, out_dir=args.out))
    return 0


def _check_run_folder(folder: Path) -> None:
    """A mistyped path is told apart from a folder that is not a run (`videodemo run` prints the right one)."""
    from foundation.errors import UserError

    if not folder.exists():
        raise UserError(f"{folder} does not exist; pass the run folder `videodemo run` printed")
    if not (folder / "tasks").is_dir():
        raise UserError(f"{folder} is not a run folder (no tasks/ inside); pass the folder `videodemo run` printed")


def _rescore(args: argparse.Namespace) -> int:
    from foundation.folder_lock import FolderLock
    from evaluation.scoring.judge import judge_from_client
    from evaluation.reports.command import report
    from evaluation.running.rescore import copy_run, rescore_run
    from evaluation.running.run_manifest import read_identity
    from model_access.client import ModelClient

    _check_run_folder(args.run_dir)
    settings = _settings(args)
    if args.rules:
        settings.evaluation.rules = args.rules
    target = args.run_dir
    # It rewrites records: not while a run (or another rescore) writes in the folder (a copy is new: nobody does).
    with FolderLock(args.run_dir, advice="wait for it to end, then rescore"), ModelClient(settings) as client:
        if args.out is not None:
            target = copy_run(args.run_dir, args.out)
        changes = rescore_run(target, settings, args.tasks, judge_from_client(client))
    print(f"scored under the {settings.evaluation.rules} rules (evaluation.rules) in {target}")
    print(f"tasks whose status changed ({len(changes)}):" + ("\n  " + "\n  ".join(changes) if changes else " none"))
    # A copy scored under other rules is another configuration: the two are paired task by task.
    beside = target != args.run_dir and read_identity(target) != read_identity(args.run_dir)
    folders = (args.run_dir, target) if beside else (target,)
    print(report(*folders, settings=settings.report))
    return 0

