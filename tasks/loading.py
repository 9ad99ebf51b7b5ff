"""Load WebArena / VisualWebArena / VideoWA task configs into `Task` objects.

A config file is a JSON list of task dicts; a folder is every `*.json` below it.
Loading never stops at a defect: a task with a broken config still loads, with
its defects listed in `problems`, and a file that cannot be read at all is
reported in `TaskSet.file_problems` while the other files load. An eval block with a key
no WebArena-family config has (foundation/records/eval_block.py) is such a defect: a typo
there would be ignored by every evaluator, so the task's problem names the key and the
known keys, and the task is scored as a config error.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from foundation.errors import UserError
from foundation.records.eval_block import EvalBlock, UnknownEvalKeys
from settings import Settings
from tasks.checks import task_notes, task_problems
from tasks.placeholders import PlaceholderValues, fill_placeholders, unfilled_message

logger = logging.getLogger(__name__)

# Where the bundled sandbox tasks live; `videodemo tasks list` without a path lists them.
SANDBOX_CONFIGS_DIR = Path(__file__).resolve().parent / "sandbox" / "configs"

START_URL_SEPARATOR = " |AND| "
# Difficulty fields in the order they are preferred: VWA and VideoWA factual tasks carry
# `overall_difficulty`; other sets use a plain `difficulty`.
DIFFICULTY_KEYS = ("overall_difficulty", "difficulty", "reasoning_difficulty", "visual_difficulty")


@dataclass
class Task:
    task_id: int | str
    # The config file the task came from: its path below the loaded folder, without `.json`
    # ("videowa/test_shopping"), or its stem when one file was loaded. The folder is part of it
    # because VideoWA's and VWA's config trees hold files of the same names.
    source: str
    sites: list[str]
    intent: str
    start_url: str  # placeholders filled; several URLs joined by " |AND| "
    start_urls: list[str]  # start_url split, one per tab
    videos: list[str]
    video: str | None  # first of `videos`, or None
    kind: str  # "factual" (has an intermediate_intent) or "skill"
    intermediate_intent: str | None
    require_login: bool
    require_reset: bool
    storage_state: str | None
    viewport_size: dict | None
    difficulty: str | None
    eval_types: list[str]
    config: dict  # the raw config, placeholders filled, key order kept
    problems: list[str] = field(default_factory=list)
    # The config's `image` field (URLs, data: URLs or local paths), input images given with the intent.
    images: list[str] = field(default_factory=list)
    # Oddities the reference runs anyway (tasks.checks.task_notes): the task runs, the note is kept with it.
    notes: list[str] = field(default_factory=list)
    # The config's `eval` and `intermediate_eval` blocks, typed (None when absent or not an object).
    eval_block: EvalBlock | None = None
    intermediate_block: EvalBlock | None = None

    @property
    def key(self) -> str:
        return f"{self.source}:{self.task_id}"


@dataclass(frozen=True)
class FileProblem:
    path: Path
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


@dataclass
class TaskSet:
    tasks: list[Task]
    file_problems: list[FileProblem]
    files: list[Path]  # every config file looked at, loaded or not


def config_files(path: Path) -> list[Path]:
    """The config file itself, or every *.json under a folder, sorted (hidden folders such as
    `.auth/`, where WebArena keeps login cookies as JSON, are skipped)."""
    path = Path(path)
    if path.is_dir():
        return sorted(
            p
            for p in path.rglob("*.json")
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(path).parts)
        )
    if path.is_file():
        return [path]
    raise UserError(f"task config path {path} does not exist; pass a JSON config file or a folder of them")


def load_task_set(path: str | Path, *, settings: Settings | None = None) -> TaskSet:
    """Load every task under `path`; file-level failures are collected, not raised."""
    root = Path(path)
    files = config_files(root)
    values = PlaceholderValues(settings)
    tasks: list[Task] = []
    problems: list[FileProblem] = []
    for file in files:
        items, problem = _read_task_list(file)
        if problem is not None:
            logger.warning("skipping task file %s", problem)
            problems.append(problem)
            continue
        tasks += _tasks_from_list(items, source_name(root, file), values)
    return TaskSet(tasks=tasks, file_problems=problems, files=files)


def source_name(root: Path, file: Path) -> str:
    """`root/videowa/test_shopping.json` -> "videowa/test_shopping"; a lone file -> its stem."""
    if root.is_dir():
        return file.relative_to(root).with_suffix("").as_posix()
    return file.stem


def load_tasks(path: str | Path, *, settings: Settings | None = None) -> list[Task]:
    return load_task_set(path, settings=settings).tasks


def _read_task_list(file: Path) -> tuple[list[Any], FileProblem | None]:
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        return [], FileProblem(file, f"not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})")
    except UnicodeDecodeError as exc:
        return [], FileProblem(file, f"not UTF-8 text (byte {exc.start})")
    except OSError as exc:
        return [], FileProblem(file, f"cannot be read ({exc.strerror or exc})")
    if isinstance(data, dict) and ("intent" in data or "task_id" in data):
        return [data], None  # WebArena's generated one-task-per-file configs (config_files/<id>.json)
    if not isinstance(data, list):
        kind = "one JSON object" if isinstance(data, dict) else f"a JSON {_json_type(data)}"
        return [], FileProblem(file, f"holds {kind}, not a list of tasks (wrap a single task in [ ])")
    return data, None


def _tasks_from_list(items: list[Any], source: str, values: PlaceholderValues) -> list[Task]:
    tasks = []
    first_position: dict[int | str, int] = {}
    for position, item in enumerate(items):
        task = task_from_config(item, source, position, values)
        if task.task_id in first_position:
            task.problems.append(f"task_id: duplicate of the task at position {first_position[task.task_id]}")
        else:
            first_position[task.task_id] = position
        tasks.append(task)
    return tasks


def task_from_config(item: Any, source: str, position: int, values: PlaceholderValues) -> Task:
    """One task from one list item; whatever is wrong goes to `problems`."""
    if not isinstance(item, dict):
        return _non_task_item(source, position, f"task: not an object (a JSON {_json_type(item)})")
    filled = fill_placeholders(item, values)
    config: dict[str, Any] = filled.value
    problems: list[str] = []
    task_id = config.get("task_id")
    if task_id is None:
        task_id = _synthetic_id(position)
        problems.append(f"task_id: missing (called {task_id}, its position in the file)")
    elif isinstance(task_id, bool) or not isinstance(task_id, (int, str)):
        task_id = _synthetic_id(position)
        problems.append(f"task_id: must be a number or a string (called {task_id}, its position in the file)")
    eval_block, unknown_eval = _eval_block(config, "eval")
    intermediate_block, unknown_intermediate = _eval_block(config, "intermediate_eval")
    problems += unknown_eval + unknown_intermediate
    problems += task_problems(config, eval_block, intermediate_block)
    problems += [unfilled_message(name) for name in sorted(filled.unfilled)]
    problems += [f"placeholder {token}: names no known site" for token in sorted(filled.unknown)]

    start_url = _string_or_empty(config.get("start_url"))
    intermediate = config.get("intermediate_intent")
    videos = _video_names(config.get("video"))
    return Task(
        task_id=task_id,
        source=source,
        sites=_site_names(config.get("sites")),
        intent=_string_or_empty(config.get("intent")),
        start_url=start_url,
        start_urls=[url.strip() for url in start_url.split(START_URL_SEPARATOR) if url.strip()],
        videos=videos,
        video=videos[0] if videos else None,
        kind="factual" if intermediate is not None else "skill",
        intermediate_intent=intermediate if isinstance(intermediate, str) else None,
        require_login=bool(config.get("require_login", False)),
        require_reset=bool(config.get("require_reset", False)),
        storage_state=config.get("storage_state") if isinstance(config.get("storage_state"), str) else None,
        viewport_size=config.get("viewport_size") if isinstance(config.get("viewport_size"), dict) else None,
        difficulty=_difficulty(config),
        eval_types=[name for name in eval_block.listed_types if isinstance(name, str)] if eval_block else [],
        config=config,
        problems=problems,
        images=_image_sources(config.get("image")),
        notes=task_notes(config, eval_block, intermediate_block),
        eval_block=eval_block,
        intermediate_block=intermediate_block,
    )


def _eval_block(config: dict[str, Any], key: str) -> tuple[EvalBlock | None, list[str]]:
    """The typed block under `key`, and a problem naming every key no WebArena-family config has (a typo such
    as `refrence_url` would otherwise go unread): the task is then a config error and the others still load."""
    value = config.get(key)
    try:
        return EvalBlock.of(value), []
    except UnknownEvalKeys as exc:
        known = {name: item for name, item in value.items() if name not in exc.unknown}
        return EvalBlock.of(known), [f"{key} has {exc}"]


def _non_task_item(source: str, position: int, problem: str) -> Task:
    """Stands in for a list item that is not a task, so the problem shows up beside the others."""
    task_id = _synthetic_id(position)
    return Task(
        task_id=task_id,
        source=source,
        sites=[],
        intent="",
        start_url="",
        start_urls=[],
        videos=[],
        video=None,
        kind="skill",
        intermediate_intent=None,
        require_login=False,
        require_reset=False,
        storage_state=None,
        viewport_size=None,
        difficulty=None,
        eval_types=[],
        config={},
        problems=[problem],
    )


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", list: "array", dict: "object"}.get(type(value), type(value).__name__)


def _site_names(value: Any) -> list[str]:
    return [name for name in value if isinstance(name, str)] if isinstance(value, list) else []


def _synthetic_id(position: int) -> str:
    return f"#{position}"


def _string_or_empty(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _video_names(value: Any) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return []
    return [name.strip() for name in value if isinstance(name, str) and name.strip()]


def _image_sources(value: Any) -> list[str]:
    """VWA's `image`: one URL or path, a list of them, or null."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return []
    return [source.strip() for source in value if isinstance(source, str) and source.strip()]


def _difficulty(config: dict[str, Any]) -> str | None:
    for key in DIFFICULTY_KEYS:
        value = config.get(key)
        if value is not None and value != "":
            return str(value)
    return None

