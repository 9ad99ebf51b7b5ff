"""One episode scored under AgentOccam's rules (`evaluation.rules: agentoccam`; evaluation/scoring/scoring_rules.py).

Cited lines are amazon-science/AgentOccam c078ba6, evaluation_harness/evaluators.py unless
another file is named. Its evaluator multiplies a reward per eval type (:393-397) and its
tally counts a task as passed only at reward 1 (AgentOccam/plot.py:130); must_include gives
a fraction (:163-171, :370), so an item not found fails the verdict here and the message
gives the fraction. Where its code raises (an eval type, url_note, locator or helper it does
not know) its environment scores the task 0 (AgentOccam/env.py:124-129): that verdict is a
`config_error` naming the line, and the agentoccam tally counts it as a failure.

Pages are read as the videowa set reads them (evaluation/scoring/program_html.py: read_entry), so the
evidence of a run scored under one set can be scored again under the other.
"""

from __future__ import annotations

from typing import Any, Callable

from evaluation.scoring.agentoccam_matching import (
    clean,
    content_includes,
    exact_match,
    must_include,
    unescape,
    url_group_matches,
)
from evaluation.scoring.errors import ConfigError, Unscorable
from evaluation.scoring.scorer import LivePages, SavedEvidence, ScoredTask, Scorer
from evaluation.scoring.verdicts import OTHER_TYPE, REPLACED, _checks, _entry_evidence, _reads_same_pages, _run
from evaluation.scoring.judge import CORRECT, SAME, Judge
from evaluation.scoring.program_html import FUNC, JS_PREFIXES, EntryResult, content_text, read_entry
from evaluation.scoring.scoring_rules import ScoringRules, task_url_alternatives
from evaluation.scoring.site_helpers import HelperContext, prepare_call
from evaluation.scoring.string_match import Check
from evaluation.scoring.url_match import GOLD_IN_PRED
from foundation.records.eval_block import EvalBlock
from foundation.records.verdict import CONFIG_ERROR, ERROR, FAILED, NOT_SCORED, PASSED, Verdict

# The helpers its evaluators.py imports (:21-30); `func:` calls are eval'ed there, so any other name raises.
HELPERS = (
    "gitlab_get_project_memeber_role",
    "reddit_get_post_url",
    "shopping_get_latest_order_url",
    "shopping_get_sku_latest_review_author",
    "shopping_get_sku_latest_review_rating",
)
SCORES_ZERO = "AgentOccam's evaluator raises there, and its environment scores the task 0 (env.py:124-129)"


def _raises(what: str) -> ConfigError:
    return ConfigError(f"{what}; {SCORES_ZERO}")


def _reward_note(reward: float) -> str:
    return f"AgentOccam's reward {reward:g}; a task passes at 1 (plot.py:130)"


# ---- string_match (:142-195) ------------------------------------------------------------------


def string_match_verdict(block: EvalBlock, answer: str | None, intent: str, judge: Judge | None) -> Verdict:
    def work() -> Verdict:
        answers = block.reference_answers
        if not isinstance(answers, dict):
            raise _raises(f"reference_answers is {answers!r}, which :156 cannot read")
        prediction = clean(answer or "")  # stripped, unquoted, lowercased once here and again in each rule (:153)
        reward, checks, ignored = 1.0, [], []
        for key, value in answers.items():
            if key == "exact_match":
                if not isinstance(value, str):
                    raise _raises(f"exact_match is {value!r}, not a string")
                passed = exact_match(value, prediction)
                checks.append(Check(key, value, passed, "equal" if passed else "not equal"))
                reward *= float(passed)
            elif key == "must_include":
                reward *= _must_include(value, prediction, checks)
            elif key == "fuzzy_match":
                reward = _fuzzy_match(block, value, prediction, intent, judge, reward, checks)
            else:
                ignored.append(key)  # its `match` has no case for one_of, must_exclude, required_values
        message = _reward_note(reward)
        if ignored:
            message += f"; not checked: {', '.join(ignored)} (its string_match has no rule for them, :156-194)"
        return Verdict("string_match", PASSED if reward == 1.0 else FAILED, message, _checks(checks))

    return _run("string_match", work)


def _must_include(items: Any, prediction: str, checks: list[Check]) -> float:
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        raise _raises(f"must_include is {items!r}, not a list of strings (:162)")
    if not items:
        raise _raises("must_include is an empty list, whose mean divides by zero (:170)")
    tokenize = len(items) == 1  # the token rule is on only for a list of one item (:168)
    found = 0
    for item in items:
        passed = must_include(item, prediction, tokenize)
        found += passed
        how = "whole token" if tokenize and len(clean(item)) == 1 else "substring"
        checks.append(Check("must_include", item, passed, f"{'found' if passed else 'not found'} ({how})"))
    return found / len(items)


