"""The terminal text of `videodemo report` for one or more configurations (evaluation/reports/comparison.py)."""

from __future__ import annotations

from evaluation.reports.comparison import Comparison, ConfigurationResult
from evaluation.reports.comparison_health import health_usage_table
from evaluation.reports.loss_run import moves_text, stage_table
from evaluation.reports.paired_stats import PAIRING_NOTE, Interval, PairedComparison
from evaluation.reports.run_comparison import differing_tasks, only_in_some, rate_table, task_outcomes
from evaluation.reports.run_costs import shown
from evaluation.reports.run_groups import ERRORS_NOTE
from foundation.text_table import text_columns


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _interval(interval: Interval | None, points: bool = False) -> str:
    if interval is None:
        return "n/a"
    if points:
        return f"[{interval.low * 100:+.1f}, {interval.high * 100:+.1f}] points"
    return f"[{interval.low:.1%}, {interval.high:.1%}]"


def header(comparison: Comparison) -> str:
    lines = []
    for index, result in enumerate(comparison.results, start=1):
        samples = result.configuration.samples
        tasks = sum(len(records) for records in result.records)
        where = str(samples[0].folder) if len(samples) == 1 else f"{len(samples)} samples: " + ", ".join(
            str(sample.folder) for sample in samples
        )
        scripted = f"  [{result.scripted_note}]" if result.scripted_note else ""
        lines.append(f"run {index}: {result.label}  ({where}, {tasks} tasks){scripted}")
    return "\n".join(lines)


def errored_lines(comparison: Comparison) -> str:
    """Every errored task of every run, with the rule the rates above used for them."""
    lines = [f"errored tasks, {ERRORS_NOTE[comparison.errors]} (--errors {comparison.errors}):"]
    for index, result in enumerate(comparison.results, start=1):
        many = len(result.configuration.samples) > 1
        names = [f"{key} ({reason}{f', sample {number}' if many else ''})" for number, key, reason in result.errored]
        lines.append(f"  run {index} ({len(names)}): {', '.join(names) or 'none'}")
    return "\n".join(lines)


def samples_text(comparison: Comparison) -> str:
    """Mean success over samples with its interval, for configurations with several samples."""
    if all(len(result.configuration.samples) == 1 for result in comparison.results):
        return ""
    level = f"{comparison.confidence:.0%}"
    lines = [f"success over samples (mean, {level} t interval across samples; one sample: Wilson interval):"]
    for index, result in enumerate(comparison.results, start=1):
        rates = ", ".join(_percent(rate) for rate in result.rates)
        lines.append(
            f"  run {index}: {len(result.rates)} sample(s) {rates}; mean {_percent(result.mean_rate)} "
            f"{_interval(result.interval)}"
        )
    return "\n".join(lines)


def pair_text(index: int, pair: PairedComparison, confidence: float, names: tuple[str, str] | None = None) -> str:
    """The pairing of run `index` with run 1; `names` (reference, other) in place of "run 1" and "run N"."""

    def tasks(keys: list[str]) -> str:
        return f"{len(keys)}" + (f": {', '.join(keys)}" if keys else "")

    first, other = names or ("run 1", f"run {index}")
    lines = [
        f"{other} vs {first}, paired on {len(pair.tasks)} tasks scored in both ({PAIRING_NOTE}):",
        f"  helped ({other} passes, {first} fails) {tasks(pair.helped)}",
        f"  hurt ({other} fails, {first} passes) {tasks(pair.hurt)}",
        f"  both pass {len(pair.both)}, neither {len(pair.neither)}",
    ]
    if pair.difference is not None:
        how = f" ({pair.interval.how})" if pair.interval else " (interval needs 2 or more paired tasks)"
        lines.append(
            f"  difference {pair.difference * 100:+.1f} points, {confidence:.0%} interval "
            f"{_interval(pair.interval, points=True)}{how}"
        )
        lines.append(f"  exact McNemar p = {pair.mcnemar_p:.4g} (statsmodels, on the helped/hurt counts)")
    return "\n".join(lines)


