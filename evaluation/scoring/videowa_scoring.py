"""One episode scored under VisualWebArena's / VideoWA's rules (`evaluation.rules: videowa`, the default).

The rules are ../shared/EVALUATORS.md: string_match (string_match.py), url_match (url_match.py),
program_html (program_html.py) and page_image_query (page_image.py), with the reference quirks
`evaluation.reference_quirks` names (reference_quirks.py). Scoring again from saved evidence judges
string_match and url_match in full, program_html on the page contents read in the run (while its
entries still ask for the same pages), and keeps page_image_query as recorded (its images were not
saved).
"""

from __future__ import annotations

from typing import Any

from evaluation.scoring.judge import Judge
from evaluation.scoring.page_image import check_queries, page_image_details
from evaluation.scoring.program_html import EntryResult, check_entries, judge_entry, program_html_details
from evaluation.scoring.reference_quirks import EMPTY_PROGRAM_HTML
from evaluation.scoring.scorer import LivePages, SavedEvidence, ScoredTask, Scorer
from evaluation.scoring.string_match import Check, string_match_details
from evaluation.scoring.text import split_alternatives
from evaluation.scoring.url_match import EXACT, url_match
from evaluation.scoring.verdicts import (
    OTHER_TYPE, REPLACED, _checks, _entry_evidence, _reads_same_pages, _run, from_checks,
)  # fmt: skip
from foundation.records.eval_block import EVAL_TYPES
from foundation.records.verdict import CONFIG_ERROR, ERROR, FAILED, NOT_SCORED, PASSED, Verdict


class VideoWAScorer(Scorer):
    """VisualWebArena's / VideoWA's evaluators, with the reference quirks named on."""

    def __init__(self, judge: Judge | None = None, quirks: frozenset[str] = frozenset()) -> None:
        super().__init__(judge)
        self.quirks = quirks  # the reference quirks on (evaluation/scoring/reference_quirks.py)

    def string_match(self, task: ScoredTask, answer: str | None) -> Verdict:
        block = task.block

        def work() -> Verdict:
            # An agent that never stopped is scored on an empty answer, as the reference's added stop action is.
            checks = string_match_details(
                block.reference_answers, answer or "", intent=task.intent, string_note=block.string_note,
                judge=self.judge,
            )  # fmt: skip
            return from_checks("string_match", checks)

        return _run("string_match", work)

    def url_match(self, task: ScoredTask, final_url: str) -> Verdict:
        block = task.block

        def work() -> Verdict:
            reference, note = block.reference_url, block.url_note
            score = url_match(reference, note, final_url)  # the rule itself; the checks below only explain it
            rule = EXACT if note is None else note
            checks = [
                Check("url_match", alternative, bool(url_match(alternative, note, final_url)), f"{rule}: {final_url}")
                for alternative in split_alternatives(reference)
            ]
            return Verdict("url_match", PASSED if score == 1.0 else FAILED, details=_checks(checks))

        return _run("url_match", work)

    def program_html(self, task: ScoredTask, pages: LivePages) -> Verdict:
        contents: list[dict[str, Any]] = []
        pages.contents = contents

        def work() -> Verdict:
            entries = task.block.program_html
            if (free := self._empty_list_pass(entries)) is not None:
                return free
            check_entries(entries)
            if pages.page is None:
                return Verdict("program_html", ERROR, "program_html reads the live site, and no browser page was given")
            results = program_html_details(
                entries, pages.page, final_url=pages.final_url, base_url=pages.base_url, intent=task.intent,
                judge=self.judge, navigation_timeout_ms=pages.navigation_timeout_ms, fixed_wait_ms=pages.fixed_wait_ms,
                quirks=self.quirks,
            )  # fmt: skip
            for result, entry in zip(results, entries):
                contents.append(_entry_evidence(entry, result.visited_url, result.content))
            return _entries_verdict(results, [result.to_dict() for result in results])

        return _run("program_html", work)

    def program_html_again(self, task: ScoredTask, saved: SavedEvidence) -> Verdict:
        previous = saved.earlier.get("program_html")

        def work() -> Verdict:
            entries = task.block.program_html
            if (free := self._empty_list_pass(entries)) is not None:
                return free
            check_entries(entries)
            contents = saved.evidence.get("program_html")
            if not _reads_same_pages(contents, entries):
                if previous is not None and previous.status in NOT_SCORED:
                    return previous
                return Verdict(
                    "program_html", ERROR, "the entries ask for other pages than the ones read in the run; run it again"
                )
            results, details = [], []
            for index, (entry, item) in enumerate(zip(entries, contents)):
                result, detail = self._judge_saved(index, entry, item, task)
                results.append(result)
                details.append(detail)
            return _entries_verdict(results, details, "scored again from saved page contents")

        return _run("program_html", work)

    def _judge_saved(
        self, index: int, entry: dict, item: dict, task: ScoredTask
    ) -> tuple[EntryResult, dict[str, Any]]:
        content = item.get("content")
        result = EntryResult(index, entry["url"], item.get("visited_url", ""), entry["locator"], None, content, False)
        detail: dict[str, Any] = {
            "index": index, "url": entry["url"], "visited_url": item.get("visited_url"), "locator": entry["locator"],
        }  # fmt: skip
        if content is None:
            detail.update(passed=False, note="the lambda locator gave nothing")
            return result, detail
        key = judge_entry(result, entry, content, self.quirks, intent=task.intent, judge=self.judge)
        detail.update(key=key, passed=result.passed, checks=_checks(result.checks))
        if result.quirk:
            detail.update(quirk=result.quirk, without_quirk_passed=result.without_quirk_passed, note=result.note)
        return result, detail

    def other_type(self, eval_type: Any, task: ScoredTask, pages: LivePages) -> Verdict:
        if eval_type == "page_image_query":
            return _page_image(task, pages)
        message = f"unknown eval type {eval_type!r} (known: {', '.join(EVAL_TYPES)})"
        return Verdict(str(eval_type), CONFIG_ERROR, message)

    def other_type_again(self, eval_type: Any, task: ScoredTask, saved: SavedEvidence) -> Verdict:
        if eval_type in saved.earlier:
            return _as_recorded(saved.earlier[eval_type])
        return Verdict(str(eval_type), ERROR, f"{eval_type} needs the live site and was not recorded")

    def _empty_list_pass(self, entries: Any) -> Verdict | None:
        """The reference's pass for an empty entry list, when that quirk is on (else None: the list is checked)."""
        if EMPTY_PROGRAM_HTML not in self.quirks or entries != []:
            return None
        message = f"reference quirk {EMPTY_PROGRAM_HTML}: no entries to check, which the reference scores 1.0"
        return Verdict("program_html", PASSED, message, quirks=[EMPTY_PROGRAM_HTML], without_quirks=CONFIG_ERROR)


