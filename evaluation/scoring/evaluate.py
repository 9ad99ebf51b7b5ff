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

The evidence (answer, final URL, everything program_html read) is saved with the
record so that `rescore_from_evidence` can judge a run again without the sites.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from evaluation.scoring.intermediate import intermediate_details
from evaluation.scoring.judge import Judge
from evaluation.scoring.page_image import Vqa, page_image_details
from evaluation.scoring.program_html import (
    EntryResult,
    check_entries,
    judge_entry,
    program_html_details,
)
from evaluation.scoring.reference_quirks import EMPTY_PROGRAM_HTML
from evaluation.scoring.scoring_rules import ScoringRules
from evaluation.scoring.string_match import Check, string_match_details
from evaluation.scoring.verdicts import (
    EVAL_TYPES, NO_EVAL_BLOCK, _checks, _entry_evidence, _eval_types, _reads_same_pages, _run,
)  # fmt: skip
from foundation.records.verdict import (  # noqa: F401 - re-exported: callers read Verdict and the statuses from here
    CONFIG_ERROR, ERROR, FAILED, NOT_SCORED, PASSED, UNSCORABLE, Verdict, combined_status,
)  # fmt: skip
from evaluation.scoring.text import split_alternatives
from evaluation.scoring.url_match import EXACT, url_match


@dataclass
class TaskEvaluation:
    verdicts: list[Verdict]
    intermediate: Verdict | None = None  # factual-retention tasks only
    evidence: dict[str, Any] = field(default_factory=dict)

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
        return data


def _from_checks(eval_type: str, checks: list[Check]) -> Verdict:
    status = PASSED if all(check.passed for check in checks) else FAILED
    return Verdict(eval_type, status, details=_checks(checks))


def string_match_verdict(block: dict, answer: str | None, intent: str, judge: Judge | None) -> Verdict:
    def work() -> Verdict:
        # An agent that never stopped is scored on an empty answer, as the reference's added stop action is.
        checks = string_match_details(
            block.get("reference_answers"),
            answer or "",
            intent=intent,
            string_note=block.get("string_note"),
            judge=judge,
        )
        return _from_checks("string_match", checks)

    return _run("string_match", work)