COST_HEADER = [
    "run", "sample", "tasks", "passed", "prompt tok", "cached tok", "output tok", "calls", "local calls", "from disk",
    "shared",
    "model s", "browser s", "task s", "cost $", "passed/$", "passed/hour",
]  # fmt: skip


def _all_calls(cost: dict) -> int | None:
    """Every model call: the servers' and the local embedding model's (listed again under "local calls")."""
    if cost["model_calls"] is None or cost["local_calls"] is None:
        return None
    return cost["model_calls"] + cost["local_calls"]


def cost_rows(comparison: Comparison) -> tuple[list[list[str]], list[str]]:
    """One row of cells per (run, sample) under COST_HEADER, and the notes saying why cells are n/a or shared."""
    rows, notes = [], set()
    for index, result in enumerate(comparison.results, start=1):
        for sample, summary, cost in zip(result.configuration.samples, result.summaries, result.run_costs):
            passed = next(row for row in summary["rows"] if row["group"] == "all")["passed"]
            rows.append([
                f"run {index}", str(sample.number), str(summary["tasks"]), str(passed), shown(cost["prompt_tokens"]),
                shown(cost["cached_prompt_tokens"]), shown(cost["completion_tokens"]), shown(_all_calls(cost)),
                shown(cost["local_calls"]),
                shown(cost["cache_hits"]), shown(cost["shared_cache_hits"]), shown(cost["model_s"], 1),
                shown(cost["browser_s"], 1), shown(cost["task_s"], 1), shown(cost["cost_usd"], 4),
                shown(cost["passed_per_dollar"], 1), shown(cost["passed_per_hour"], 1),
            ])  # fmt: skip
            notes.update(f"n/a because: {note}" for note in cost["notes"])
    if any(cost["shared_cache_hits"] for result in comparison.results for cost in result.run_costs):
        notes.add("shared: calls served from another sample's cache entry, so those samples are not independent")
    return rows, sorted(notes)


def cost_table(comparison: Comparison) -> str:
    rows, notes = cost_rows(comparison)
    text = "cost per run (tokens the servers reported; n/a: unknown, never 0):\n" + text_columns([COST_HEADER, *rows])
    return "\n".join([text, *notes])


def configuration_tables(results: list[ConfigurationResult]) -> list[str]:
    summaries = [result.pooled for result in results]
    several = len(results) > 1
    title = "success rate (passed/scored" + (", all samples), points vs run 1:" if several else ", all samples):")
    parts = [title + "\n" + rate_table(summaries)]
    intermediate = rate_table(summaries, intermediate=True)
    if intermediate:
        parts.append("intermediate score of factual-retention tasks (passed/scored), points vs run 1:\n" + intermediate)
    return parts


def lost_parts(comparison: Comparison) -> list[str]:
    """Where each run's failed tasks were lost (evaluation/reports/loss_run.py), and where they moved from run 1 to
    each."""
    results = comparison.results
    table = stage_table([f"run {n}" for n in range(1, len(results) + 1)], [result.pooled for result in results])
    several = any(len(result.records) > 1 for result in results)
    moved = [moves_text(n, results[0].records[0], result.records[0], several)
             for n, result in enumerate(results[1:], start=2)]  # fmt: skip
    return ([table] if table else []) + moved


def comparison_text(comparison: Comparison) -> str:
    results = comparison.results
    parts = [header(comparison), *configuration_tables(results), errored_lines(comparison)]
    if len(results) > 1:
        missing = only_in_some([{r.task_key for records in res.records for r in records} for res in results])
        if missing:
            parts.append(f"note: {missing} tasks are not in every run, so the rates above cover different task sets")
        differing = differing_tasks([task_outcomes(result.records) for result in results])
        parts.append(
            f"tasks whose outcome differs ({len(differing)}):"
            + ("\n  " + "\n  ".join(differing) if differing else " none")
        )
    samples = samples_text(comparison)
    if samples:
        parts.append(samples)
    parts += [pair_text(index, pair, comparison.confidence) for index, pair in enumerate(comparison.pairs, start=2)]
    parts += lost_parts(comparison)
    parts += [health_usage_table(comparison), cost_table(comparison)]
    return "\n\n".join(parts)
