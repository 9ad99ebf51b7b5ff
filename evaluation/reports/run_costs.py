"""What a task and a run cost: tokens, tokens the server served from its prefix cache, seconds, dollars.

Tokens are the usage the servers reported (record.usage, per role); the local embedding
model runs on this machine and is left out. A role whose live calls
came back with no token counts is a server that reports no usage: its tokens, and every cost
built on them, read None ("n/a"), never 0. Calls replayed from the disk cache send nothing
and cost nothing; `shared_cache_hits` counts those served from another sample's entry.

Model seconds add the latency of every model call (policy and evaluation). Browser seconds
are the episode's time minus the policy's model time; the policy's time includes its answer
to a factual task's question, asked after the episode, so browser time reads slightly low
there. Dollars come from a price table per model name, in dollars per million tokens:
prompt tokens not served from cache at `input`, cached ones at `cached_input`, output at `output`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from foundation.errors import UserError
from foundation.records.task_record import TaskRecord

PRICE_KEYS = ("input", "cached_input", "output")
TOKEN_KEYS = ("prompt_tokens", "cached_prompt_tokens", "completion_tokens")


@dataclass(frozen=True)
class Price:
    input: float
    cached_input: float
    output: float

    def dollars(self, prompt: int, cached: int, output: int) -> float:
        return ((prompt - cached) * self.input + cached * self.cached_input + output * self.output) / 1e6


def load_prices(table: dict[str, Any], prices_file: Path | None = None) -> dict[str, Price]:
    """report.prices, with a YAML file's entries (same shape) on top."""
    merged = dict(table or {})
    if prices_file is not None:
        try:
            data = yaml.safe_load(Path(prices_file).read_text(encoding="utf-8")) or {}
        except (OSError, yaml.YAMLError) as exc:
            raise UserError(f"--prices {prices_file}: cannot read it as YAML ({exc})") from exc
        if not isinstance(data, dict):
            raise UserError(f"--prices {prices_file}: want a mapping of model name -> {{{', '.join(PRICE_KEYS)}}}")
        merged.update(data)
    prices = {}
    for model, entry in merged.items():
        if not isinstance(entry, dict) or any(not isinstance(entry.get(k), (int, float)) for k in PRICE_KEYS):
            raise UserError(
                f"price of {model!r} must give {', '.join(PRICE_KEYS)} in dollars per million tokens, "
                f"e.g. {model}: {{input: 0.25, cached_input: 0.025, output: 2.0}}; got {entry!r}"
            )
        prices[str(model)] = Price(*(float(entry[k]) for k in PRICE_KEYS))
    return prices


def role_models(manifest: dict[str, Any]) -> dict[str, str]:
    """Model role -> model name, from the settings of the run's last session in run.json."""
    sessions = manifest.get("sessions") or []
    models = ((sessions[-1] if sessions else {}).get("settings") or {}).get("models") or {}
    return {role: str(entry.get("model") or "") for role, entry in models.items() if isinstance(entry, dict)}


def local_roles(manifest: dict[str, Any]) -> set[str]:
    """Roles computed on this machine with no server to bill or report tokens (the local embedding model)."""
    sessions = manifest.get("sessions") or []
    models = ((sessions[-1] if sessions else {}).get("settings") or {}).get("models") or {}
    return {"embedding"} if (models.get("embedding") or {}).get("backend", "local") == "local" else set()


def _usage_rows(record: TaskRecord, local: set[str]) -> list[dict[str, Any]]:
    rows = [row for ledger in (record.usage or {}).values() for row in (ledger or {}).get("rows", [])]
    return [row for row in rows if row.get("role") not in local]


def _reports_no_usage(row: dict[str, Any]) -> bool:
    live = row.get("calls", 0) - row.get("cache_hits", 0) - row.get("failures", 0)
    return live > 0 and not row.get("prompt_tokens") and not row.get("completion_tokens")