def _fuzzy_match(
    block: EvalBlock, value: Any, prediction: str, intent: str, judge: Judge | None, reward: float, checks: list[Check]
) -> float:
    if value == "N/A":
        passed = exact_match("N/A", prediction)
        checks.append(Check("fuzzy_match", "N/A", passed, "answer is N/A" if passed else "answer is not N/A"))
        reward *= float(passed)
        if reward == 1.0:
            return reward
        note = block.string_note
        if not isinstance(note, str):
            raise _raises(f"fuzzy_match is 'N/A' and string_note is {note!r}, not a string (:183)")
        if judge is None:
            raise Unscorable("fuzzy_match 'N/A' with a reason needs an LLM judge; configure models.judge to score it")
        verdict = judge.same_reason(intent, note, prediction)
        # Its verdict replaces the reward so far, earlier keys included (:180-185).
        checks.append(Check("fuzzy_match", note, verdict == SAME, f"judge: {verdict} reason (replaces the reward)"))
        return float(verdict == SAME)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        reference = "; ".join(value)  # one judge call for the whole list (:187-193)
    elif isinstance(value, str):
        reference = value
    else:
        raise _raises(f"fuzzy_match is {value!r}, neither a string nor a list of strings")
    if judge is None:
        raise Unscorable("fuzzy_match needs an LLM judge; configure models.judge to score this task")
    verdict = judge.grade(intent, reference, prediction)
    checks.append(Check("fuzzy_match", reference, verdict == CORRECT, f"judge: {verdict} (the list as one reference)"))
    return reward * float(verdict == CORRECT)


# ---- url_match (:198-274) -----------------------------------------------------------------------


def url_match_verdict(block: EvalBlock, final_url: str, rules: ScoringRules) -> Verdict:
    def work() -> Verdict:
        note = block.url_note if block.has("url_note") else GOLD_IN_PRED  # absent: "GOLD in PRED" (:239)
        if note != GOLD_IN_PRED:
            raise _raises(f"url_note {note!r}: its url_match knows only {GOLD_IN_PRED!r} (:240, :271-272)")
        reference = block.reference_url
        alternatives = task_url_alternatives(rules, block)
        if alternatives is None:
            raise ConfigError(
                "url_match under AgentOccam's rules reads the 'or' alternatives of its task file: "
                "set evaluation.agentoccam_task_file (or =none)"
            )
        groups = [reference, *alternatives]
        if not all(isinstance(group, str) for group in groups):
            raise _raises(f"a reference_url of {groups!r} is not a string")
        checks = [
            Check("url_match", group, url_group_matches(group, final_url),
                  f"{'reference_url' if index == 0 else 'or alternative'}; host+path in the URL's, query as sets: "
                  f"{final_url}")
            for index, group in enumerate(groups)
        ]  # fmt: skip
        passed = any(check.passed for check in checks)  # the best group counts (:269)
        return Verdict("url_match", PASSED if passed else FAILED, _reward_note(float(passed)), _checks(checks))

    return _run("url_match", work)


# ---- program_html (:277-378) --------------------------------------------------------------------


def _helper_name(call: str) -> str:
    return call[len(FUNC) :].split("(", 1)[0].strip()


def _check_call(call: str, where: str) -> None:
    if _helper_name(call) not in HELPERS:
        raise _raises(f"{where} calls {_helper_name(call)!r}, which its evaluators.py does not import (:21-30)")
    prepare_call(call[len(FUNC) :])


def check_entries(entries: Any) -> None:
    """ConfigError for an entry AgentOccam's evaluator raises on (or one this project does not read)."""
    if not isinstance(entries, list):
        raise _raises(f"program_html is {entries!r}, not a list (:291-294)")
    for index, entry in enumerate(entries):
        where = f"program_html[{index}]"
        if not isinstance(entry, dict):
            raise _raises(f"{where} is not an object")
        if "or" in entry:
            raise ConfigError(f"{where} has 'or' targets (:295-298), which this project does not read yet")
        url, locator = entry.get("url"), entry.get("locator")
        if not isinstance(url, str) or not isinstance(locator, str):
            raise _raises(f"{where} needs a url and a locator string")
        if url.startswith(FUNC):
            _check_call(url, f"{where}.url")
        if locator.startswith(FUNC):
            _check_call(locator, f"{where}.locator")
        elif locator.strip() and not locator.startswith(JS_PREFIXES):
            raise _raises(f"{where}.locator {locator!r} is not empty, document... or func:... (:339-340)")
        _rule(entry.get("required_contents"), where)


def _rule(contents: Any, where: str) -> tuple[str, Any]:
    """exact_match if present, else must_include (:344-374); anything else raises there."""
    if isinstance(contents, dict) and isinstance(contents.get("exact_match"), str):
        return "exact_match", contents["exact_match"]
    if isinstance(contents, dict) and "exact_match" not in contents and "must_include" in contents:
        items = contents["must_include"]
        if isinstance(items, list) and items and all(isinstance(item, str) for item in items):
            return "must_include", items
    raise _raises(f"{where}.required_contents {contents!r} has neither an exact_match string nor a must_include list")


