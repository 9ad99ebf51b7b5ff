"""The selection benchmark's figures: what `--policy selection-probe` found at every step, summed per variant.

Of each step where some trajectory of the task's videos does the reference's next step from its first step (a
"scored" step; the others are counted apart as uncovered):
- hit@1: the chosen trajectory, from the step it enters at, does the next reference step (by names, the coverage
  engine's rule); on page: its planned action does that step on the live page (grounding and values too);
- carried: the share of the remaining reference steps the chosen trajectory carries in a row, beside the best
  share any trajectory carries from its first step (what a perfect choice would carry);
- recall@k: a right trajectory is among the stage-1 candidates (`selection.candidates_per_video` per video), and
  among the method's pre-cut list (`selection.stage1_pool_per_video` per video; right there from any of its steps,
  since the model is shown whole trajectories), and at shorter lists (`PRECUT_DEPTHS`) by the same ranking
  (`selection.precut_ranking`), to choose the pre-cut's length;
- MRR: the mean of 1 / the place of the first right trajectory in the stage-1 ranking (0 when none is ranked).
Where the reference stops (nothing is left to demonstrate), the right choice is none: "stops kept" counts the steps
where the variant chose nothing there (choosing on, it would carry the episode past the task's end).
Groups: every scored step; the first instance of each intent template and the other instances apart (the first
instances are the tuning set); fresh choices (selected at that step) and continuations; per template; per video.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from agent.replay.probe import ProbeStep
from evaluation.running.run_records import TASKS_DIR
from foundation.text_table import text_columns

PRECUT_DEPTHS = (5, 10, 20)  # pre-cut list lengths per video whose recall is reported beside the set one

FIRST, LATER = "first instances", "other instances"


@dataclass(frozen=True)
class TaskGroup:
    template: str  # "source:template id"
    video: str
    first: bool  # the first instance of its template (the lowest task id)


@dataclass
class ProbedStep:
    task_key: str
    group: TaskGroup
    truth: dict[str, Any]
    probe: ProbeStep


@dataclass
class Figures:
    steps: int = 0  # scored steps
    hits: int = 0
    on_page: int = 0
    carried: float = 0.0  # sum of shares
    best: float = 0.0
    candidates: int = 0
    precut: int = 0
    precut_at: dict[int, int] = field(default_factory=lambda: dict.fromkeys(PRECUT_DEPTHS, 0))  # k -> steps
    reciprocal: float = 0.0
    uncovered: int = 0  # steps no trajectory does from its first step
    uncovered_chosen: int = 0  # of those, steps where the variant chose something anyway
    stops: int = 0  # steps where the reference stops (nothing left to demonstrate)
    stopped: int = 0  # of those, steps where the variant chose nothing (it stops too)
    tasks: set[str] = field(default_factory=set)

    def add(self, step: ProbedStep) -> None:
        truth, probe = step.truth, step.probe
        self.tasks.add(step.task_key)
        if not truth.get("remaining"):
            self.stops += 1
            self.stopped += probe.chosen is None
            return
        if not truth.get("right"):
            self.uncovered += 1
            self.uncovered_chosen += probe.chosen is not None
            return
        remaining = max(int(truth.get("remaining") or 1), 1)
        self.steps += 1
        self.hits += probe.hit
        self.on_page += probe.on_page
        self.carried += min(probe.carries, remaining) / remaining
        self.best += int(truth.get("best") or 0) / remaining
        self.candidates += probe.candidates_right
        self.precut += probe.precut_right
        for depth in PRECUT_DEPTHS:
            self.precut_at[depth] += probe.precut_rank is not None and probe.precut_rank <= depth
        self.reciprocal += 1 / probe.first_right_rank if probe.first_right_rank else 0.0

    def share(self, value: float) -> float | None:
        return value / self.steps if self.steps else None

    def row(self, label: str) -> list[str]:
        def pct(value: float) -> str:
            share = self.share(value)
            return "-" if share is None else f"{share:.1%}"

        mrr = self.share(self.reciprocal)
        return [
            label, str(len(self.tasks)), str(self.steps), pct(self.hits), pct(self.on_page),
            f"{pct(self.carried)} / {pct(self.best)}", pct(self.candidates), pct(self.precut),
            " / ".join(pct(self.precut_at[depth]) for depth in PRECUT_DEPTHS), "-" if mrr is None else f"{mrr:.3f}",
            f"{self.uncovered} ({self.uncovered_chosen} chosen)",
            f"{self.stopped}/{self.stops}",
        ]  # fmt: skip


HEADER = ["", "tasks", "steps", "hit@1", "on page", "carried / best", "recall@k", "pre-cut recall",
          "pre-cut " + " / ".join(f"@{depth}" for depth in PRECUT_DEPTHS), "MRR",
          "uncovered (chosen)", "stops kept"]  # fmt: skip


def task_groups(tasks: Iterable[Any]) -> dict[str, TaskGroup]:
    """Each skill task's template, video and whether it is its template's first instance (lowest id)."""
    tasks = [task for task in tasks if task.kind == "skill"]
    first: dict[str, Any] = {}
    for task in tasks:
        template = f"{task.source}:{task.config.get('intent_template_id', task.task_id)}"
        if template not in first or _id_order(task.task_id) < _id_order(first[template].task_id):
            first[template] = task
    groups = {}
    for task in tasks:
        template = f"{task.source}:{task.config.get('intent_template_id', task.task_id)}"
        groups[task.key] = TaskGroup(template, (task.videos or [""])[0], first[template].key == task.key)
    return groups


def read_probes(run_dir: Path, groups: dict[str, TaskGroup]) -> dict[str, list[ProbedStep]]:
    """Every probed step of a run folder, per variant, in task and step order."""
    records = []
    tasks_dir = Path(run_dir) / TASKS_DIR
    for folder in sorted(p for p in tasks_dir.iterdir() if p.is_dir()) if tasks_dir.is_dir() else []:
        record_file, episode_file = folder / "record.json", folder / "episode.json"
        if not (record_file.is_file() and episode_file.is_file()):
            continue
        key = json.loads(record_file.read_text(encoding="utf-8")).get("task_key", "")
        for step in json.loads(episode_file.read_text(encoding="utf-8")).get("steps", []):
            records.append((key, (step.get("extra") or {}).get("probe") or {}))
    return probed_steps(records, groups)


def probed_steps(records: Iterable[tuple[str, dict[str, Any]]], groups: dict[str, TaskGroup]) -> dict[str, list[ProbedStep]]:
    """(task key, a step's `probe` record) pairs, live or replayed on captured pages, as each variant's steps."""
    found: dict[str, list[ProbedStep]] = defaultdict(list)
    for key, probe in records:
        group = groups.get(key)
        if group is None or not probe.get("truth"):
            continue
        for variant, found_here in (probe.get("variants") or {}).items():
            found[variant].append(ProbedStep(key, group, probe["truth"], ProbeStep(**found_here)))
    return dict(found)


def figures(steps: Iterable[ProbedStep]) -> Figures:
    summed = Figures()
    for step in steps:
        summed.add(step)
    return summed


def variant_table(probes: dict[str, list[ProbedStep]]) -> str:
    """One row per variant: all scored steps, then the first instances and the others apart."""
    rows = [["variant / tasks", *HEADER[1:]]]
    for variant, steps in probes.items():
        rows.append(figures(steps).row(f"{variant}: all"))
        rows.append(figures(s for s in steps if s.group.first).row(f"{variant}: {FIRST} (tuning)"))
        rows.append(figures(s for s in steps if not s.group.first).row(f"{variant}: {LATER}"))
    return text_columns(rows)


def detail_table(steps: list[ProbedStep], by: str) -> str:
    """One variant's figures per template or per video (`by`), and per kind of decision."""
    keyed: dict[str, list[ProbedStep]] = defaultdict(list)
    for step in steps:
        if by == "decision":
            label = "fresh choice" if step.probe.decision != "continued" else "continuation"
        else:
            label = getattr(step.group, by)
        keyed[label].append(step)
    rows = [[by, *HEADER[1:]]] + [figures(keyed[label]).row(label) for label in sorted(keyed)]
    return text_columns(rows)


def summary(probes: dict[str, list[ProbedStep]]) -> dict[str, dict[str, Any]]:
    """The headline figures per variant and group, for JSON and docs."""
    out: dict[str, dict[str, Any]] = {}
    for variant, steps in probes.items():
        out[variant] = {}
        for label, chosen in (("all", steps), (FIRST, [s for s in steps if s.group.first]),
                              (LATER, [s for s in steps if not s.group.first])):  # fmt: skip
            f = figures(chosen)
            out[variant][label] = {
                "tasks": len(f.tasks), "steps": f.steps, "hit@1": f.share(f.hits), "on_page": f.share(f.on_page),
                "carried": f.share(f.carried), "best": f.share(f.best), "recall@k": f.share(f.candidates),
                "precut_recall": f.share(f.precut),
                **{f"precut_recall@{depth}": f.share(f.precut_at[depth]) for depth in PRECUT_DEPTHS},
                "mrr": f.share(f.reciprocal), "uncovered": f.uncovered,
                "stops": f.stops, "stops_kept": f.stopped,
            }  # fmt: skip
    return out


def _id_order(task_id: Any) -> tuple[int, Any]:
    try:
        return (0, int(task_id))
    except (TypeError, ValueError):
        return (1, str(task_id))
