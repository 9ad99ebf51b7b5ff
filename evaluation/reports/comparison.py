"""Everything `videodemo report` says about several configurations, computed once for the text, HTML and CSV.

The first configuration is the reference; each other one is paired with it task by task
(evaluation/reports/paired_stats.py). Statuses are counted under `report.errors`
(evaluation/reports/run_groups.py); costs come from evaluation/reports/run_costs.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from evaluation.reports.paired_stats import (
    Interval,
    PairedComparison,
    compare_pair,
    pass_frequencies,
    proportion_interval,
    sample_interval,
)
from evaluation.reports.run_costs import Price, local_roles, role_models, run_cost, task_cost
from evaluation.reports.run_groups import Configuration, Sample, check_error_mode, counted_records, errored_reason
from foundation.records.task_record import TaskRecord


@dataclass
class ConfigurationResult:
    configuration: Configuration
    records: list[list[TaskRecord]]  # per sample, statuses as counted
    summaries: list[dict[str, Any]]  # per sample
    pooled: dict[str, Any]  # all samples' records counted together (the group tables)
    frequencies: dict[str, tuple[int, int]]
    rates: list[float | None]  # per sample
    interval: Interval | None  # of the mean rate: t over samples, or Wilson with one sample
    costs: list[dict[str, dict[str, Any]]]  # per sample: task key -> cost fields
    run_costs: list[dict[str, Any]]  # per sample
    errored: list[tuple[int, str, str]]  # (sample, task key, reason)
    site_rates: dict[str, tuple[float | None, Interval | None]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.configuration.label

    @property
    def scripted_note(self) -> str:
        """SCRIPTED_LABEL with the count when any reply came from the scripted test server, else ""."""
        from model_access.accounting import SCRIPTED_LABEL

        calls = sum(int(cost.get("scripted_calls") or 0) for cost in self.run_costs)
        return f"{calls} call(s) {SCRIPTED_LABEL}" if calls else ""

    @property
    def mean_rate(self) -> float | None:
        known = [rate for rate in self.rates if rate is not None]
        return sum(known) / len(known) if known else None


@dataclass
class Comparison:
    results: list[ConfigurationResult]
    pairs: list[PairedComparison]  # configuration k (k >= 1) against the first
    errors: str
    confidence: float


def _overall(summary: dict[str, Any]) -> dict[str, Any]:
    return next(row for row in summary["rows"] if row["group"] == "all")


def _rate_interval(summaries: list[dict[str, Any]], group: str, value: str, confidence: float):
    rows = [next((r for r in s["rows"] if (r["group"], r["value"]) == (group, value)), None) for s in summaries]
    rates = [row["success_rate"] for row in rows if row and row["success_rate"] is not None]
    if not rates:
        return None, None
    if len(rates) == 1:
        row = next(row for row in rows if row and row["success_rate"] is not None)
        return rates[0], proportion_interval(row["passed"], row["scored"], confidence)
    return sum(rates) / len(rates), sample_interval(rates, confidence)


def configuration_result(
    configuration: Configuration, errors: str, prices: dict[str, Price], confidence: float
) -> ConfigurationResult:
    from evaluation.reports.report import summarize

    records = [counted_records(sample.records, errors) for sample in configuration.samples]
    summaries = [summarize(sample_records) for sample_records in records]
    pooled = summarize([record for sample_records in records for record in sample_records])
    costs, run_costs = [], []
    for sample, sample_records, summary in zip(configuration.samples, records, summaries):
        models, local = role_models(sample.manifest), local_roles(sample.manifest)
        per_task = {record.task_key: task_cost(record, models, prices, local) for record in sample_records}
        costs.append(per_task)
        run_costs.append(run_cost(list(per_task.values()), _overall(summary)["passed"]))
    errored = [
        (sample.number, record.task_key, reason)
        for sample in configuration.samples
        for record in sample.records
        if (reason := errored_reason(record))
    ]
    rates = [_overall(summary)["success_rate"] for summary in summaries]
    result = ConfigurationResult(
        configuration, records, summaries, pooled, pass_frequencies(records), rates,
        _rate_interval(summaries, "all", "all", confidence)[1], costs, run_costs, errored,
    )  # fmt: skip
    sites = [row["value"] for row in pooled["rows"] if row["group"] == "site"]
    result.site_rates = {site: _rate_interval(summaries, "site", site, confidence) for site in sites}
    return result


def compare(configurations: list[Configuration], settings: Any, prices: dict[str, Price]) -> Comparison:
    """`settings` is the ReportSettings (errors, bootstrap, confidence)."""
    errors = check_error_mode(settings.errors)
    check_bootstrap(settings)
    results = [configuration_result(c, errors, prices, settings.confidence) for c in configurations]
    pairs = [compare_pair(results[0].frequencies, other.frequencies, settings) for other in results[1:]]
    return Comparison(results, pairs, errors, settings.confidence)


BOOTSTRAP_METHODS = ("percentile", "basic", "BCa")  # scipy.stats.bootstrap's


def check_bootstrap(settings: Any) -> None:
    from foundation.errors import UserError

    method, resamples = settings.bootstrap_method, settings.bootstrap_resamples
    if method not in BOOTSTRAP_METHODS:
        raise UserError(f"report.bootstrap_method is {method!r}; use one of {', '.join(BOOTSTRAP_METHODS)}")
    if not 0 < settings.confidence < 1:
        raise UserError(f"report.confidence is {settings.confidence}; give a level between 0 and 1, e.g. 0.95")
    if resamples < 100:
        raise UserError(f"report.bootstrap_resamples is {resamples}; use at least 100 (default 10000)")


def flipped_tasks(comparison: Comparison) -> list[tuple[int, str, str]]:
    """(configuration index, task key, "helped"/"hurt") of every task whose majority outcome differs from run 1's."""
    flips = []
    for index, pair in enumerate(comparison.pairs, start=1):
        flips += [(index, key, "helped") for key in pair.helped] + [(index, key, "hurt") for key in pair.hurt]
    return flips


def sample_record(result: ConfigurationResult, task_key: str, passed: bool) -> tuple[Sample, TaskRecord] | None:
    """A sample holding the task and its record there: the first whose outcome agrees with `passed` (the majority
    the pairing used), else the first that holds it."""
    found = [
        (sample, record)
        for sample, records in zip(result.configuration.samples, result.records)
        for record in records
        if record.task_key == task_key
    ]
    agreeing = [(sample, record) for sample, record in found if (record.status == "passed") == passed]
    return (agreeing or found or [None])[0]
