"""How well a labeler's actions agree with a ground-truth action log, for any labeler (OCR, VLM).

Matching. A predicted action can match a ground-truth action of the same kind when
their time spans overlap or are at most `tolerance_s` apart. Each action is matched at
most once; among all one-to-one pairings, the one with the most pairs and then the
smallest total time gap is chosen (Hungarian assignment). Precision, recall and F1
follow from the number of pairs.

Two scores are reported:
- type: pairs need the same kind;
- type + target: pairs also need targets that agree (`names_agree`), matched anew.

Names agree when, after `normalise_name` (lower case, punctuation and quotes dropped,
role words such as "button" or "link" dropped, spaces collapsed), they are equal, or the
words of one appear in order inside the other, or their word sets have a Jaccard
similarity of at least 0.5. Actions whose ground truth names no target (a scroll, a
key press) agree with any predicted target.

The confusion counts say, for each ground-truth kind, what the labeler called it:
actions left after the type matching are paired across kinds by time (same tolerance),
and whatever stays unpaired is counted as missed (ground truth) or extra (prediction).

Beside the F1s, `score_against_log` adds VideoGUI's action measures over the type
matching's pairs (click distance and recall, typed text, scroll direction:
`processing.action_measures`), which need the log's frame size and element boxes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from foundation.errors import UserError
from foundation.records.trajectory import LabeledAction
from processing.action_measures import ActionMeasures, Geometry, measure_actions
from tasks.reference.logs import read_log
from tasks.reference.names import names_agree  # the one name matcher (docstring above)

MISSED = "(missed)"
EXTRA = "(extra)"


def target_agrees(predicted: LabeledAction, truth: LabeledAction) -> bool:
    if not (truth.target or "").strip():
        return True  # nothing to name (scroll, press)
    return names_agree(predicted.target, truth.target)


@dataclass
class Score:
    matched: int
    predicted: int
    truth: int

    @property
    def precision(self) -> float:
        return self.matched / self.predicted if self.predicted else (1.0 if not self.truth else 0.0)

    @property
    def recall(self) -> float:
        return self.matched / self.truth if self.truth else (1.0 if not self.predicted else 0.0)

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def add(self, other: Score) -> Score:
        return Score(self.matched + other.matched, self.predicted + other.predicted, self.truth + other.truth)


@dataclass
class AccuracyReport:
    type: Score
    type_target: Score
    per_kind: dict[str, Score] = field(default_factory=dict)  # type score per ground-truth/predicted kind
    confusion: Counter = field(default_factory=Counter)  # (truth kind or EXTRA, predicted kind or MISSED) -> count
    pairs: list[tuple[int, int]] = field(default_factory=list)  # (predicted index, truth index) of the type matching
    measures: ActionMeasures = field(default_factory=ActionMeasures)  # VideoGUI's, filled by score_against_log

    def add(self, other: AccuracyReport) -> AccuracyReport:
        kinds = set(self.per_kind) | set(other.per_kind)
        return AccuracyReport(
            self.type.add(other.type),
            self.type_target.add(other.type_target),
            {k: self.per_kind.get(k, Score(0, 0, 0)).add(other.per_kind.get(k, Score(0, 0, 0))) for k in kinds},
            self.confusion + other.confusion,
            measures=self.measures.add(other.measures),
        )

    @classmethod
    def empty(cls) -> AccuracyReport:
        return cls(Score(0, 0, 0), Score(0, 0, 0))

    def confusion_lines(self) -> list[str]:
        """One line per ground-truth kind: what it was labeled as, e.g. `click: click 40, type 2, (missed) 3`."""
        rows: dict[str, Counter] = {}
        for (truth, predicted), count in self.confusion.items():
            rows.setdefault(truth, Counter())[predicted] += count
        lines = []
        for truth in sorted(rows, key=lambda k: (k == EXTRA, k)):
            cells = ", ".join(f"{kind} {count}" for kind, count in rows[truth].most_common())
            lines.append(f"{truth}: {cells}")
        return lines


def time_gap(a: LabeledAction, b: LabeledAction) -> float:
    """0 when the spans overlap, else the time between them."""
    a0, a1 = min(a.start_s, a.end_s), max(a.start_s, a.end_s)
    b0, b1 = min(b.start_s, b.end_s), max(b.start_s, b.end_s)
    return max(0.0, a0 - b1, b0 - a1)


def _match(
    predicted: list[LabeledAction], truth: list[LabeledAction], tolerance_s: float, allowed
) -> list[tuple[int, int]]:
    """Most pairs (i, j) with allowed(p_i, t_j) and a gap within tolerance; then the least total gap."""
    if not predicted or not truth:
        return []
    big = 1e6
    cost = np.full((len(predicted), len(truth)), big)
    for i, p in enumerate(predicted):
        for j, t in enumerate(truth):
            gap = time_gap(p, t)
            if gap <= tolerance_s and allowed(p, t):
                # The start-time distance breaks ties between equally close candidates.
                cost[i, j] = gap + 0.01 * min(abs(p.start_s - t.start_s), 10.0)
    # Imported here: scipy.optimize costs 0.9 s, and most importers (run workers, via the oracle labels) never match.
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(cost)
    return [(int(i), int(j)) for i, j in zip(rows, cols) if cost[i, j] < big]


def score_actions(
    predicted: list[LabeledAction], truth: list[LabeledAction], tolerance_s: float = 1.0
) -> AccuracyReport:
    """Score `predicted` against `truth` (see the module docstring)."""
    if tolerance_s < 0:
        raise UserError(f"time tolerance {tolerance_s} s must not be negative: set it to e.g. 1.0")
    same_kind = lambda p, t: p.kind == t.kind  # noqa: E731
    pairs = _match(predicted, truth, tolerance_s, same_kind)
    target_pairs = _match(predicted, truth, tolerance_s, lambda p, t: same_kind(p, t) and target_agrees(p, t))

    per_kind: dict[str, Score] = {}
    for kind in {a.kind for a in predicted} | {a.kind for a in truth}:
        per_kind[kind] = Score(
            sum(1 for i, _ in pairs if predicted[i].kind == kind),
            sum(1 for a in predicted if a.kind == kind),
            sum(1 for a in truth if a.kind == kind),
        )

    confusion: Counter = Counter()
    for i, j in pairs:
        confusion[(truth[j].kind, predicted[i].kind)] += 1
    left_p = [i for i in range(len(predicted)) if i not in {i for i, _ in pairs}]
    left_t = [j for j in range(len(truth)) if j not in {j for _, j in pairs}]
    cross = _match([predicted[i] for i in left_p], [truth[j] for j in left_t], tolerance_s, lambda p, t: True)
    for a, b in cross:
        confusion[(truth[left_t[b]].kind, predicted[left_p[a]].kind)] += 1
    for b in set(range(len(left_t))) - {b for _, b in cross}:
        confusion[(truth[left_t[b]].kind, MISSED)] += 1
    for a in set(range(len(left_p))) - {a for a, _ in cross}:
        confusion[(EXTRA, predicted[left_p[a]].kind)] += 1

    return AccuracyReport(
        Score(len(pairs), len(predicted), len(truth)),
        Score(len(target_pairs), len(predicted), len(truth)),
        per_kind,
        confusion,
        pairs,
    )


def ground_truth_actions(path: str | Path) -> list[LabeledAction]:
    """The actions of a recorded tutorial's `<name>.actions.json`, as labeled actions."""
    actions = read_log(path)
    if actions is None:
        raise UserError(f"ground-truth log {path} cannot be read: record the tutorial again")
    return actions


def score_against_log(predicted: list[LabeledAction], log: str | Path, tolerance_s: float = 1.0) -> AccuracyReport:
    """`score_actions` against a recorded tutorial's log, with VideoGUI's action measures over its pairs."""
    truth = ground_truth_actions(log)
    report = score_actions(predicted, truth, tolerance_s)
    report.measures = measure_actions(predicted, truth, report.pairs, Geometry.from_log(log))
    return report
