"""Paired statistics of two configurations on the same tasks, from scipy and statsmodels.

Per task, a configuration's pass frequency is passed / scored over its samples (0 or 1 with
one sample). Helped / hurt / both / neither and the exact McNemar test read each task by
majority: a task passes when it passed in more than half of its scored samples (a tie counts
as not passing). The success-rate difference and its paired bootstrap interval use the
frequencies, so with several samples the difference is that of the mean success rates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from evaluation.running.run_records import natural_key
from foundation.records.task_record import TaskRecord

PAIRING_NOTE = "outcome by majority of samples, a tie not passing; the difference from pass frequencies"


def pass_frequencies(samples: list[list[TaskRecord]]) -> dict[str, tuple[int, int]]:
    """task key -> (passed, scored) over a configuration's samples (records with the counted status)."""
    counts: dict[str, list[int]] = {}
    for records in samples:
        for record in records:
            status = record.status
            if status in ("passed", "failed"):
                entry = counts.setdefault(record.task_key, [0, 0])
                entry[0] += int(status == "passed")
                entry[1] += 1
    return {key: (passed, scored) for key, (passed, scored) in counts.items()}


@dataclass
class Interval:
    low: float
    high: float
    how: str


@dataclass
class PairedComparison:
    tasks: list[str]  # scored in both configurations
    helped: list[str]  # B passes, A does not
    hurt: list[str]
    both: list[str]
    neither: list[str]
    difference: float | None  # mean pass frequency of B minus A, over the paired tasks
    interval: Interval | None
    mcnemar_p: float | None

    @property
    def table(self) -> list[list[int]]:
        """2x2 counts, rows A passes / fails, columns B passes / fails (statsmodels' layout)."""
        return [[len(self.both), len(self.hurt)], [len(self.helped), len(self.neither)]]


def compare_pair(
    reference: dict[str, tuple[int, int]], other: dict[str, tuple[int, int]], settings: Any
) -> PairedComparison:
    """`settings` is a ReportSettings (bootstrap resamples, seed, level, method)."""
    from statsmodels.stats.contingency_tables import mcnemar

    tasks = sorted(set(reference) & set(other), key=natural_key)
    groups: dict[tuple[bool, bool], list[str]] = {(a, b): [] for a in (True, False) for b in (True, False)}
    for key in tasks:
        groups[(_majority(reference[key]), _majority(other[key]))].append(key)
    comparison = PairedComparison(
        tasks=tasks, helped=groups[(False, True)], hurt=groups[(True, False)], both=groups[(True, True)],
        neither=groups[(False, False)], difference=None, interval=None, mcnemar_p=None,
    )  # fmt: skip
    if not tasks:
        return comparison
    a = np.array([_frequency(reference[key]) for key in tasks])
    b = np.array([_frequency(other[key]) for key in tasks])
    comparison.difference = float(b.mean() - a.mean())
    comparison.mcnemar_p = float(mcnemar(comparison.table, exact=True).pvalue)
    comparison.interval = bootstrap_difference(a, b, settings)
    return comparison


def bootstrap_difference(a: np.ndarray, b: np.ndarray, settings: Any) -> Interval | None:
    """scipy's paired bootstrap of mean(b) - mean(a), resampling tasks; None under two tasks."""
    from scipy.stats import bootstrap

    if len(a) < 2:
        return None
    result = bootstrap(
        (a, b), _mean_difference, paired=True, vectorized=True, n_resamples=settings.bootstrap_resamples,
        confidence_level=settings.confidence, method=settings.bootstrap_method,
        rng=np.random.default_rng(settings.bootstrap_seed),
    )  # fmt: skip
    low, high = result.confidence_interval
    how = (
        f"paired bootstrap over tasks, {settings.bootstrap_resamples} resamples, seed {settings.bootstrap_seed}, "
        f"{settings.bootstrap_method}"
    )
    return Interval(float(low), float(high), how)


def _mean_difference(a: np.ndarray, b: np.ndarray, axis: int = -1) -> np.ndarray:
    return b.mean(axis=axis) - a.mean(axis=axis)


def _majority(counts: tuple[int, int]) -> bool:
    passed, scored = counts
    return passed * 2 > scored


def _frequency(counts: tuple[int, int]) -> float:
    passed, scored = counts
    return passed / scored


def sample_interval(rates: list[float], confidence: float) -> Interval | None:
    """Mean success rate over samples with scipy's one-sample t interval; None under two samples."""
    from scipy.stats import ttest_1samp

    if len(rates) < 2:
        return None
    if len(set(rates)) == 1:  # no spread: t is undefined, the interval is the value itself
        return Interval(rates[0], rates[0], f"t interval over {len(rates)} samples (all equal)")
    low, high = ttest_1samp(rates, 0.0).confidence_interval(confidence)
    return Interval(float(low), float(high), f"t interval over {len(rates)} samples")


def proportion_interval(passed: int, scored: int, confidence: float) -> Interval | None:
    """Wilson interval of one sample's passed / scored (scipy); None when nothing was scored.

    scipy's, not statsmodels' `proportion_confint`: the same interval (within 5e-16 for every count up to 259 at 90,
    95 and 99%), and importing statsmodels.stats imports pandas, 3-4 s for every `videodemo run` that writes its
    summary."""
    from scipy.stats import binomtest

    if not scored:
        return None
    interval = binomtest(passed, scored).proportion_ci(confidence_level=confidence, method="wilson")
    return Interval(float(interval.low), float(interval.high), "Wilson interval of one sample")
