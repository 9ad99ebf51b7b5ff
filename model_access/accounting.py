"""Who called which model how often, and what it cost: one ledger per run.

Counts are kept per (stage, role). `calls` counts every call a stage made;
`cache_hits` those replayed from disk, which send nothing and add no tokens,
images or latency. Tokens are what the server reported; where it reported none for
every call it answered (`no_usage`), tables print "n/a" rather than 0. Replies that came from
the scripted test server (live or replayed from the cache) are counted in
`scripted` and labelled as such everywhere the ledger is shown, so a scripted
run can never pass for a model's result.

Workers in other processes send `to_dict()` back and the parent `merge`s it.
"""

from __future__ import annotations

import threading
from dataclasses import asdict, dataclass, fields
from typing import Any, Iterable

SCRIPTED_LABEL = "SCRIPTED (not a model result)"


@dataclass
class Usage:
    calls: int = 0
    cache_hits: int = 0
    failures: int = 0
    retries: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    images: int = 0
    latency_s: float = 0.0
    scripted: int = 0
    # Prompt tokens the server reused from its prefix cache (vLLM/OpenAI `cached_tokens`), when it reports them.
    cached_prompt_tokens: int = 0
    truncated: int = 0  # replies cut at the length limit (finish_reason "length")
    timeouts: int = 0  # calls that failed for want of an answer within timeout_s
    context_overflows: int = 0  # prompts longer than the model's context (refused before or by the server)
    # Cache hits of temperature-0 calls first answered in another sample (`run.sample`): those samples share them.
    shared_cache_hits: int = 0
    # Streams the server ended without a finish reason (each attempt; retried, never cached).
    cut_streams: int = 0
    # Answered calls whose server reported no token counts (llama-cpp-python's streams): their tokens are unknown.
    no_usage: int = 0
    # Calls sent with a reply schema (models.<role>.structured_output), and replies that broke it anyway.
    constrained: int = 0
    schema_violations: int = 0

    def add(self, other: "Usage") -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


class UsageLedger:
    """Thread-safe totals per (stage, role)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rows: dict[tuple[str, str], Usage] = {}

    def record(self, stage: str, role: str, **counts: Any) -> None:
        """Add counts (fields of `Usage`) to a (stage, role) row."""
        delta = Usage(**counts)
        with self._lock:
            self._rows.setdefault((stage, role), Usage()).add(delta)

    def usage(self, stage: str | None = None, role: str | None = None) -> Usage:
        """Sum over the rows matching a stage and/or a role (None matches all)."""
        total = Usage()
        with self._lock:
            for (row_stage, row_role), row in self._rows.items():
                if stage in (None, row_stage) and role in (None, row_role):
                    total.add(row)
        return total

    @property
    def any_scripted(self) -> bool:
        return self.usage().scripted > 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready record to write with a run's results."""
        with self._lock:
            items = sorted(self._rows.items())
        rows = [{"stage": stage, "role": role, **asdict(usage)} for (stage, role), usage in items]
        totals = self.usage()
        data: dict[str, Any] = {"rows": rows, "totals": asdict(totals)}
        if totals.scripted:
            data["warning"] = f"{totals.scripted} call(s) answered by the scripted test server: {SCRIPTED_LABEL}"
        return data

    def merge(self, other: "UsageLedger | dict[str, Any]") -> None:
        """Add another ledger (or its `to_dict()`, e.g. from a worker process) into this one."""
        data = other.to_dict() if isinstance(other, UsageLedger) else other
        names = {f.name for f in fields(Usage)}
        for row in data.get("rows", []):
            self.record(row["stage"], row["role"], **{k: v for k, v in row.items() if k in names})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "UsageLedger":
        ledger = cls()
        ledger.merge(data)
        return ledger

    def summary_table(self) -> str:
        """Plain-text table, one line per (stage, role) and a total."""
        data = self.to_dict()
        if not data["rows"]:
            return "model usage: no model calls"
        header = ["stage", "role", "calls", "cached", "failed", "retries", "timeouts", "too long"]
        header += ["prompt tok", "reused tok", "compl tok", "cut", "images", "time s", "answered by"]
        lines = [_row_cells(row) for row in data["rows"]]
        lines.append(_row_cells({"stage": "total", "role": "", **data["totals"]}))
        widths = [max(len(str(cells[i])) for cells in [header, *lines]) for i in range(len(header))]
        out = [_format(header, widths), _format(["-" * w for w in widths], widths)]
        out += [_format(cells, widths) for cells in lines]
        if "warning" in data:
            out.append(f"WARNING: {data['warning']}")
        if data["totals"].get("shared_cache_hits"):
            out.append(
                f"note: {data['totals']['shared_cache_hits']} temperature-0 call(s) were answered from another "
                "sample's cache entry (the same request gives the same reply; those calls are not independent draws)"
            )
        missing = data["totals"].get("no_usage", 0)
        if missing and tokens_text(data["totals"], "prompt_tokens") != "n/a":
            out.append(f"note: {missing} answered call(s) reported no token counts; the token columns leave them out")
        if data["totals"].get("cut_streams"):
            out.append(
                f"note: {data['totals']['cut_streams']} stream(s) ended by the server without a finish reason were "
                "retried (llama-cpp-python's server: start it with --interrupt_requests false)"
            )
        if data["totals"].get("truncated"):
            out.append(
                f"note: {data['totals']['truncated']} repl(ies) cut at the length limit (column 'cut'); "
                "raise models.<role>.max_tokens if they lack their ending"
            )
        return "\n".join(out)


def _row_cells(row: dict[str, Any]) -> list[str]:
    answered = row["calls"] - row["failures"]
    if row["scripted"] and row["scripted"] >= answered:
        source = SCRIPTED_LABEL
    elif row["scripted"]:
        source = f"model, and {row['scripted']} {SCRIPTED_LABEL}"
    elif answered > 0:
        source = "model (from cache)" if row["cache_hits"] == answered else "model"
    else:
        source = "-"
    return [
        row["stage"],
        row["role"],
        str(row["calls"]),
        str(row["cache_hits"]),
        str(row["failures"]),
        str(row["retries"]),
        str(row.get("timeouts", 0)),
        str(row.get("context_overflows", 0)),
        tokens_text(row, "prompt_tokens"),
        tokens_text(row, "cached_prompt_tokens"),
        tokens_text(row, "completion_tokens"),
        str(row.get("truncated", 0)),
        str(row["images"]),
        f"{row['latency_s']:.1f}",
        source,
    ]


def live_answers(row: dict[str, Any]) -> int:
    """Calls of a row a server answered in this run (not replayed from the cache, not failed)."""
    return int(row.get("calls", 0)) - int(row.get("cache_hits", 0)) - int(row.get("failures", 0))


def tokens_unknown(row: dict[str, Any]) -> bool:
    """No call a server answered in this row reported token counts, so its token sums are unknown, not 0."""
    live = live_answers(row)
    return live > 0 and int(row.get("no_usage", 0)) >= live


def tokens_text(row: dict[str, Any], name: str) -> str:
    """A token count (or a per-step mean) of a usage row for a table: "n/a" where the server reported none."""
    if tokens_unknown(row):
        return "n/a"
    return f"{row.get(name, 0):.0f}"


def _format(cells: Iterable[str], widths: list[int]) -> str:
    cells = list(cells)
    text = [cells[0].ljust(widths[0]), cells[1].ljust(widths[1])]
    text += [c.rjust(w) for c, w in zip(cells[2:-1], widths[2:-1])]
    text.append(cells[-1])
    return "  ".join(text)
