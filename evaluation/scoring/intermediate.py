"""The intermediate score of a factual-retention task: its answer to `intermediate_intent`.

VideoWA asks such tasks a question about the video (`intermediate_intent`) and checks the
answer with string matching against the `intermediate_eval` block.
"""

from __future__ import annotations

from typing import Any

from evaluation.scoring.errors import ConfigError
from evaluation.scoring.judge import Judge
from evaluation.scoring.string_match import Check, string_match_details
from foundation.records.eval_block import EvalBlock, UnknownEvalKeys


def intermediate_checks(question: Any, block: EvalBlock | None, answer: str, judge: Judge | None = None) -> list[Check]:
    """The checks of the answer to `question` against the task's `intermediate_eval` block (typed)."""
    if block is None:
        raise ConfigError("task has no intermediate_eval block, so it has no intermediate score")
    if not isinstance(question, str):
        raise ConfigError("task has an intermediate_eval block but no intermediate_intent question")
    # The judge is shown the intermediate question in both fuzzy forms. (The VideoWA reference
    # showed it the task's final `intent` when grading a list of references, which asks the
    # judge about a question the answer was not given to.)
    return string_match_details(
        block.reference_answers,
        answer,
        intent=question,
        string_note=block.string_note,
        judge=judge,
    )


def intermediate_details(task_config: dict, answer: str, judge: Judge | None = None) -> list[Check]:
    """`intermediate_checks` of a raw task config."""
    try:
        block = EvalBlock.of(task_config.get("intermediate_eval"))
    except UnknownEvalKeys as exc:
        raise ConfigError(f"intermediate_eval has {exc}") from None
    return intermediate_checks(task_config.get("intermediate_intent"), block, answer, judge)


def intermediate_score(task_config: dict, answer: str, judge: Judge | None = None) -> float:
    """1.0 when the answer to `intermediate_intent` passes every check of `intermediate_eval`."""
    return float(all(check.passed for check in intermediate_details(task_config, answer, judge)))
