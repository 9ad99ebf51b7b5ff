"""Accuracy and speed of the OCR labeler on the sandbox tutorials, against their ground-truth logs.

Targets (issue 9): F1 >= 0.8 on action type and >= 0.7 on type + target, over all
sandbox tutorials (`processing.labeling_accuracy`: matching by time within
`processing.ocr_labeler.score_tolerance_s` and by kind; targets compared after
normalisation). Tutorials that are missing or outdated are recorded first (the sandbox
sites are started on the configured ports for that, and stopped again).

    .venv/bin/python benchmarks/labeler_accuracy.py [--only NAME ...] [--set KEY=VALUE ...]

`--set processing.ocr_labeler.click_evidence=dwell` labels as if the videos had no
click highlights, as many real recordings do. Speed is the labeler alone (its streaming
pass, OCR and assembly), per minute of video, wall clock and CPU (this process's threads
plus the ffmpeg decoder).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from processing.labeling_accuracy import AccuracyReport, ground_truth_actions, score_actions  # noqa: E402
from processing.ocr_labeler.labeler import OcrLabeler  # noqa: E402
from settings import load_settings  # noqa: E402
from tasks.sandbox.tutorials.recorder import record_tutorials  # noqa: E402

TYPE_TARGET, TYPE_AND_NAME_TARGET = 0.8, 0.7


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", metavar="NAME", help="only this tutorial (repeatable)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a setting, e.g. processing.ocr_labeler.analysis_fps=10")  # fmt: skip
    args = parser.parse_args()
    settings = load_settings(overrides=args.overrides)
    knobs = settings.processing.ocr_labeler

    print("recording the tutorials that are missing or outdated ...", flush=True)
    tutorials = record_tutorials(settings, only=args.only)
    header = f"{'tutorial':<24} {'video':>6} {'truth':>5} {'found':>5} {'F1 type':>8} {'F1 +target':>10} " \
             f"{'s/min':>6} {'CPU s/min':>9} {'crops':>5}"  # fmt: skip
    print(header)
    print("-" * len(header))
    total = AccuracyReport.empty()
    seconds = cpu = video = 0.0
    for tutorial in tutorials:
        run = OcrLabeler().run(tutorial.files.video, [], knobs)
        report = score_actions(run.actions, ground_truth_actions(tutorial.files.actions), knobs.score_tolerance_s)
        total = total.add(report)
        seconds, cpu, video = seconds + run.seconds, cpu + run.cpu_seconds, video + run.video_s
        print(f"{tutorial.name:<24} {run.video_s:5.1f}s {report.type.truth:5d} {report.type.predicted:5d} "
              f"{report.type.f1:8.2f} {report.type_target.f1:10.2f} {run.per_video_minute(run.seconds):6.1f} "
              f"{run.per_video_minute(run.cpu_seconds):9.1f} {run.crops_read:5d}", flush=True)  # fmt: skip
    print("-" * len(header))
    minutes = video / 60 if video else 1.0
    print(f"{'all':<24} {video:5.0f}s {total.type.truth:5d} {total.type.predicted:5d} {total.type.f1:8.2f} "
          f"{total.type_target.f1:10.2f} {seconds / minutes:6.1f} {cpu / minutes:9.1f}")  # fmt: skip
    print()
    for name, score, target in (("type", total.type, TYPE_TARGET), ("type + target", total.type_target, TYPE_AND_NAME_TARGET)):
        verdict = "ok" if score.f1 >= target else "MISSED"
        print(f"F1 {name:<14} {score.f1:.3f} (precision {score.precision:.3f}, recall {score.recall:.3f}); "
              f"target >= {target}: {verdict}")  # fmt: skip
    print(f"click evidence: {knobs.click_evidence}; analysis at {knobs.analysis_fps:g} fps; "
          f"time tolerance {knobs.score_tolerance_s:g} s")  # fmt: skip
    print("what each ground-truth kind was labeled as:")
    for line in total.confusion_lines():
        print(f"  {line}")
    print(f"load average now: {' '.join(Path('/proc/loadavg').read_text().split()[:3])} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
