"""Reading and writing one JSON file, safely.

    write_json(path, data)   # written to a temporary name and renamed: a killed writer never leaves half a file
    read_json(path)          # the JSON, or None when the file is missing or unreadable

Run folders use them for every file (evaluation/running/run_records.py), task records among them
(foundation/records/task_record.py).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def write_json(path: Path, data: Any) -> None:
    """`data` as indented UTF-8 JSON (anything else as its str), renamed into place once complete."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    partial.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str), encoding="utf-8")
    partial.replace(path)


def read_json(path: Path) -> Any:
    """The file's JSON; None when it is missing or not JSON (a reader then treats it as absent)."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


__all__ = ["read_json", "write_json"]
