"""string_match: the agent's final answer (`stop [answer]`) against the task's `reference_answers`.

Rules: ../shared/EVALUATORS.md. Where that text is silent this follows the
VisualWebArena / VideoWA reference evaluator; each such corner is commented below.
The whole config is checked before the answer is looked at, so a broken config is a
ConfigError whatever the agent answered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from evaluation.scoring import matching
from evaluation.scoring.errors import ConfigError, Unscorable
from evaluation.scoring.judge import CORRECT, SAME, Judge
from evaluation.scoring.text import OR_SEPARATOR, clean
from evaluation.scoring.values import check_requirement, parse_integer, value_meets

NOT_ACHIEVABLE = "N/A"

# Rules the reference cannot apply once `required_values` has turned the answer into an integer.
NO_NUMBER_RULES = ("must_include", "must_exclude", "one_of")


@dataclass(frozen=True)
class Check:
    """One verdict: which rule (`key`), against which reference item, and why it passed or failed."""

    key: str
    reference: str
    passed: bool
    note: str = ""


@dataclass(frozen=True)
class _Context:
    intent: str
    string_note: str | None
    judge: Judge | None


def _found_note(passed: bool) -> str:
    return "found" if passed else "not found"


def _exact_match(value: str, prediction: str, context: _Context) -> list[Check]:
    passed = matching.exact_match(value, prediction)
    return [Check("exact_match", value, passed, "equal" if passed else "not equal")]


def _must_include(items: list[str], prediction: str, context: _Context) -> list[Check]:
    checks = []
    for item in items:
        passed = matching.includes_item(item, prediction)
        checks.append(Check("must_include", item, passed, _found_note(passed)))
    return checks


def _must_exclude(items: list[str], prediction: str, context: _Context) -> list[Check]:
    checks = []
    for item in items:
        passed = matching.excludes_item(item, prediction)
        checks.append(Check("must_exclude", item, passed, "absent" if passed else "found"))
    return checks


def _one_of(items: list[str], prediction: str, context: _Context) -> list[Check]:
    passed = matching.one_of(items, prediction)
    return [Check("one_of", OR_SEPARATOR.join(items), passed, _found_note(passed))]


def _required_values(items: list[str], prediction: str, context: _Context) -> list[Check]:
    number = parse_integer(prediction)
    if number is None:
        # Fails even with an empty list: the reference zeroes the score before looking at the items.
        return [Check("required_values", item, False, "answer is not a whole number") for item in items or [""]]
    return [Check("required_values", item, value_meets(number, item), f"answer read as {number}") for item in items]


def _fuzzy_match(value: str | list[str], prediction: str, context: _Context) -> list[Check]:
    # The judge sees the answer as cleaned here (lowercased), as the reference's judge did.
    if value == NOT_ACHIEVABLE:
        return [_not_achievable(prediction, context)]
    checks = []
    for reference in value:
        if context.judge is None:
            raise Unscorable("fuzzy_match needs an LLM judge; configure models.judge to score this task")
        verdict = context.judge.grade(context.intent, reference, prediction)
        checks.append(Check("fuzzy_match", reference, verdict == CORRECT, f"judge: {verdict}"))
    return checks


def _not_achievable(prediction: str, context: _Context) -> Check:
    """The "N/A" form: the bare answer N/A passes; otherwise the judge compares the reason given."""
    if matching.exact_match(NOT_ACHIEVABLE, prediction):
        return Check("fuzzy_match", NOT_ACHIEVABLE, True, "answer is N/A")
    if context.string_note is None:
        raise ConfigError("fuzzy_match is 'N/A' but the eval block has no string_note to compare the reason with")
    if context.judge is None:
        raise Unscorable("fuzzy_match 'N/A' with a reason needs an LLM judge; configure models.judge to score it")
    verdict = context.judge.same_reason(context.intent, context.string_note, prediction)
    return Check("fuzzy_match", NOT_ACHIEVABLE, verdict == SAME, f"judge: {verdict} reason")


_RULES: dict[str, Callable[[Any, str, _Context], list[Check]]] = {
    "exact_match": _exact_match,
    "must_include": _must_include,
    "must_exclude": _must_exclude,
    "one_of": _one_of,
    "required_values": _required_values,
    "fuzzy_match": _fuzzy_match,
}


def _require_strings(key: str, value: Any) -> None:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"reference_answers.{key} must be a list of strings, got {value!r}")


def check_reference_answers(reference_answers: Any) -> None:
    """Raise ConfigError unless string_match can apply these `reference_answers` to any answer."""
    if not isinstance(reference_answers, dict) or not reference_answers:
        # The reference scores an empty block 1.0 for every answer; a check that cannot fail is a config error.
        raise ConfigError(f"string_match needs a non-empty reference_answers object, got {reference_answers!r}")
    keys = list(reference_answers)
    for position, key in enumerate(keys):
        value = reference_answers[key]
        if key not in _RULES:
            # The reference skips unknown keys silently, which would let a misspelt rule pass.
            raise ConfigError(f"reference_answers has unknown key {key!r} (known: {', '.join(_RULES)})")
        if key == "exact_match" and not isinstance(value, str):
            raise ConfigError(f"reference_answers.exact_match must be a string, got {value!r}")
        if key in ("must_include", "must_exclude", "one_of", "required_values"):
            _require_strings(key, value)
        if key == "must_exclude":
            for item in value:
                matching.check_exclude_item(item)
        if key == "required_values":
            for item in value:
                check_requirement(item)
            # The reference turns the answer into a number here; its substring rules then reject it.
            text_rules = [later for later in keys[position + 1 :] if later in NO_NUMBER_RULES]
            if text_rules:
                raise ConfigError(
                    f"reference_answers lists {text_rules[0]!r} after 'required_values', which turns the answer "
                    f"into a number that {text_rules[0]} cannot search; put required_values last"
                )
        if key == "fuzzy_match" and value != NOT_ACHIEVABLE:
            _require_strings(key, value)


def string_match_details(
    reference_answers: dict,
    answer: str,
    *,
    intent: str = "",
    string_note: str | None = None,
    judge: Judge | None = None,
) -> list[Check]:
    """Every check of every key, in the order the config lists the keys.

    `intent` is the question the judge is shown; `string_note` the true reason an "N/A"
    task cannot be done (None when the eval block has none). Raises ConfigError for a
    config it cannot apply and Unscorable when a judge is needed and `judge` is None.
    """
    check_reference_answers(reference_answers)
    # Cleaned once here and once more inside the exact/include/exclude helpers, as in the
    # reference: "'42'" wrapped in double quotes matches 42 exactly. one_of, required_values
    # and the judge see the answer cleaned once.
    prediction = clean(answer)
    context = _Context(intent=intent, string_note=string_note, judge=judge)
    checks: list[Check] = []
    for key, value in reference_answers.items():
        key_checks = _RULES[key](value, prediction, context)
        checks.extend(key_checks)
        if key == "required_values":
            number = parse_integer(prediction)
            if number is None:
                # The reference stops at an answer that is no whole number: the score is 0 whatever follows.
                break
            # From here on the answer is that integer, compared as its text ("12" passes exact_match "12").
            prediction = str(number)
    return checks


def string_match(
    reference_answers: dict,
    answer: str,
    *,
    intent: str = "",
    string_note: str | None = None,
    judge: Judge | None = None,
) -> float:
    """1.0 when every check passes, else 0.0 (see `string_match_details`).

    Each key counts as a factor of the product. (The reference's "N/A" branch instead
    overwrote the running score with the judge's verdict; with "N/A" alone, the usual
    case, both agree.)
    """
    checks = string_match_details(reference_answers, answer, intent=intent, string_note=string_note, judge=judge)
    return float(all(check.passed for check in checks))
