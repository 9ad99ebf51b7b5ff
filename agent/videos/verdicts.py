"""Which demonstrations may be shown, by what `process-videos --verify` found (`selection.demonstrations`).

- `all` (the method): every trajectory, verified or not;
- `verified_first`: verified trajectories before partly verified, unverified and rejected ones;
- `verified_only`: only trajectories carried out in full on the live site.
An index never verified has no verified trajectory: `verified_only` then shows nothing,
and a warning says so once.
"""

from __future__ import annotations

import logging
from typing import Callable, TypeVar

from foundation.errors import UserError
from processing.index import VERDICT_KEY
from foundation.records.trajectory import Trajectory

log = logging.getLogger(__name__)
MODES = ("all", "verified_first", "verified_only")
_RANK = {"verified": 0, "partly": 1, None: 2, "not": 3}  # unverified between partly and rejected
_warned: set[str] = set()
T = TypeVar("T")


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise UserError(f"selection.demonstrations is {mode!r}; use one of {', '.join(MODES)}")
    return mode


def verdict_of(trajectory: Trajectory) -> str | None:
    found = trajectory.checks.get(VERDICT_KEY)
    return found.get("verdict") if found else None


def verdict_label(trajectory: Trajectory) -> str:
    """"verified (3/3)", "partly (1/3): why", "not (0/2): why" or "unverified"."""
    found = trajectory.checks.get(VERDICT_KEY)
    if not found:
        return "unverified"
    label = f"{found['verdict']} ({found['carried_out']}/{found['steps']})"
    return label if found["verdict"] == "verified" else f"{label}: {found['reason']}"


def _itself(item: T) -> Trajectory:
    return item  # type: ignore[return-value]


def choose(items: list[T], mode: str, trajectory_of: Callable[[T], Trajectory] = _itself) -> list[T]:
    """`items` kept and ordered as `mode` says (stable: the video's order otherwise)."""
    if mode == "all":
        return items
    if mode == "verified_only":
        kept = [item for item in items if verdict_of(trajectory_of(item)) == "verified"]
        if items and not kept and not any(verdict_of(trajectory_of(i)) for i in items):
            video = trajectory_of(items[0]).video_id
            if video not in _warned:
                _warned.add(video)
                log.warning("selection.demonstrations=verified_only but video %s has no verdicts: run "
                            "`process-videos ... --verify` on its index, so it shows nothing", video)  # fmt: skip
        return kept
    return sorted(items, key=lambda item: _RANK.get(verdict_of(trajectory_of(item)), 2))
