"""Score one finished episode: a verdict per evaluator type of the task, the task score, the
intermediate score of factual-retention tasks, and the evidence they were based on.

    evaluation = evaluate_task(task, env, answer, final_url, judge)
    evaluation.score      # 1.0 / 0.0, or None when any evaluator could not score the task
    evaluation.status     # passed, failed, config_error, unscorable or error

A verdict's status is `passed` or `failed` when the evaluator applied its rule,
`config_error` when the task's eval block cannot be applied as written, `unscorable`
when it needs a model that is not configured (an LLM judge, a VLM), and `error` when
something outside the agent's work failed (a site did not answer, a model call
failed). Only passed/failed verdicts are scores: the task score is their product,
and it is None, never 0, as soon as one verdict is anything else.

Whose rules judge each eval type is the rule set's scorer (`evaluation.rules`; scorer.py is
the interface, videowa_scoring.py and agentoccam_scoring.py the two sets), chosen once per
evaluation by `scorers.scorer_for`. The intermediate score is the same under both.

Under AgentOccam's rules a task whose intent and start page match a task of AgentOccam's own
task file is scored against that task's eval block, its corrected reference (agentoccam_tasks.py);
the evaluation then says so (`reference_block`).

The evidence (answer, final URL, everything program_html read) is saved with the
record so that `rescore_from_evidence` can judge a run again without the sites.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from evaluation.scoring.agentoccam_tasks import corrected_block, with_block
from evaluation.scoring.errors import ConfigError
from evaluation.scoring.intermediate import intermediate_checks
from evaluation.scoring.judge import Judge
from evaluation.scoring.page_image import Vqa
from evaluation.scoring.scorer import INTERMEDIATE_EVAL, LivePages, SavedEvidence, ScoredTask
from evaluation.scoring.scorers import scorer_for
from evaluation.scoring.scoring_rules import ScoringRules
from evaluation.scoring.verdicts import _run, from_checks
from foundation.records.verdict import (  # noqa: F401 - re-exported: callers read Verdict and the statuses from here
    CONFIG_ERROR, ERROR, FAILED, NOT_SCORED, PASSED, UNSCORABLE, Verdict, combined_status,
)  # fmt: skip


@dataclass
class TaskEvaluation:
    verdicts: list[Verdict]
    intermediate: Verdict | None = None  # factual-retention tasks only
    evidence: dict[str, Any] = field(default_factory=dict)
    reference_block: str = ""  # set when the task was scored against AgentOccam's corrected eval block

    @property
    def status(self) -> str:
        return combined_status(self.verdicts)

    @property
    def score(self) -> float | None:
        scores = [verdict.score for verdict in self.verdicts]
        if not scores or any(score is None for score in scores):
            return None
        return float(math.prod(scores))  # type: ignore[arg-type]

    @property
    def intermediate_score(self) -> float | None:
        return self.intermediate.score if self.intermediate else None

    @property
    def quirks(self) -> list[str]:
        """The reference quirks that decided any verdict of the task."""
        return sorted({name for verdict in self.verdicts for name in verdict.quirks})

    def to_dict(self) -> dict[str, Any]:
        data = {
            "status": self.status,
            "score": self.score,
            "verdicts": [verdict.to_dict() for verdict in self.verdicts],
            "intermediate": self.intermediate.to_dict() if self.intermediate else None,
            "intermediate_score": self.intermediate_score,
        }
        if self.quirks:
            data["quirks"] = self.quirks
        if self.reference_block:
            data["reference_block"] = self.reference_block
        return data


def _scored(task: Any, rules: ScoringRules | None) -> tuple[ScoredTask, str]:
    """The task as scored, with AgentOccam's corrected eval block in place under its rules, and the note saying so."""
    scored = ScoredTask.of(task)
    if rules is None or not rules.agentoccam or not rules.corrected_blocks:
        return scored, ""
    config = task.config if hasattr(task, "config") else task
    found = corrected_block(rules.corrected_blocks, config, scored.block)
    return with_block(scored, found), found.note if found is not None else ""