def task_cost(
    record: TaskRecord, models: dict[str, str], prices: dict[str, Price], local: set[str] = frozenset()
) -> dict[str, Any]:
    """One task's cost fields (None where unknown) and `cost_note` saying why dollars are missing; calls of
    `local` roles (local_roles) are left out: they use this machine, no server."""
    rows = _usage_rows(record, local)
    # The local model's calls carry no tokens or dollars, but they are calls the run made: counted apart.
    local_rows = [row for ledger in (record.usage or {}).values() for row in (ledger or {}).get("rows", [])
                  if row.get("role") in local]  # fmt: skip
    unreported = sorted({row["role"] for row in rows if _reports_no_usage(row)})
    tokens: dict[str, int | None] = {key: sum(int(row.get(key, 0)) for row in rows) for key in TOKEN_KEYS}
    if unreported:
        tokens = dict.fromkeys(TOKEN_KEYS)
    timings = record.timings or {}
    policy_latency = float((((record.usage or {}).get("policy") or {}).get("totals") or {}).get("latency_s", 0))
    episode_s = timings.get("episode_s")
    cost: dict[str, Any] = {
        **tokens,
        "model_calls": sum(int(row.get("calls", 0)) for row in rows),
        "local_calls": sum(int(row.get("calls", 0)) for row in local_rows),
        "cache_hits": sum(int(row.get("cache_hits", 0)) for row in rows),
        # Calls that got no reply after every retry (timeouts, refusals, cut streams each time).
        "failed_calls": sum(int(row.get("failures", 0)) for row in rows),
        "shared_cache_hits": sum(int(row.get("shared_cache_hits", 0)) for row in rows),
        # Replies of the scripted test server: a run with any is labelled as not a model result.
        "scripted_calls": sum(int(row.get("scripted", 0)) for row in rows),
        "model_s": sum((float(row.get("latency_s", 0.0)) for row in rows), 0.0),
        "browser_s": max(0.0, episode_s - policy_latency) if episode_s is not None else None,
        "task_s": timings.get("total_s"),
        "cost_usd": None,
        "cost_note": "",
    }
    if unreported:
        cost["cost_note"] = f"server reports no usage ({', '.join(unreported)})"
        return cost
    dollars = 0.0
    missing = set()
    for row in rows:
        if not (row.get("prompt_tokens") or row.get("completion_tokens")):
            continue
        model = models.get(row["role"], "")
        price = prices.get(model)
        if price is None:
            missing.add(model or f"(role {row['role']}: model unknown)")
            continue
        dollars += price.dollars(row.get("prompt_tokens", 0), row.get("cached_prompt_tokens", 0),
                                 row.get("completion_tokens", 0))  # fmt: skip
    if missing:
        cost["cost_note"] = "no price for " + ", ".join(sorted(missing))
    else:
        cost["cost_usd"] = dollars
    return cost


def _total(values: list[Any]) -> Any:
    """A sum, or None when any part is unknown."""
    return None if any(value is None for value in values) else sum(values)


def run_cost(costs: list[dict[str, Any]], passed: int) -> dict[str, Any]:
    """Totals over a sample's tasks, with tasks passed per dollar and per hour of task time."""
    keys = (
        *TOKEN_KEYS, "model_calls", "local_calls", "cache_hits", "failed_calls", "shared_cache_hits", "scripted_calls", "model_s", "browser_s",
        "task_s", "cost_usd",
    )  # fmt: skip
    totals = {key: _total([cost[key] for cost in costs]) for key in keys}
    dollars, seconds = totals["cost_usd"], totals["task_s"]
    totals["passed_per_dollar"] = passed / dollars if dollars else None
    totals["passed_per_hour"] = passed / (seconds / 3600) if seconds else None
    totals["notes"] = sorted({cost["cost_note"] for cost in costs if cost["cost_note"]})
    return totals


def shown(value: Any, digits: int = 0) -> str:
    """A cost cell: "n/a" for unknown, never 0 in its place."""
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return f"{value:,}"
