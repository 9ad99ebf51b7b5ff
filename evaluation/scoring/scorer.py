"""What a rule set's scorer is: a verdict per eval type, from the live browser or from saved evidence.

    scorer = scorer_for(rules, quirks=quirks, judge=judge)   # evaluation/scoring/scorers.py, once per evaluation
    verdicts = scorer.verdicts(task, answer, final_url, LivePages(page, final_url, ...))
    verdicts = scorer.verdicts_again(task, answer, final_url, SavedEvidence(evidence, earlier))

The walk over a task's eval types is the same for every rule set and lives here; what each
type's verdict is (the string check, the URL check, the page check, a type the set does not
score) is the rule set's: `VideoWAScorer` (videowa_scoring.py, ../shared/EVALUATORS.md) and
`AgentOccamScorer` (agentoccam_scoring.py, AgentOccam's evaluator).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from evaluation.scoring.judge import Judge
from evaluation.scoring.page_image import Vqa
from evaluation.scoring.verdicts import NO_EVAL_BLOCK
from foundation.records.eval_block import EvalBlock, UnknownEvalKeys
from foundation.records.verdict import CONFIG_ERROR, Verdict

EVAL, INTERMEDIATE_EVAL = "eval", "intermediate_eval"


@dataclass(frozen=True)
class ScoredTask:
    """What the scorers read of a task: its intent and its eval blocks, typed."""

    intent: Any  # the config's intent (shown to the judge)
    block: EvalBlock | None  # the `eval` block; None when absent or not an object (a config error)
    intermediate_intent: Any = None
    intermediate_block: EvalBlock | None = None
    # "eval" / "intermediate_eval" -> why a raw config's block could not be read (a key no config has).
    unreadable: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, task: Any) -> ScoredTask:
        """From a loaded task (its blocks were read at load) or a raw config dict (read here)."""
        config = task.config if hasattr(task, "config") else task
        config = config if isinstance(config, dict) else {}
        blocks: dict[str, EvalBlock | None] = {}
        unreadable: dict[str, str] = {}
        if hasattr(task, "eval_block"):
            blocks = {EVAL: task.eval_block, INTERMEDIATE_EVAL: task.intermediate_block}
        else:
            for key in (EVAL, INTERMEDIATE_EVAL):
                try:
                    blocks[key] = EvalBlock.of(config.get(key))
                except UnknownEvalKeys as exc:
                    blocks[key], unreadable[key] = None, f"{key} has {exc}"
        return cls(
            config.get("intent", ""), blocks[EVAL], config.get("intermediate_intent"), blocks[INTERMEDIATE_EVAL],
            unreadable,
        )  # fmt: skip


@dataclass
class LivePages:
    """The browser after the episode, for the evaluators that read the site (program_html, page_image_query)."""

    page: Any  # the current tab; None when no browser is at hand (those evaluators are then errors)
    final_url: str
    base_url: Callable[[str], str]  # a site's address, for the helpers
    navigation_timeout_ms: int = 30000
    fixed_wait_ms: int = 0
    vqa: Vqa | None = None
    reference_dir: Path | None = None
    contents: list[dict[str, Any]] | None = None  # what program_html read, saved as evidence; None if not asked


@dataclass(frozen=True)
class SavedEvidence:
    """What a finished task saved (evidence.json) and the verdicts it was given, by eval type."""

    evidence: dict[str, Any]
    earlier: dict[str, Verdict]


class Scorer(ABC):
    """One rule set's evaluators. Chosen once per evaluation (`scorer_for`), with the judge it may ask."""

    def __init__(self, judge: Judge | None = None) -> None:
        self.judge = judge

    def verdicts(self, task: ScoredTask, answer: str | None, final_url: str, pages: LivePages) -> list[Verdict]:
        """A verdict per eval type of the task, the site read live."""
        return self._each_type(
            task, answer, final_url, lambda: self.program_html(task, pages),
            lambda eval_type: self.other_type(eval_type, task, pages),
        )  # fmt: skip

    def verdicts_again(
        self, task: ScoredTask, answer: str | None, final_url: str, saved: SavedEvidence
    ) -> list[Verdict]:
        """A verdict per eval type of the task, from what the run saved (no site)."""
        return self._each_type(
            task, answer, final_url, lambda: self.program_html_again(task, saved),
            lambda eval_type: self.other_type_again(eval_type, task, saved),
        )  # fmt: skip

    def _each_type(
        self,
        task: ScoredTask,
        answer: str | None,
        final_url: str,
        program_html: Callable[[], Verdict],
        other: Callable[[Any], Verdict],
    ) -> list[Verdict]:
        if EVAL in task.unreadable:
            return [Verdict(EVAL, CONFIG_ERROR, task.unreadable[EVAL])]
        eval_types = task.block.listed_types if task.block is not None else []
        if not eval_types:
            return [Verdict(EVAL, CONFIG_ERROR, NO_EVAL_BLOCK)]
        verdicts = []
        for eval_type in eval_types:
            if eval_type == "string_match":
                verdicts.append(self.string_match(task, answer))
            elif eval_type == "url_match":
                verdicts.append(self.url_match(task, final_url))
            elif eval_type == "program_html":
                verdicts.append(program_html())
            else:
                verdicts.append(other(eval_type))
        return verdicts

    @abstractmethod
    def string_match(self, task: ScoredTask, answer: str | None) -> Verdict:
        """The answer against reference_answers (an agent that never stopped answered "")."""

    @abstractmethod
    def url_match(self, task: ScoredTask, final_url: str) -> Verdict:
        """The URL the episode ended on against reference_url."""

    @abstractmethod
    def program_html(self, task: ScoredTask, pages: LivePages) -> Verdict:
        """The site's state read from its pages; what was read goes to `pages.contents`."""

    @abstractmethod
    def program_html_again(self, task: ScoredTask, saved: SavedEvidence) -> Verdict:
        """program_html judged on the page contents the run saved."""

    @abstractmethod
    def other_type(self, eval_type: Any, task: ScoredTask, pages: LivePages) -> Verdict:
        """Any other eval type listed (page_image_query, or one the rule set does not know), live."""

    @abstractmethod
    def other_type_again(self, eval_type: Any, task: ScoredTask, saved: SavedEvidence) -> Verdict:
        """Any other eval type listed, from what the run saved."""


__all__ = ["LivePages", "SavedEvidence", "ScoredTask", "Scorer"]
