"""Which evaluator's rules score a run (`evaluation.rules`), and what the `agentoccam` set reads from the user.

- `videowa` (default): VisualWebArena's / VideoWA's evaluators, ../shared/EVALUATORS.md
  (evaluation/scoring/evaluate.py and the modules it calls).
- `agentoccam`: AgentOccam's own evaluator (amazon-science/AgentOccam c078ba6,
  evaluation_harness/evaluators.py; evaluation/scoring/agentoccam_scoring.py), which `--harness
  agentoccam` selects so that a parity run is scored as AgentOccam scored its published
  numbers. Its task file carries its corrected eval blocks (80 tasks fixed) and "or"
  alternatives for some url_match tasks (WebArena's 261-264 and 351-355); it is read at run
  time from the user's copy (`evaluation.agentoccam_task_file`; agentoccam_tasks.py): each task
  is scored against the block of AgentOccam's task with the same intent and start page (VideoWA's
  copy of WebArena renumbers them); nothing of it ships here. Its tally counts a task without a result as 0
  (AgentOccam/plot.py:134-140; an evaluator that raises scores 0, AgentOccam/env.py:124-129):
  `counted_status` gives that.

Every record says which set scored it (`rules`); the set is part of a run's identity.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from evaluation.scoring.agentoccam_tasks import SETTING, CorrectedBlock, MatchKey, read_task_file
from foundation.errors import UserError
from foundation.records.eval_block import EvalBlock
from foundation.records.task_record import TaskRecord

VIDEOWA = "videowa"
AGENTOCCAM = "agentoccam"
RULE_SETS = {
    VIDEOWA: "VisualWebArena's / VideoWA's evaluators (../shared/EVALUATORS.md)",
    AGENTOCCAM: "AgentOccam's evaluator (evaluation_harness/evaluators.py at c078ba6)",
}
NO_TASK_FILE = "none"  # evaluation.agentoccam_task_file: score the tasks' own blocks, without AgentOccam's file


@dataclass(frozen=True)
class ScoringRules:
    name: str = VIDEOWA
    # reference_url -> AgentOccam's alternative reference URLs for it (agentoccam only), and where they came from:
    # the file read, "none" when the user chose none, "" when no file was needed (no url_match task).
    url_alternatives: dict[str, list[str]] = field(default_factory=dict)
    alternatives_from: str = ""
    # (intent, start page) -> AgentOccam's eval block for that task (agentoccam only; agentoccam_tasks.py).
    corrected_blocks: dict[MatchKey, CorrectedBlock] = field(default_factory=dict)

    @property
    def agentoccam(self) -> bool:
        return self.name == AGENTOCCAM


def rule_set_name(name: str) -> str:
    """`evaluation.rules` checked; UserError naming the known sets otherwise."""
    if name not in RULE_SETS:
        raise UserError(f"evaluation.rules is {name!r}; use one of {', '.join(RULE_SETS)}")
    return name


def scoring_rules(settings: Any, tasks: Iterable[Any]) -> ScoringRules:
    """The rule set the settings name, with AgentOccam's task file read when there are tasks to score under it.

    UserError, one line, when `evaluation.agentoccam_task_file` is needed and unset, missing or unreadable."""
    name = rule_set_name(settings.evaluation.rules)
    if name != AGENTOCCAM:
        return ScoringRules(name)
    source = settings.evaluation.agentoccam_task_file.strip()
    tasks = list(tasks)
    if source == NO_TASK_FILE:
        return ScoringRules(name, {}, NO_TASK_FILE)
    if not tasks and not source:
        return ScoringRules(name)
    if not source:
        raise UserError(
            f"evaluation.rules is agentoccam, and AgentOccam scores the {len(tasks)} task(s) against its own task file "
            f"(its corrected eval blocks, its url_match 'or' alternatives): --set {SETTING}=<your AgentOccam "
            f"checkout>/config_files/test.raw.json (or ={NO_TASK_FILE} to score the tasks' own blocks)"
        )
    found = read_task_file(Path(source), settings)
    return ScoringRules(name, found.url_alternatives, source, found.blocks)


def read_url_alternatives(path: Path, settings: Any) -> dict[str, list[str]]:
    """reference_url -> the reference URLs of its "or" list, from every task of AgentOccam's task file that has one."""
    return read_task_file(path, settings).url_alternatives


def task_url_alternatives(rules: ScoringRules, block: EvalBlock | None) -> list[str] | None:
    """The alternative reference URLs of one task: its own eval block's "or" list (AgentOccam reads the config it
    scores, evaluators.py:241-242), then those of AgentOccam's task file for its reference_url. None when the file
    was needed and not read (a caller that skipped `scoring_rules`)."""
    listed = block.or_alternatives if block is not None else None
    own = [item.get("reference_url") for item in listed or [] if isinstance(item, dict)]
    if not rules.alternatives_from:
        return None
    from_file = rules.url_alternatives.get(block.reference_url if block is not None else None, [])
    return own + [url for url in from_file if url not in own]


# ---- the tally ----------------------------------------------------------------------------------


def record_rules(record: TaskRecord) -> str:
    """The set that scored a record; records made before rule sets existed were scored by videowa's."""
    return record.rules or VIDEOWA


def counted_status(record: TaskRecord) -> str:
    """A record's status as its rule set counts it: under agentoccam every task that did not pass is a failure
    (no score, a config its evaluator raises on, an episode that crashed); under videowa its own status."""
    status = record.status
    if record_rules(record) == AGENTOCCAM and status != "passed":
        return "failed"
    return status


def counted_as_failed(records: list[TaskRecord]) -> list[str]:
    """"key (recorded status)" of each task its rule set counts as failed although it was not scored."""
    return [f"{record.task_key} ({record.status})" for record in records if counted_status(record) != record.status]


__all__ = [
    "AGENTOCCAM",
    "NO_TASK_FILE",
    "RULE_SETS",
    "VIDEOWA",
    "ScoringRules",
    "counted_as_failed",
    "counted_status",
    "read_url_alternatives",
    "record_rules",
    "rule_set_name",
    "scoring_rules",
    "task_url_alternatives",
]