def evaluate_task(
    task: Any,
    env_or_page: Any,
    answer: str | None,
    final_url: str,
    judge: Judge | None = None,
    *,
    vqa: Vqa | None = None,
    intermediate_answer: str | None = None,
    base_url: Callable[[str], str] | None = None,
    navigation_timeout_ms: int = 30000,
    reference_dir: Path | None = None,
    program_html_wait_ms: int = 0,
    quirks: frozenset[str] = frozenset(),
    rules: ScoringRules | None = None,
) -> TaskEvaluation:
    """Every evaluator the task's `eval` block lists, plus the intermediate score for factual tasks.

    `task`: a loaded task (tasks/loading.py: its eval blocks typed) or a raw config dict.
    `env_or_page`: the BrowserEnv after the episode (its current tab is read) or a page; None when
    no browser is at hand (program_html and page_image_query are then errors). `base_url(site)`
    gives a site's address to helpers (default: the environment variables / sandbox defaults).
    `quirks`: the reference quirks on (`evaluation.reference_quirks`; evaluation/scoring/reference_quirks.py).
    `rules`: whose matching rules apply (`evaluation.rules`; evaluation/scoring/scoring_rules.py), videowa's when None.
    """
    scored, reference_block = _scored(task, rules)
    page = getattr(env_or_page, "page", env_or_page) if env_or_page is not None else None
    pages = LivePages(
        page, final_url, base_url or _default_base_url(), navigation_timeout_ms, program_html_wait_ms, vqa,
        reference_dir,
    )  # fmt: skip
    verdicts = scorer_for(rules, quirks=quirks, judge=judge).verdicts(scored, answer, final_url, pages)
    evidence: dict[str, Any] = {"answer": answer, "final_url": final_url, "intermediate_answer": intermediate_answer}
    if pages.contents is not None:
        evidence["program_html"] = pages.contents
    intermediate = intermediate_verdict(scored, intermediate_answer, judge)
    return TaskEvaluation(verdicts, intermediate, evidence, reference_block)


def _default_base_url() -> Callable[[str], str]:
    from evaluation.browser_env.auth import site_base_url
    from settings import load_settings

    settings = load_settings()
    return lambda site: site_base_url(site, settings)


def intermediate_verdict(task: ScoredTask, answer: str | None, judge: Judge | None) -> Verdict | None:
    """The intermediate question's verdict, for tasks that have one (None for the others)."""
    if task.intermediate_intent is None:
        return None
    if answer is None:
        return Verdict("intermediate", UNSCORABLE, "the policy gave no answer to the intermediate question")

    def work() -> Verdict:
        if INTERMEDIATE_EVAL in task.unreadable:
            raise ConfigError(task.unreadable[INTERMEDIATE_EVAL])
        return from_checks("intermediate", intermediate_checks(task.intermediate_intent, task.intermediate_block,
                                                               answer, judge))  # fmt: skip

    verdict = _run("intermediate", work)
    verdict.eval_type = "intermediate"
    return verdict


# ---- scoring again from saved evidence ----------------------------------------------------


def rescore_from_evidence(
    task: Any,
    evidence: dict[str, Any],
    previous: list[Verdict],
    judge: Judge | None = None,
    quirks: frozenset[str] = frozenset(),
    rules: ScoringRules | None = None,
) -> TaskEvaluation:
    """Judge a finished task again from what was saved: string_match and url_match fully,
    program_html from the contents read then (when the entries still ask for the same pages),
    page_image_query as it was recorded (its images were not saved). `rules` as in `evaluate_task`."""
    scored, reference_block = _scored(task, rules)
    answer, final_url = evidence.get("answer"), evidence.get("final_url", "")
    saved = SavedEvidence(evidence, {verdict.eval_type: verdict for verdict in previous})
    verdicts = scorer_for(rules, quirks=quirks, judge=judge).verdicts_again(scored, answer, final_url, saved)
    intermediate = intermediate_verdict(scored, evidence.get("intermediate_answer"), judge)
    return TaskEvaluation(verdicts, intermediate, evidence, reference_block)
