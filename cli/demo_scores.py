"""What the demo reports: the labeler's accuracy on the recorded tutorials and each run's success rate."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from processing.artifacts import VideoArtifacts, read_json
from processing.labeling_accuracy import AccuracyReport, score_against_log
from foundation.records.trajectory import LabeledAction
from settings import Settings


OWN = "on the sandbox tutorials (tuned on)"
TUNED_HELD_OUT = "on the held-out and untouched styles (other apps and recorders; tuned on)"
SEALED = "on recordings it was not tuned on (sealed style: three more apps, 15 fps capture)"
# Which styles each figure is measured on, and one recording per app for --quick.
GROUPS = {"tuned held-out": ("heldout", "untouched"), "sealed": ("sealed",)}
TITLES = {"tuned held-out": TUNED_HELD_OUT, "sealed": SEALED}
QUICK = {
    "heldout": ("tracker-new-task", "recipes-search", "settings-password"),
    "untouched": ("trips-search", "handbook-find", "inbox-search"),
    "sealed": ("library-search", "clinic-book", "guide-find"),
}


@dataclass
class LabelerAccuracy:
    report: AccuracyReport
    videos: int
    missing: list[str]  # tutorials without labeled actions (not processed, or their labeling failed)
    measured_on: str = OWN


def labeler_accuracy(settings: Settings, names: list[str]) -> LabelerAccuracy:
    """The labeled actions stored by processing, scored against each tutorial's ground-truth log."""
    tutorials = settings.paths.sandbox_dir / "tutorials"
    total, scored, missing = AccuracyReport.empty(), 0, []
    for name in names:
        stored = read_json(VideoArtifacts(settings.paths.processed_dir, name).stage_path("merging"))
        truth_file = tutorials / f"{name}.actions.json"
        if not isinstance(stored, dict) or not isinstance(stored.get("data"), list) or not truth_file.is_file():
            missing.append(name)
            continue
        predicted = [LabeledAction.from_dict(item) for item in stored["data"]]
        tolerance = settings.processing.ocr_labeler.score_tolerance_s
        total = total.add(score_against_log(predicted, truth_file, tolerance))
        scored += 1
    return LabelerAccuracy(total, scored, missing)


def recordings_accuracy(settings: Settings, group: str, quick: bool) -> LabelerAccuracy:
    """The OCR labeler, with the same settings, on the recordings of a group of `GROUPS` (made once, then cached)."""
    from processing.ocr_labeler.labeler import OcrLabeler
    from tasks.labeler_recordings.styles import recorder

    knobs = settings.processing.ocr_labeler
    total, scored = AccuracyReport.empty(), 0
    for style in GROUPS[group]:
        for recording in recorder(style)(settings, only=list(QUICK[style]) if quick else None):
            predicted = OcrLabeler().label(recording.video, [], knobs)
            total = total.add(score_against_log(predicted, recording.actions, knobs.score_tolerance_s))
            scored += 1
    return LabelerAccuracy(total, scored, [], TITLES[group])


def accuracy_lines(accuracy: LabelerAccuracy) -> list[str]:
    if not accuracy.videos:
        return [f"labeler accuracy {accuracy.measured_on}: no processed tutorial to score"]
    kind, target = accuracy.report.type, accuracy.report.type_target
    lines = [
        f"OCR labeler {accuracy.measured_on}, vs ground truth ({accuracy.videos} videos, {kind.truth} actions, "
        f"{kind.predicted} labeled):",
        f"  action kind           F1 {kind.f1:.2f}  (precision {kind.precision:.2f}, recall {kind.recall:.2f})",
        f"  kind + target name    F1 {target.f1:.2f}  (precision {target.precision:.2f}, recall {target.recall:.2f})",
        *(f"  {line}" for line in accuracy.report.measures.lines()),  # VideoGUI's, over the matched pairs
    ]
    if accuracy.missing:
        lines.append(f"  not scored (no labeled actions stored): {', '.join(accuracy.missing)}")
    return lines


@dataclass
class RunResult:
    label: str
    run_dir: Path
    summary: dict[str, Any]
    seconds: float

    @property
    def overall(self) -> dict[str, Any]:
        return next(row for row in self.summary["rows"] if row["group"] == "all")


def success_table(results: list[RunResult]) -> list[str]:
    rows = [("replay policy", "tasks", "scored", "passed", "success")]
    for result in results:
        row = result.overall
        rate = "-" if row["success_rate"] is None else f"{row['success_rate']:.1%}"
        rows.append((result.label, str(row["tasks"]), str(row["scored"]), str(row["passed"]), rate))
    widths = [max(len(row[n]) for row in rows) for n in range(len(rows[0]))]
    lines = []
    for number, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(row[1:], widths[1:])]
        lines.append("  " + "  ".join(cells))
        if number == 0:
            lines.append("  " + "  ".join("-" * width for width in widths))
    return lines
