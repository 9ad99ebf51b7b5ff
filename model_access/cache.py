"""Disk cache of finished model calls, shared by every stage and every process.

One small JSON file per request, named by the sha256 of the request's canonical
JSON and sharded by its first two hex digits (`<root>/ab/abcd....json`). A write
goes to a temporary file in the same folder and is renamed over the final name,
which POSIX makes atomic: readers see a whole entry or none, and concurrent
writers of the same key (threads or processes) just replace each other's
identical answer. No lock is needed, and an entry is easy to open and read.

An unreadable entry (a disk that filled up, a hand edit) counts as a miss and is
overwritten by the next answer.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

# Bump when the meaning of a key or an entry changes, so old entries stop matching.
KEY_VERSION = 1


def request_key(request: dict[str, Any]) -> str:
    """sha256 of the canonical JSON of a request (sorted keys, no spaces, versioned)."""
    canonical = json.dumps({"v": KEY_VERSION, **request}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class DiskCache:
    def __init__(self, root: Path, durable: bool = True) -> None:
        self.root = Path(root)
        # fsync costs about a millisecond per entry: worth it for a paid call, not for a recomputable vector.
        self.durable = durable

    def path_for(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        path = self.path_for(key)
        try:
            with path.open("r", encoding="utf-8") as handle:
                entry = json.load(handle)
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            log.warning("ignoring unreadable cache entry %s (%s); it will be rewritten", path, exc)
            return None
        return entry if isinstance(entry, dict) else None

    def put(self, key: str, entry: dict[str, Any]) -> None:
        path = self.path_for(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=".tmp-", delete=False)
        try:
            with handle:
                json.dump(entry, handle, ensure_ascii=False)
                if self.durable:
                    # A rename can reach the disk before the data; fsync first so a crash never leaves an empty entry.
                    handle.flush()
                    os.fsync(handle.fileno())
            os.replace(handle.name, path)
        except BaseException:
            Path(handle.name).unlink(missing_ok=True)
            raise

    def __contains__(self, key: str) -> bool:
        return self.path_for(key).is_file()

    def __len__(self) -> int:
        return sum(1 for _ in self.root.glob("??/*.json")) if self.root.is_dir() else 0
