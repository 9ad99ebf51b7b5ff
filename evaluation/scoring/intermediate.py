"""The intermediate score of a factual-retention task: its answer to `intermediate_intent`.

VideoWA asks such tasks a question about the video (`intermediate_intent`) and checks the
answer with string matching against the `intermediate_eval` block.
"""

from __future__ import annotations

from evaluation.scoring.errors import ConfigError
from evaluation.scoring.judge import Judge
from evaluation.scoring.string_match import Check, string_match_details


def intermediate_details(task_config: dict, answer: str, judge: Judge | None = None) -> list[Check]:
    block = task_config.get("intermediate_eval")
    if not isinstance(block, dict):
        raise ConfigError("task has no intermediate_eval block, so it has no intermediate score")
    question = task_config.get("intermediate_intent")
    if not isinstance(question, str):
        raise ConfigError("task has an intermediate_eval block but no intermediate_intent question")
    # The judge is shown the intermediate question in both fuzzy forms. (The VideoWA reference
    # showed it the task's final `intent` when grading a list of references, which asks the
    # judge about a question the answer was not given to.)
    return string_match_details(
        block.get("reference_answers"),
        answer,
        intent=question,
        string_note=block.get("string_note"),
        judge=judge,
    )


def intermediate_score(task_config: dict, answer: str, judge: Judge | None = None) -> float:
    """1.0 when the answer to `intermediate_intent` passes every check of `intermediate_eval`."""
    return float(all(check.passed for check in intermediate_details(task_config, answer, judge)))