def url_match_verdict(block: dict, final_url: str) -> Verdict:
    def work() -> Verdict:
        reference, note = block.get("reference_url"), block.get("url_note")
        score = url_match(reference, note, final_url)  # the rule itself; the checks below only explain it
        rule = EXACT if note is None else note
        checks = [
            Check("url_match", alternative, bool(url_match(alternative, note, final_url)), f"{rule}: {final_url}")
            for alternative in split_alternatives(reference)
        ]
        return Verdict("url_match", PASSED if score == 1.0 else FAILED, details=_checks(checks))

    return _run("url_match", work)


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

    `env_or_page`: the BrowserEnv after the episode (its current tab is read) or a page; None when
    no browser is at hand (program_html and page_image_query are then errors). `base_url(site)`
    gives a site's address to helpers (default: the environment variables / sandbox defaults).
    `quirks`: the reference quirks on (`evaluation.reference_quirks`; evaluation/scoring/reference_quirks.py).
    `rules`: whose matching rules apply (`evaluation.rules`; evaluation/scoring/scoring_rules.py), videowa's when None.
    """
    config = task.config if hasattr(task, "config") else task
    intent = config.get("intent", "") if isinstance(config, dict) else ""
    block = config.get("eval") if isinstance(config, dict) else None
    page = getattr(env_or_page, "page", env_or_page) if env_or_page is not None else None
    if base_url is None:
        base_url = _default_base_url()
    evidence: dict[str, Any] = {"answer": answer, "final_url": final_url, "intermediate_answer": intermediate_answer}
    if rules is not None and rules.agentoccam:
        from evaluation.scoring.agentoccam_scoring import agentoccam_verdicts, program_html_verdict

        def read_pages(block: dict) -> Verdict:
            verdict, evidence["program_html"] = program_html_verdict(
                block, page, final_url, base_url, navigation_timeout_ms, program_html_wait_ms
            )
            return verdict

        verdicts = agentoccam_verdicts(config, answer, final_url, judge, rules, read_pages)
        return TaskEvaluation(verdicts, intermediate_verdict(config, intermediate_answer, judge), evidence)
    verdicts: list[Verdict] = []
    eval_types = _eval_types(block)
    if not eval_types:
        verdicts.append(Verdict("eval", CONFIG_ERROR, NO_EVAL_BLOCK))
    for eval_type in eval_types:
        if eval_type == "string_match":
            verdicts.append(string_match_verdict(block, answer, intent, judge))
        elif eval_type == "url_match":
            verdicts.append(url_match_verdict(block, final_url))
        elif eval_type == "program_html":
            verdict, contents = _program_html(
                block, page, final_url, base_url, intent, judge, navigation_timeout_ms, program_html_wait_ms, quirks
            )
            verdicts.append(verdict)
            evidence["program_html"] = contents
        elif eval_type == "page_image_query":
            verdicts.append(_page_image(block, page, final_url, base_url, vqa, reference_dir, navigation_timeout_ms))
        else:
            message = f"unknown eval type {eval_type!r} (known: {', '.join(EVAL_TYPES)})"
            verdicts.append(Verdict(str(eval_type), CONFIG_ERROR, message))
    intermediate = intermediate_verdict(config, intermediate_answer, judge)
    return TaskEvaluation(verdicts, intermediate, evidence)


def _default_base_url() -> Callable[[str], str]:
    from evaluation.browser_env.auth import site_base_url
    from settings import load_settings

    settings = load_settings()
    return lambda site: site_base_url(site, settings)


def _program_html(
    block: dict,
    page: Any,
    final_url: str,
    base_url: Callable[[str], str],
    intent: str,
    judge: Judge | None,
    timeout_ms: int,
    fixed_wait_ms: int = 0,
    quirks: frozenset[str] = frozenset(),
) -> tuple[Verdict, list[dict[str, Any]]]:
    contents: list[dict[str, Any]] = []

    def work() -> Verdict:
        entries = block.get("program_html")
        if (free := _empty_list_pass(entries, quirks)) is not None:
            return free
        check_entries(entries)
        if page is None:
            return Verdict("program_html", ERROR, "program_html reads the live site, and no browser page was given")
        results = program_html_details(
            entries, page, final_url=final_url, base_url=base_url, intent=intent, judge=judge,
            navigation_timeout_ms=timeout_ms, fixed_wait_ms=fixed_wait_ms, quirks=quirks,
        )  # fmt: skip
        for result, entry in zip(results, entries):
            contents.append(_entry_evidence(entry, result.visited_url, result.content))
        return _program_html_verdict(results, [result.to_dict() for result in results])

    return _run("program_html", work), contents


def _empty_list_pass(entries: Any, quirks: frozenset[str]) -> Verdict | None:
    """The reference's pass for an empty entry list, when that quirk is on (else None: the list is checked)."""
    if EMPTY_PROGRAM_HTML not in quirks or entries != []:
        return None
    message = f"reference quirk {EMPTY_PROGRAM_HTML}: no entries to check, which the reference scores 1.0"
    return Verdict("program_html", PASSED, message, quirks=[EMPTY_PROGRAM_HTML], without_quirks=CONFIG_ERROR)


def _program_html_verdict(results: list[EntryResult], details: list[dict[str, Any]], message: str = "") -> Verdict:
    """All entries must pass; an entry a quirk decided names it, with the status the entries give without it."""
    status = PASSED if all(result.passed for result in results) else FAILED
    quirks = sorted({result.quirk for result in results if result.quirk})
    if not quirks:
        return Verdict("program_html", status, message, details)
    own = all(result.without_quirk_passed if result.quirk else result.passed for result in results)
    return Verdict("program_html", status, message, details, quirks, PASSED if own else FAILED)


def _page_image(
    block: dict,
    page: Any,
    final_url: str,
    base_url: Callable[[str], str],
    vqa: Vqa | None,
    reference_dir: Path | None,
    timeout_ms: int,
) -> Verdict:
    def work() -> Verdict:
        queries = block.get("page_image_query")
        if page is None:
            from evaluation.scoring.page_image import check_queries

            check_queries(queries)
            return Verdict("page_image_query", ERROR, "page_image_query reads the live site, and no page was given")
        results = page_image_details(
            queries, page, final_url=final_url, base_url=base_url, vqa=vqa, reference_dir=reference_dir,
            navigation_timeout_ms=timeout_ms,
        )  # fmt: skip
        # A query that found no image ends the evaluator with a fail, as in the reference.
        passed = len(results) == len(queries) and all(result.passed for result in results)
        return Verdict("page_image_query", PASSED if passed else FAILED, details=[r.to_dict() for r in results])

    return _run("page_image_query", work)