def _entries_verdict(results: list[EntryResult], details: list[dict[str, Any]], message: str = "") -> Verdict:
    """All entries must pass; an entry a quirk decided names it, with the status the entries give without it."""
    status = PASSED if all(result.passed for result in results) else FAILED
    quirks = sorted({result.quirk for result in results if result.quirk})
    if not quirks:
        return Verdict("program_html", status, message, details)
    own = all(result.without_quirk_passed if result.quirk else result.passed for result in results)
    return Verdict("program_html", status, message, details, quirks, PASSED if own else FAILED)


def _page_image(task: ScoredTask, pages: LivePages) -> Verdict:
    def work() -> Verdict:
        queries = task.block.page_image_query
        if pages.page is None:
            check_queries(queries)
            return Verdict("page_image_query", ERROR, "page_image_query reads the live site, and no page was given")
        results = page_image_details(
            queries, pages.page, final_url=pages.final_url, base_url=pages.base_url, vqa=pages.vqa,
            reference_dir=pages.reference_dir, navigation_timeout_ms=pages.navigation_timeout_ms,
        )  # fmt: skip
        # A query that found no image ends the evaluator with a fail, as in the reference.
        passed = len(results) == len(queries) and all(result.passed for result in results)
        return Verdict("page_image_query", PASSED if passed else FAILED, details=[r.to_dict() for r in results])

    return _run("page_image_query", work)


def _as_recorded(verdict: Verdict) -> Verdict:
    """A verdict that cannot be judged again; where AgentOccam's rules stood in for it, the one they replaced."""
    if not verdict.message.startswith(OTHER_TYPE):
        return verdict
    kept = [item[REPLACED] for item in verdict.details if isinstance(item, dict) and REPLACED in item]
    if kept:
        return Verdict.from_dict(kept[0])
    return Verdict(verdict.eval_type, ERROR, f"{verdict.eval_type} was scored under AgentOccam's rules, which never "
                   "looked at it; run the task again")  # fmt: skip


__all__ = ["VideoWAScorer"]