def judge_content(index: int, entry: dict, visited: str, content: Any) -> EntryResult:
    """One entry's verdict on what was read: unescaped (:342), then exact_match or must_include (a fraction)."""
    key, value = _rule(entry["required_contents"], f"program_html[{index}]")
    text = unescape(content_text(content))
    if key == "exact_match":
        passed = exact_match(value, text)
        checks = [Check(key, value, passed, "equal" if passed else "not equal")]
    else:
        checks = []
        for item in value:
            found = content_includes(item, text)
            checks.append(Check(key, item, found, "found (substring)" if found else "not found (substring)"))
    reward = sum(check.passed for check in checks) / len(checks)
    result = EntryResult(index, entry["url"], visited, entry["locator"], key, content, reward == 1.0, checks)
    result.note = _reward_note(reward)
    return result


def _entries_verdict(results: list[EntryResult], details: list[dict[str, Any]], message: str = "") -> Verdict:
    return Verdict("program_html", PASSED if all(r.passed for r in results) else FAILED, message, details)


def _no_entries() -> Verdict:
    message = "no entries: AgentOccam's evaluator multiplies no checks, 1.0 (:293-294, :378)"
    return Verdict("program_html", PASSED, message)


def program_html_verdict(
    block: EvalBlock, page: Any, final_url: str, base_url: Callable[[str], str], timeout_ms: int, fixed_wait_ms: int
) -> tuple[Verdict, list[dict[str, Any]]]:
    contents: list[dict[str, Any]] = []

    def work() -> Verdict:
        entries = block.program_html
        check_entries(entries)
        if not entries:
            return _no_entries()
        if page is None:
            return Verdict("program_html", ERROR, "program_html reads the live site, and no browser page was given")
        context = HelperContext(page=page, last_url=final_url, base_url=base_url)
        results = []
        for index, entry in enumerate(entries):
            content, visited = read_entry(entry, page, context, timeout_ms, fixed_wait_ms)
            contents.append(_entry_evidence(entry, visited, content))
            results.append(judge_content(index, entry, visited, content))
        return _entries_verdict(results, [result.to_dict() for result in results])

    return _run("program_html", work), contents


def program_html_from_evidence(block: EvalBlock, evidence: dict[str, Any], previous: Verdict | None) -> Verdict:
    def work() -> Verdict:
        entries = block.program_html
        check_entries(entries)
        if not entries:
            return _no_entries()
        saved = evidence.get("program_html")
        if not _reads_same_pages(saved, entries):
            if previous is not None and previous.status in NOT_SCORED:
                return previous
            return Verdict(
                "program_html", ERROR, "the entries ask for other pages than the ones read in the run; run it again"
            )
        results = [
            judge_content(index, entry, item.get("visited_url", ""), item.get("content"))
            for index, (entry, item) in enumerate(zip(entries, saved))
        ]
        return _entries_verdict(results, [r.to_dict() for r in results], "scored again from saved page contents")

    return _run("program_html", work)


# ---- a whole task -------------------------------------------------------------------------------


def _other_type(eval_type: Any, earlier: Verdict | None) -> Verdict:
    """Its router knows string_match, url_match and program_html only (:408-417). A verdict recorded under the
    videowa rules (page_image_query: its images were not saved) is kept inside, for a rescore back under them."""
    kept = [{REPLACED: earlier.to_dict()}] if earlier is not None and earlier.status != CONFIG_ERROR else []
    return Verdict(str(eval_type), CONFIG_ERROR, f"{OTHER_TYPE} {eval_type!r}; {SCORES_ZERO}", kept)


class AgentOccamScorer(Scorer):
    """AgentOccam's evaluator: its string_match, url_match (with the task file's "or" alternatives) and
    program_html; any other eval type raises there (:408-417)."""

    def __init__(self, rules: ScoringRules, judge: Judge | None = None) -> None:
        super().__init__(judge)
        self.rules = rules

    def string_match(self, task: ScoredTask, answer: str | None) -> Verdict:
        return string_match_verdict(task.block, answer, task.intent, self.judge)

    def url_match(self, task: ScoredTask, final_url: str) -> Verdict:
        return url_match_verdict(task.block, final_url, self.rules)

    def program_html(self, task: ScoredTask, pages: LivePages) -> Verdict:
        verdict, pages.contents = program_html_verdict(
            task.block, pages.page, pages.final_url, pages.base_url, pages.navigation_timeout_ms, pages.fixed_wait_ms
        )
        return verdict

    def program_html_again(self, task: ScoredTask, saved: SavedEvidence) -> Verdict:
        return program_html_from_evidence(task.block, saved.evidence, saved.earlier.get("program_html"))

    def other_type(self, eval_type: Any, task: ScoredTask, pages: LivePages) -> Verdict:
        return _other_type(eval_type, None)

    def other_type_again(self, eval_type: Any, task: ScoredTask, saved: SavedEvidence) -> Verdict:
        return _other_type(eval_type, saved.earlier.get(eval_type))


__all__ = [
    "HELPERS",
    "AgentOccamScorer",
    "check_entries",
    "judge_content",
    "program_html_from_evidence",
    "program_html_verdict",
    "string_match_verdict",
    "url_match_verdict",
]