def intermediate_verdict(config: Any, answer: str | None, judge: Judge | None) -> Verdict | None:
    """The intermediate question's verdict, for tasks that have one (None for the others)."""
    if not isinstance(config, dict) or config.get("intermediate_intent") is None:
        return None
    if answer is None:
        return Verdict("intermediate", UNSCORABLE, "the policy gave no answer to the intermediate question")

    def work() -> Verdict:
        return _from_checks("intermediate", intermediate_details(config, answer, judge))

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
    config = task.config if hasattr(task, "config") else task
    block = config.get("eval") if isinstance(config, dict) else None
    answer, final_url = evidence.get("answer"), evidence.get("final_url", "")
    earlier = {verdict.eval_type: verdict for verdict in previous}
    if rules is not None and rules.agentoccam:
        from evaluation.scoring.agentoccam_scoring import agentoccam_verdicts, program_html_from_evidence

        def saved_pages(block: dict) -> Verdict:
            return program_html_from_evidence(block, evidence, earlier.get("program_html"))

        verdicts = agentoccam_verdicts(config, answer, final_url, judge, rules, saved_pages, earlier)
        intermediate = intermediate_verdict(config, evidence.get("intermediate_answer"), judge)
        return TaskEvaluation(verdicts, intermediate, evidence)
    verdicts: list[Verdict] = []
    eval_types = _eval_types(block)
    if not eval_types:
        verdicts.append(Verdict("eval", CONFIG_ERROR, NO_EVAL_BLOCK))
    for eval_type in eval_types:
        if eval_type == "string_match":
            verdicts.append(string_match_verdict(block, answer, config.get("intent", ""), judge))
        elif eval_type == "url_match":
            verdicts.append(url_match_verdict(block, final_url))
        elif eval_type == "program_html":
            verdicts.append(
                _program_html_from_evidence(block, evidence, earlier.get(eval_type), config, judge, quirks)
            )
        elif eval_type in earlier:
            verdicts.append(_as_recorded(earlier[eval_type]))
        else:
            verdicts.append(Verdict(str(eval_type), ERROR, f"{eval_type} needs the live site and was not recorded"))
    intermediate = intermediate_verdict(config, evidence.get("intermediate_answer"), judge)
    return TaskEvaluation(verdicts, intermediate, evidence)


def _as_recorded(verdict: Verdict) -> Verdict:
    """A verdict that cannot be judged again; where AgentOccam's rules stood in for it, the one they replaced."""
    from evaluation.scoring.agentoccam_scoring import OTHER_TYPE, REPLACED

    if not verdict.message.startswith(OTHER_TYPE):
        return verdict
    kept = [item[REPLACED] for item in verdict.details if isinstance(item, dict) and REPLACED in item]
    if kept:
        return Verdict.from_dict(kept[0])
    return Verdict(verdict.eval_type, ERROR, f"{verdict.eval_type} was scored under AgentOccam's rules, which never "
                   "looked at it; run the task again")  # fmt: skip


def _program_html_from_evidence(
    block: dict,
    evidence: dict[str, Any],
    previous: Verdict | None,
    config: dict,
    judge: Judge | None,
    quirks: frozenset[str] = frozenset(),
) -> Verdict:
    def work() -> Verdict:
        entries = block.get("program_html")
        if (free := _empty_list_pass(entries, quirks)) is not None:
            return free
        check_entries(entries)
        saved = evidence.get("program_html")
        if not _reads_same_pages(saved, entries):
            if previous is not None and previous.status in NOT_SCORED:
                return previous
            return Verdict(
                "program_html", ERROR, "the entries ask for other pages than the ones read in the run; run it again"
            )
        results, details = [], []
        for index, (entry, item) in enumerate(zip(entries, saved)):
            content = item.get("content")
            visited = item.get("visited_url", "")
            result = EntryResult(index, entry["url"], visited, entry["locator"], None, content, False)
            detail: dict[str, Any] = {
                "index": index,
                "url": entry["url"],
                "visited_url": item.get("visited_url"),
                "locator": entry["locator"],
            }
            if content is None:
                detail.update(passed=False, note="the lambda locator gave nothing")
            else:
                key = judge_entry(result, entry, content, quirks, intent=config.get("intent", ""), judge=judge)
                detail.update(key=key, passed=result.passed, checks=_checks(result.checks))
                if result.quirk:
                    detail.update(
                        quirk=result.quirk, without_quirk_passed=result.without_quirk_passed, note=result.note
                    )
            results.append(result)
            details.append(detail)
        return _program_html_verdict(results, details, "scored again from saved page contents")

    return _run("program_html", work)


