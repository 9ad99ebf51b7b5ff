"""`videodemo report`: one run's tables, or runs side by side with their paired statistics. It stands above what
it composes: the run summaries and task pages (report.py), the comparison (comparison*.py), the pages and charts."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from evaluation.reports.report import summary_text, write_run_outputs


def default_report_dir(folders: list[Path]) -> Path:
    """<first run>/reports/<digest of every folder given>: one folder per set of runs compared."""
    digest = hashlib.sha1("\n".join(str(Path(f).resolve()) for f in folders).encode()).hexdigest()[:8]
    return Path(folders[0]) / "reports" / digest


def report(
    run_dir: Path,
    *other_dirs: Path,
    labels: list[str] | None = None,
    settings: Any = None,
    prices_file: Path | None = None,
    out_dir: Path | None = None,
    refresh_runs: bool = True,
) -> str:
    """The text `videodemo report` prints (each run's index.html / summary.json refreshed, the report's pages,
    charts and tidy CSV written to `out_dir`): one run's tables, or runs side by side with paired statistics.
    `settings` is the ReportSettings (defaults when None); `refresh_runs=False` leaves each run's own outputs as
    they are (a caller that has just written them)."""
    from evaluation.reports.comparison import compare
    from evaluation.reports.comparison_page import write_report_folder
    from evaluation.reports.comparison_text import comparison_text, cost_table
    from evaluation.reports.run_costs import load_prices
    from evaluation.reports.run_groups import ERRORS_NOTE, group_configurations
    from settings.schema import ReportSettings

    settings = settings or ReportSettings()
    folders = [Path(run_dir), *map(Path, other_dirs)]
    prices = load_prices(settings.prices, prices_file)  # --prices and --labels checked before any page is rewritten
    if labels is not None:
        group_configurations(folders, labels)
    for folder in folders if refresh_runs else []:
        write_run_outputs(folder, settings)
    comparison = compare(group_configurations(folders, labels), settings, prices)
    out = Path(out_dir) if out_dir else default_report_dir(folders)
    index, table = write_report_folder(comparison, out)
    (only,) = comparison.results if len(comparison.results) == 1 else (None,)
    if only is not None and len(only.summaries) == 1:
        errors = f"errored tasks: {ERRORS_NOTE[comparison.errors]} (--errors {comparison.errors})"
        text = "\n\n".join([summary_text(only.summaries[0]), errors, cost_table(comparison)])
    else:
        text = comparison_text(comparison)
    return f"{text}\n\nreport with charts and flipped tasks: {index}\none row per (run, sample, task): {table}"
