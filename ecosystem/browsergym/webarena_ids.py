"""VideoWA's skill-retention tasks as BrowserGym's `webarena.N` / `visualwebarena.N`, so a user with WebArena or
VisualWebArena running plays the method on BrowserGym's own tasks (and BrowserGym's own evaluators).

    python -m ecosystem.browsergym.webarena_ids /data/videowa/configs     # one JSON line: key -> BrowserGym name

A config that names its original task (`original_task_id` or `webarena_task_id`, with the benchmark from its sites)
maps by that id. VideoWA's released configs number their tasks afresh, so otherwise a task maps to the original task
with the same intent, sites and start URL (and input image, for VisualWebArena), read from the task files BrowserGym's
packages ship (`webarena/test.raw.json`, `visualwebarena/test_raw.json`). No match, or several: `null`, with why.
"""

from __future__ import annotations

import argparse
import importlib.resources
import json
import sys
from pathlib import Path
from typing import Any

from tasks.loading import config_files, source_name

ID_FIELDS = ("original_task_id", "webarena_task_id")
VWA_SITES = frozenset({"classifieds"})  # sites only VisualWebArena has; its shopping and reddit are WebArena's too


def _signature(config: dict[str, Any]) -> tuple:
    image = config.get("image")
    return (
        " ".join(str(config.get("intent", "")).split()),
        tuple(sorted(config.get("sites") or [])),
        str(config.get("start_url", "")).strip(),
        json.dumps(image, sort_keys=True) if image else "",
    )


def index_originals(configs: list[dict[str, Any]], prefix: str, found: dict | None = None) -> dict[tuple, list[str]]:
    """Signature -> names (`prefix.task_id`) of the original task configs with it, added to `found`."""
    found = {} if found is None else found
    for config in configs:
        found.setdefault(_signature(config), []).append(f"{prefix}.{config['task_id']}")
    return found


def _originals() -> dict[tuple, list[str]]:
    """Signature -> BrowserGym names of the original tasks with it."""
    found: dict[tuple, list[str]] = {}
    for package, file, prefix in (("webarena", "test.raw.json", "webarena"),
                                  ("visualwebarena", "test_raw.json", "visualwebarena")):  # fmt: skip
        index_originals(json.loads(importlib.resources.files(package).joinpath(file).read_text()), prefix, found)
    return found


def map_tasks(path: str | Path, originals: dict[tuple, list[str]] | None = None) -> dict[str, dict[str, Any]]:
    """Our task key -> {"browsergym": name or None, "videos": [...], "why": ...} for every task at `path`, matched
    against `originals` (default: the task files of BrowserGym's WebArena and VisualWebArena packages)."""
    originals = _originals() if originals is None else originals
    root = Path(path)
    mapped: dict[str, dict[str, Any]] = {}
    for file in config_files(root):
        configs = json.loads(file.read_text(encoding="utf-8"))
        for config in configs if isinstance(configs, list) else [configs]:
            key = f"{source_name(root, file)}:{config.get('task_id')}"
            videos = config.get("video") or []
            entry: dict[str, Any] = {"browsergym": None, "videos": [videos] if isinstance(videos, str) else videos}
            given = next((config[field] for field in ID_FIELDS if config.get(field) is not None), None)
            if given is not None:
                visual = VWA_SITES & set(config.get("sites") or []) or config.get("image")
                prefix = "visualwebarena" if visual else "webarena"
                entry.update(browsergym=f"{prefix}.{given}", why="the config names its original task")
            else:
                names = originals.get(_signature(config), [])
                if len(names) == 1:
                    entry.update(browsergym=names[0], why="same intent, sites and start URL")
                else:
                    how_many = "several" if names else "no"
                    entry["why"] = f"{how_many} original tasks with this intent, sites and start URL"
                    if names:
                        entry["candidates"] = names
            mapped[key] = entry
    return mapped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("configs", help="a VideoWA config file or folder (the raw configs, placeholders unfilled)")
    args = parser.parse_args(argv)
    mapped = map_tasks(args.configs)
    found = sum(1 for entry in mapped.values() if entry["browsergym"])
    print(f"{found} of {len(mapped)} tasks map to a BrowserGym task", file=sys.stderr)
    print(json.dumps(mapped))
    return 0


if __name__ == "__main__":
    sys.exit(main())
