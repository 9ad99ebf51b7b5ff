"""What a `process-videos` run did: per video, per stage, and in total; printed and saved as JSON."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from model_access.accounting import UsageLedger

# Stages in the order they run; "index" is embedding the kept objectives and storing them.
STAGES = ("changed_frames", "labeling", "merging", "action_filtering", "trajectories", "trajectory_filtering", "index")


@dataclass
class StageRun:
    reused: bool  # the stored output was still valid: nothing was computed
    seconds: float = 0.0
    calls: int = 0
    cached: int = 0
    retried: int = 0
    unparseable: int = 0
    note: str = ""  # what came out, in a few words


@dataclass
class VideoOutcome:
    video_id: str
    ok: bool
    reason: str = ""  # why it failed
    keyframes: int = 0
    labeled_actions: int = 0  # after merging
    actions: int = 0  # after action filtering
    spans: int = 0  # subsequences asked for an objective
    named: int = 0  # of which got one
    kept: int = 0  # trajectories that passed filtering
    dropped: int = 0
    problems: list[str] = field(default_factory=list)  # skipped replies
    transcript: str = ""  # "subtitles", "asr", or "none: <why>"
    stages: dict[str, StageRun] = field(default_factory=dict)


@dataclass
class RunSummary:
    outcomes: list[VideoOutcome]
    source_problems: list[tuple[str, str]]  # (name, reason) of videos that never reached processing
    ledger: UsageLedger
    seconds: float
    index_dir: str = ""
    index_trajectories: int = 0
    index_videos: int = 0

    @property
    def processed(self) -> list[VideoOutcome]:
        return [o for o in self.outcomes if o.ok]

    @property
    def failed(self) -> list[tuple[str, str]]:
        return list(self.source_problems) + [(o.video_id, o.reason) for o in self.outcomes if not o.ok]

    def total(self, name: str) -> int:
        return sum(getattr(o, name) for o in self.processed)

    def stage_seconds(self) -> dict[str, float]:
        return {stage: round(sum(o.stages[stage].seconds for o in self.outcomes if stage in o.stages), 3)
                for stage in STAGES}  # fmt: skip

    def unparseable(self) -> dict[str, int]:
        counts = {
            stage: sum(o.stages[stage].unparseable for o in self.outcomes if stage in o.stages) for stage in STAGES
        }
        return {stage: n for stage, n in counts.items() if n}

    def to_dict(self) -> dict[str, Any]:
        return {
            "videos": {"processed": len(self.processed), "failed": [{"video": n, "reason": r} for n, r in self.failed]},
            "actions": self.total("actions"),
            "labeled_actions": self.total("labeled_actions"),
            "trajectories": {
                "spans_asked": self.total("spans"),
                "named": self.total("named"),
                "kept": self.total("kept"),
                "dropped": self.total("dropped"),
            },
            "unparseable_replies_skipped": self.unparseable(),
            "seconds_per_stage": self.stage_seconds(),
            "seconds": round(self.seconds, 3),
            "index": {"dir": self.index_dir, "trajectories": self.index_trajectories, "videos": self.index_videos},
            "model_usage": self.ledger.to_dict(),
            "per_video": [asdict(o) for o in self.outcomes],
        }

    def format(self) -> str:
        lines = [f"processed {len(self.processed)} video(s), {len(self.failed)} failed, in {self.seconds:.1f} s"]
        for name, reason in self.failed:
            lines.append(f"  failed: {name}: {reason}")
        lines.append(
            f"actions: {self.total('actions')} kept of {self.total('labeled_actions')} labeled (after merging)"
        )
        lines.append(
            f"trajectories: {self.total('kept')} kept, {self.total('dropped')} dropped by filtering; "
            f"{self.total('named')} of {self.total('spans')} subsequences named an objective"
        )
        for outcome in self.outcomes:
            if outcome.transcript.startswith("none"):
                lines.append(f"  no transcript: {outcome.video_id}: {outcome.transcript[len('none: '):]}")
        skipped = self.unparseable()
        if skipped:
            lines.append("unparseable replies skipped: " + ", ".join(f"{s} {n}" for s, n in skipped.items()))
        seconds = self.stage_seconds()
        lines.append("time per stage: " + ", ".join(f"{s} {seconds[s]:.1f}s" for s in STAGES))
        lines.append(self.ledger.summary_table())
        if self.index_dir:
            lines.append(
                f"index: {self.index_trajectories} trajectories from {self.index_videos} video(s) in {self.index_dir}"
            )
        return "\n".join(lines)
