"""The ladder's oracles and the loss account read on the same episodes: which stage each blames.

For every failed task of a run folder: the stage the loss account wrote (`lost_at`), the
ladder rung that stage maps to (`RUNG_OF_STAGE`), and the rung the oracles' own view names
(agent/oracles/blame.py), both from the task's records, its reference solution and the run's index.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from agent.oracles.blame import first_rung
from evaluation.reports.loss_account import RUNG_OF_STAGE
from evaluation.reports.loss_run import EPISODE_FILE, account_sources
from evaluation.running.episode_acts import episode_acts
from evaluation.running.run_records import TASKS_DIR
from evaluation.running.task_record import iter_records
from foundation.json_files import read_json
from tasks.reference.steps import reference_steps

UNDECIDED = ("unknown", "other", "wrong_value", "evaluator")  # stages no oracle replaces, or the records cannot tell


@dataclass(frozen=True)
class Blame:
    task_key: str
    stage: str  # the loss account's
    account_rung: str | None  # the rung that stage maps to
    oracle_rung: str | None  # the oracles' own view

    @property
    def agrees(self) -> bool:
        if self.account_rung is not None:
            return self.account_rung == self.oracle_rung
        return self.oracle_rung is None or self.stage in UNDECIDED


def blame_pairs(run_dir: Path) -> list[Blame]:
    sources = account_sources(run_dir)
    tutorials = sources.tutorials
    assert sources.solutions is not None and tutorials is not None, sources.to_dict()
    pairs = []
    for record in iter_records(run_dir):
        if record.status != "failed" or not isinstance(record.lost_at, dict):
            continue
        solution = sources.solutions.find(str(record.source), record.task_id)
        assert solution is not None, record.task_key
        episode = read_json(Path(run_dir) / TASKS_DIR / str(record.folder) / EPISODE_FILE) or {}
        videos = ((record.policy_info or {}).get("videos") or {}).get("processed") or list(tutorials.videos)
        rung = first_rung(episode_acts(episode), reference_steps(solution.actions), str(record.intent or ""),
                          tutorials.trajectories(videos), tutorials.truths(videos))  # fmt: skip
        stage = record.lost_at["stage"]
        pairs.append(Blame(record.task_key, stage, RUNG_OF_STAGE.get(stage), rung))
    return pairs
