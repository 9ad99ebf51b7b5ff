"""Selection against the ground truth: every sandbox skill task's reference solution played, the replay's selection
asked before each step what it would choose (without acting), scored against the trajectories that do the
reference's next steps (hit@1, carried share beside the best, recall@k of the stage-1 candidates and of the method's
pre-cut list, MRR; per template, per video; first instances apart). Minutes, not a run of the agent.

    .venv/bin/python benchmarks/selection.py                      # default selection, OCR and oracle-label indexes
    .venv/bin/python benchmarks/selection.py --ablations          # and every part of the ranking switched off in turn
    .venv/bin/python benchmarks/selection.py --variant name=section.key=value,section.key=value ...
    .venv/bin/python benchmarks/selection.py --labels ocr --first-only --workers 2

It records and processes the tutorials as `videodemo demo` does when they are missing (the demo's cache). The
first instances of the templates are the tuning set (docs/baselines.md says on which tasks each default was chosen).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# Each part of the default selection switched off in turn (the settings and their meaning: settings/schema.py,
# ReplaySettings), and the narration the default leaves out; "before" is the selection before issue 64 (the cosine of
# the task with the page's title against the derived objective, plus a bonus per action; continue while the next
# step grounds).
ABLATIONS: dict[str, list[str]] = {
    "before": ["replay.pool_by_objective_cosine=true", "replay.narration_weight=0", "replay.evidence_weight=0",
               "replay.evidence_gate=false", "replay.continue_while=grounds"],
    "no-evidence-rank": ["replay.evidence_weight=0"],
    "no-evidence-gate": ["replay.evidence_gate=false"],
    "continue-while-grounds": ["replay.continue_while=grounds"],
    "with-narration": ["replay.narration_weight=0.3"],
    "with-start-page": ["replay.start_page_weight=0.8"],
    # Round 3 (docs/baselines.md): each part off in turn, and all of them off.
    "before-round-3": ["replay.evidence_by_kind=false", "replay.task_verb_controls=false",
                       "replay.start_past_keys=false", "replay.reach_before_acting=false",
                       "replay.select_after_end=false", "replay.match_abstracted=false",
                       "replay.back_for_undone=false"],
    "no-evidence-by-kind": ["replay.evidence_by_kind=false"],
    "no-verb-controls": ["replay.task_verb_controls=false"],
    "no-start-past-keys": ["replay.start_past_keys=false"],
    "no-reach-before-acting": ["replay.reach_before_acting=false"],
    "stop-at-end": ["replay.select_after_end=false"],
    "no-match-abstracted": ["replay.match_abstracted=false"],
    "only-forward": ["replay.back_for_undone=false"],
}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    from cli.demo_steps import PhaseClock, record, start_sites
    from cli.selection_probe import selection_benchmark
    from settings import load_settings

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--labels", choices=("ocr", "oracle", "both"), default="both",
                        help="which index: the OCR labeler's, the ground-truth logs' (oracle.labels), or both")  # fmt: skip
    parser.add_argument("--ablations", action="store_true", help="also every ablation of the default ranking")
    parser.add_argument("--variant", action="append", default=[], metavar="NAME=KEY=VALUE[,KEY=VALUE]",
                        help="a variant of your own: dotted overrides on top of the default (repeatable)")  # fmt: skip
    parser.add_argument("--first-only", action="store_true", help="only the first instance of each template (45)")
    parser.add_argument("--workers", type=int, default=2, help="tasks at once (default 2)")
    parser.add_argument("--fresh", action="store_true", help="play the tasks again instead of reusing the run")
    parser.add_argument("--captured", action="store_true",
                        help="ask the variants again on the pages the last live run kept (no browser, seconds): for "
                        "trying variants; the figures to report come from a live run")  # fmt: skip
    parser.add_argument("--json", metavar="FILE", help="also write the headline figures as JSON")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="settings for every variant (as videodemo's --set)")  # fmt: skip
    args = parser.parse_args(argv)
    args.all_tasks, args.quick = not args.first_only, False

    settings = load_settings(overrides=args.overrides)
    variants: dict[str, list[str]] = {"default": []}
    if args.ablations:
        variants.update(ABLATIONS)
    for item in args.variant:
        name, _, overrides = item.partition("=")
        variants[name] = [part for part in overrides.split(",") if part]

    from tasks.sandbox.tutorials.recorder import select_scripts

    clock = PhaseClock()
    if args.captured:
        names = sorted(script.name for script in select_scripts())
    else:
        start_sites(settings, clock)
        names = record(settings, clock, None, args.workers)
    labels = {"ocr": (False,), "oracle": (True,), "both": (False, True)}[args.labels]
    lines, headline = selection_benchmark(settings, names, variants, args, clock, labels, args.captured)
    print("\n".join(lines + ["", "time per phase:", *clock.lines()]))
    if args.json:
        Path(args.json).write_text(json.dumps(headline, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
