"""A run's summary as the text table `videodemo report` prints and the run's index shows."""

from __future__ import annotations

from typing import Any

from foundation.text_table import text_columns


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def format_table(summary: dict[str, Any]) -> str:
    header = "group value tasks scored passed success unscorable config_err errored interm."
    lines = [[name.replace("_", " ") for name in header.split()]]
    for row in summary["rows"]:
        intermediate = (
            f"{row['intermediate_passed']}/{row['intermediate_scored']}" if row["intermediate_scored"] else "-"
        )
        lines.append([
            row["group"], row["value"], str(row["tasks"]), str(row["scored"]), str(row["passed"]),
            _rate(row["success_rate"]), str(row["unscorable"]), str(row["config_error"]), str(row["error"]),
            intermediate,
        ])  # fmt: skip
    return text_columns(lines)
