"""What AgentOccam's own task file (`evaluation.agentoccam_task_file`) changes in scoring under `evaluation.rules:
agentoccam`: the corrected eval block of each task, and the url_match "or" alternatives.

AgentOccam scored its runs against its own copy of WebArena's configs (amazon-science/AgentOccam c078ba6,
config_files/test.raw.json), which carries its fixes of 80 tasks (`EVELUATOR_RECTIFICATIONS`, AgentOccam/utils.py:45);
its tally counts them by default (`evaluator="after"`, AgentOccam/plot.py:58, :75, :117, :124). VideoWA's copy of
WebArena renumbers the tasks, so a task is matched to AgentOccam's by its intent and start page; the file is read
from the user's checkout at run time and nothing of it ships here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from foundation.errors import UserError
from foundation.records.eval_block import EvalBlock

SETTING = "evaluation.agentoccam_task_file"
MatchKey = tuple[str, str]


@dataclass(frozen=True)
class CorrectedBlock:
    """AgentOccam's eval block of one task, and the task's number in its file."""

    task_id: Any
    block: EvalBlock

    @property
    def note(self) -> str:
        return f"scored against AgentOccam's eval block (its task {self.task_id}, {SETTING})"


@dataclass(frozen=True)
class AgentOccamTaskFile:
    """What the file gives: reference_url -> its "or" alternatives, and (intent, start page) -> its eval block."""

    url_alternatives: dict[str, list[str]]
    blocks: dict[MatchKey, CorrectedBlock]


def match_key(config: Any) -> MatchKey | None:
    """(intent, start_url) of a config (placeholders filled); None when either is not a string."""
    if not isinstance(config, dict):
        return None
    intent, start = config.get("intent"), config.get("start_url")
    return (intent, start) if isinstance(intent, str) and isinstance(start, str) else None


def read_task_file(path: Path, settings: Any) -> AgentOccamTaskFile:
    """Every task of AgentOccam's file (a JSON list or a folder of configs), placeholders filled as ours are, so its
    URLs and start pages compare with our configs'. UserError, one line, for a missing or unreadable file."""
    from tasks.loading import load_task_set

    if not path.exists():
        raise UserError(
            f"{SETTING} names {path}, which does not exist; point it at AgentOccam's config_files/test.raw.json"
        )
    task_set = load_task_set(path, settings=settings)
    if task_set.file_problems:
        raise UserError(f"{SETTING}: {task_set.file_problems[0]}")
    alternatives: dict[str, list[str]] = {}
    blocks: dict[MatchKey, CorrectedBlock] = {}
    for task in task_set.tasks:
        block = task.eval_block
        key = match_key(task.config)
        if block is not None and key is not None:
            if key in blocks and blocks[key].block.to_dict() != block.to_dict():
                raise UserError(f"{SETTING}: {path} gives two different eval blocks for the task {key[0]!r}")
            blocks[key] = CorrectedBlock(task.task_id, block)
        if block is None or not isinstance(block.or_alternatives, list):
            continue
        reference = block.reference_url
        listed = [item.get("reference_url") for item in block.or_alternatives if isinstance(item, dict)]
        if not isinstance(reference, str) or not all(isinstance(url, str) for url in listed):
            raise UserError(f"{SETTING}: task {task.task_id} of {path} has an 'or' list without reference_url strings")
        if reference in alternatives and alternatives[reference] != listed:
            raise UserError(f"{SETTING}: {path} gives two different 'or' lists for {reference}")
        alternatives[reference] = listed
    return AgentOccamTaskFile(alternatives, blocks)


def corrected_block(
    blocks: dict[MatchKey, CorrectedBlock], config: Any, own: EvalBlock | None
) -> CorrectedBlock | None:
    """AgentOccam's block for this task when it differs from the task's own; None when it matches none or is the
    same (nothing to say)."""
    key = match_key(config)
    found = blocks.get(key) if key is not None else None
    if found is None or (own is not None and own.to_dict() == found.block.to_dict()):
        return None
    return found


def with_block(scored: Any, found: CorrectedBlock | None) -> Any:
    """The ScoredTask (evaluation/scoring/scorer.py) with AgentOccam's block in place of its own `eval` block."""
    if found is None:
        return scored
    unreadable = {key: why for key, why in scored.unreadable.items() if key != "eval"}
    return replace(scored, block=found.block, unreadable=unreadable)


__all__ = ["AgentOccamTaskFile", "CorrectedBlock", "corrected_block", "match_key", "read_task_file", "with_block"]
