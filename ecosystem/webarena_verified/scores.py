"""Our run folder's task records scored with WebArena-Verified, beside our own score.

    videodemo verified-scores RUN_DIR --tasks-path /data/videowa/configs

Each record's task is mapped to its WebArena task as `ecosystem.browsergym.webarena_ids` maps it (the config's
original id, else intent + sites + start URL, here against the WebArena configs WebArena-Verified ships), and its
answer scored by the package's evaluator in the environment of scripts/servers/webarena_verified.sh. What that
evaluator needs and the record lacks (a network trace: run with `--set run.record_network=true`; a site's base URL)
makes a one-line reason, never a 0.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from ecosystem.browsergym.webarena_ids import index_originals, map_tasks
from evaluation.running.run_records import NETWORK_TRACE_FILE, natural_key
from evaluation.running.task_record import iter_records
from foundation.errors import UserError
from model_access.local_servers.process import server_python
from tasks.placeholders import SITE_PLACEHOLDERS

ENVIRONMENT = "webarena-verified"
WORKER = Path(__file__).with_name("worker.py")
# A task's trace: ours (a Playwright trace, with run.record_network), or a HAR under WebArena-Verified's own name.
TRACE_FILES = (NETWORK_TRACE_FILE, "network.har")
TIMEOUT_S = 600.0


def verified_python() -> Path:
    """The Python of the WebArena-Verified environment, or a UserError naming the script that installs it."""
    return server_python(ENVIRONMENT, script="webarena_verified", what="the WebArena-Verified environment")


def _worker(python: Path, request: dict[str, Any]) -> dict[str, Any]:
    done = subprocess.run([str(python), str(WORKER)], input=json.dumps(request), capture_output=True, text=True,
                          timeout=TIMEOUT_S)  # fmt: skip
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise UserError(f"WebArena-Verified's evaluator failed: {last} (rerun with the environment's Python: "
                        f"{python} {WORKER})")  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def task_type(eval_types: list[str]) -> str:
    """Verified's task type for a plain answer, from the original WebArena evaluators our record names: a page or
    database check is a change (MUTATE), a URL check alone is NAVIGATE, anything else RETRIEVE."""
    if "program_html" in eval_types:
        return "MUTATE"
    if eval_types and set(eval_types) <= {"url_match"}:
        return "NAVIGATE"
    return "RETRIEVE"


def site_urls() -> dict[str, str]:
    """Base URL of each WebArena site, from the variables WebArena's configs name them by ($SHOPPING, ...)."""
    return {p.site: os.environ[p.env_var] for p in SITE_PLACEHOLDERS if os.environ.get(p.env_var)}


def verified_scores(run_dir: str | Path, tasks_path: str | Path, python: Path | None = None) -> list[dict[str, Any]]:
    """One row per finished task of the run: key, our score, and Verified's score (None with `why` if unscored)."""
    python = python or verified_python()
    records = sorted(iter_records(Path(run_dir)), key=lambda record: natural_key(str(record.task_key)))
    if not records:
        raise UserError(f"no finished task records in {run_dir} (tasks/<task>/record.json)")
    originals = index_originals(_worker(python, {"originals": True})["originals"], "webarena")
    mapped = map_tasks(tasks_path, originals=originals)
    rows, asks = [], []
    for record in records:
        key = str(record.task_key)
        row: dict[str, Any] = {"key": key, "ours": record.score, "verified": None}
        entry = mapped.get(key) or {}
        name = entry.get("browsergym") or ""
        if not entry:
            row["why"] = f"not scored: no config with this key at {tasks_path}"
        elif not name:
            row["why"] = f"not scored: no WebArena task: {entry.get('why')}"
        elif not name.startswith("webarena."):
            row["why"] = f"not scored: {name} is a VisualWebArena task; WebArena-Verified has WebArena's only"
        else:
            row["webarena"] = name
            folder = Path(run_dir) / "tasks" / str(record.folder)
            trace = next((folder / name for name in TRACE_FILES if (folder / name).is_file()), None)
            asks.append({"key": key, "webarena_id": int(name.split(".")[1]), "answer": record.answer,
                         "trace": str(trace) if trace else None,
                         "task_type": task_type(list(record.eval_types or []))})  # fmt: skip
        rows.append(row)
    if asks:
        answered = _worker(python, {"sites": site_urls(), "tasks": asks})["results"]
        results = {result["key"]: result for result in answered}
        for row in rows:
            result = results.get(row["key"])
            if result:
                row.update(verified=result.get("score"), browsergym=result.get("browsergym"),
                           browsergym_reward=result.get("browsergym_reward"),
                           how=result.get("how"), why=result.get("why") or "")  # fmt: skip
    return rows


def format_rows(rows: list[dict[str, Any]]) -> list[str]:
    """One line per task: key, WebArena id, our score, Verified's score, and how or why."""
    lines = [f"{'task':<24} {'webarena':<14} {'ours':>5} {'verified':>8}  notes"]
    for row in rows:
        ours = "-" if row["ours"] is None else f"{float(row['ours']):.2f}"
        verified = "-" if row["verified"] is None else f"{float(row['verified']):.2f}"
        notes = "; ".join(part for part in (row.get("how"), row.get("why")) if part)
        lines.append(f"{row['key']:<24} {row.get('webarena', '-'):<14} {ours:>5} {verified:>8}  {notes}")
    scored = [row["verified"] for row in rows if row["verified"] is not None]
    lines.append(f"{len(scored)} of {len(rows)} tasks scored by WebArena-Verified"
                 + (f", mean {sum(scored) / len(scored):.2f}" if scored else ""))  # fmt: skip
    return lines
