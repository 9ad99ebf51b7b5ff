"""The report's charts, drawn with matplotlib and embedded in the page as SVG data URLs (no files to lose)."""

from __future__ import annotations

import base64
import io
import warnings

from evaluation.reports.comparison import Comparison


def _figure(width: float, height: float):
    import matplotlib

    matplotlib.use("Agg")  # no display: draw to memory
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(width, height))


def _data_url(figure) -> str:
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    with warnings.catch_warnings():  # a long run label cannot always fit; bbox_inches below keeps it whole
        warnings.simplefilter("ignore", UserWarning)
        figure.tight_layout()
    figure.savefig(buffer, format="svg", bbox_inches="tight")  # keeps the legend under the axes
    plt.close(figure)
    return "data:image/svg+xml;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _legend_label(number: int, label: str, longest: int = 70) -> str:
    """A run's legend entry, cut so a long label (every harness setting it changed) leaves the plot its width;
    the page lists each run's whole label above the charts."""
    text = f"run {number}: {label}"
    return text if len(text) <= longest else text[: longest - 3] + "..."


def _error_bar(rate: float, interval) -> tuple[float, float]:
    # Bars stay within [0, 1] (a t interval over few samples can pass them) and are never negative (a Wilson
    # bound at 0 or 1 can miss the rate by a rounding error).
    if interval is None:
        return (0.0, 0.0)
    return max(0.0, rate - max(0.0, interval.low)), max(0.0, min(1.0, interval.high) - rate)


def success_chart(comparison: Comparison) -> str:
    """Bars of success rate per run, overall and per site, with their intervals as error bars."""
    import numpy as np

    results = comparison.results
    sites = sorted({site for result in results for site in result.site_rates})
    groups = ["all", *sites]
    figure, axes = _figure(min(11.0, max(5.0, 1.5 + 0.7 * len(groups) * len(results))), 3.2 + 0.25 * len(results))
    width = 0.8 / len(results)
    for index, result in enumerate(results):
        cells = [(result.mean_rate, result.interval)] + [result.site_rates.get(site, (None, None)) for site in sites]
        rates = [rate if rate is not None else 0.0 for rate, _ in cells]
        bars = [_error_bar(rate, interval) if rate is not None else (0.0, 0.0) for rate, interval in cells]
        positions = np.arange(len(groups)) + (index - (len(results) - 1) / 2) * width
        axes.bar(positions, rates, width, label=_legend_label(index + 1, result.label),
                 yerr=np.array(bars).T, capsize=3)  # fmt: skip
    axes.set_xticks(np.arange(len(groups)), groups)
    axes.set_ylim(0, 1.05)
    axes.set_ylabel("success rate")
    axes.set_title(f"success rate with {comparison.confidence:.0%} intervals")
    _legend_below(axes)
    return _data_url(figure)


def _legend_below(axes) -> None:
    """The legend under the plot, so long run labels never squeeze the axes."""
    axes.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=1, frameon=False)


def cost_axis(comparison: Comparison) -> tuple[str, list[float | None]]:
    """What the cost chart's x axis shows: dollars per task when every run has them, else tokens, else seconds."""
    def per_task(key: str) -> list[float | None]:
        values = []
        for result in comparison.results:
            totals = [cost[key] for cost in result.run_costs]
            tasks = sum(len(records) for records in result.records)
            values.append(None if any(t is None for t in totals) or not tasks else sum(totals) / tasks)
        return values

    dollars = per_task("cost_usd")
    if all(value is not None for value in dollars) and any(dollars):
        return "dollars per task", dollars
    prompt, output = per_task("prompt_tokens"), per_task("completion_tokens")
    tokens = [None if p is None or o is None else p + o for p, o in zip(prompt, output)]
    if all(value is not None for value in tokens) and any(tokens):
        return "model tokens per task (no prices for every run)", tokens
    return "task seconds per task (no model tokens or prices)", per_task("task_s")


def cost_chart(comparison: Comparison) -> str:
    """Success rate against cost per task, one point per run, with the success interval."""
    label, costs = cost_axis(comparison)
    figure, axes = _figure(5.5, 3.2 + 0.25 * len(comparison.results))
    drawn = 0
    for index, (result, cost) in enumerate(zip(comparison.results, costs), start=1):
        if cost is None or result.mean_rate is None:
            continue
        drawn += 1
        low, high = _error_bar(result.mean_rate, result.interval)
        # Not clipped at the axes: a run at 0% (or of no cost) showed half a point.
        axes.errorbar([cost], [result.mean_rate], yerr=[[low], [high]], fmt="o", capsize=3, clip_on=False,
                      label=_legend_label(index, result.label))  # fmt: skip
        axes.annotate(f"run {index}", (cost, result.mean_rate), textcoords="offset points", xytext=(6, 4), fontsize=8)
    axes.set_xlabel(label)
    axes.set_ylabel("success rate")
    axes.set_ylim(-0.05, 1.05)  # room below 0% and right of 0 for a whole marker
    known = [cost for cost in costs if cost is not None]
    axes.set_xlim(left=-0.05 * max(known) if known and max(known) > 0 else -0.05)
    axes.set_title("success against cost")
    if drawn:
        _legend_below(axes)
    else:
        axes.text(0.5, 0.5, "no run has both a success rate and a cost", ha="center", transform=axes.transAxes)
    return _data_url(figure)
