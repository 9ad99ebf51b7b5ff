"""program_html: the site's state after the episode, read from pages and checked against `required_contents`.

Rules: ../shared/EVALUATORS.md. Per entry `{url, locator, required_contents, prep_actions?}`:

- url: `last` stays on the current page; `func:NAME(...)` asks a site helper (`__last_url__`
  is the URL the agent ended on); anything else is opened and waited for.
- locator: empty = the page's HTML; `document.` / `[...document.` = a JS expression run after
  `prep_actions`, its value as text, "" when it throws; `lambda:` = a JS function whose error or
  falsy value fails the entry; `func:NAME(__page__, ...)` = a site helper.
- required_contents: only the first key present, in the order exact_match, must_include,
  must_exclude, required_values, fuzzy_match, is checked. Every entry must pass.

The whole block is checked before any page is touched, so a broken config is a
ConfigError whatever the agent did. Reading a page is `read_entry`; judging what was
read is `check_required_contents`, a pure function that re-scoring from saved
evidence uses too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Callable

from playwright.sync_api import Error as PlaywrightError

from evaluation.scoring import matching
from evaluation.scoring.errors import ConfigError, Unscorable
from evaluation.scoring.judge import CORRECT, Judge
from evaluation.scoring.reference_quirks import REDDIT_COMMENT_TIME, comment_time_content
from evaluation.scoring.site_helpers import HelperContext, call_helper, prepare_call
from evaluation.scoring.site_helpers.rest import SiteHelperError
from evaluation.scoring.string_match import Check
from evaluation.scoring.text import split_alternatives
from evaluation.scoring.values import check_requirement, compare_required_value, parse_number

LAST = "last"
FUNC = "func:"
LAMBDA = "lambda:"
JS_PREFIXES = ("document.", "[...document.")
# The order in which required_contents keys are looked for; only the first present one counts.
CONTENT_KEYS = ("exact_match", "must_include", "must_exclude", "required_values", "fuzzy_match")
# What a record keeps of each content read (the evidence file keeps it whole).
RECORD_CONTENT_CHARS = 2000
SETTLE_AFTER_OPEN_MS = 3000


@dataclass
class EntryResult:
    index: int
    url: str  # as configured
    visited_url: str  # the page the content was read from
    locator: str
    key: str | None  # the required_contents rule that was checked
    content: Any  # what the locator gave (None: the lambda gave nothing)
    passed: bool
    checks: list[Check] = field(default_factory=list)
    ignored_keys: list[str] = field(default_factory=list)
    note: str = ""
    quirk: str = ""  # a reference quirk that decided this entry (evaluation/scoring/reference_quirks.py)
    without_quirk_passed: bool | None = None  # the entry's outcome on the content read, when a quirk decided it

    def to_dict(self, content_chars: int | None = RECORD_CONTENT_CHARS) -> dict[str, Any]:
        content = json_safe(self.content)
        if content_chars is not None and isinstance(content, str) and len(content) > content_chars:
            content = content[:content_chars] + f"... [{len(content) - content_chars} more characters]"
        return {
            "index": self.index,
            "url": self.url,
            "visited_url": self.visited_url,
            "locator": self.locator,
            "key": self.key,
            "ignored_keys": self.ignored_keys,
            "content": content,
            "passed": self.passed,
            "checks": [check.__dict__ for check in self.checks],
            "note": self.note,
            **({"quirk": self.quirk, "without_quirk_passed": self.without_quirk_passed} if self.quirk else {}),
        }


# ---- checking the config -------------------------------------------------------------------


def check_entries(entries: Any) -> None:
    """Raise ConfigError unless every entry can be applied as written."""
    if not isinstance(entries, list) or not entries:
        raise ConfigError(f"program_html needs a non-empty list of entries, got {entries!r}")
    for index, entry in enumerate(entries):
        where = f"program_html[{index}]"
        if not isinstance(entry, dict):
            raise ConfigError(f"{where} must be an object with url, locator and required_contents")
        url, locator = entry.get("url"), entry.get("locator")
        check_url_spec(url, f"{where}.url")
        if not isinstance(locator, str):
            raise ConfigError(f"{where}.locator must be a string (empty for the whole page), got {locator!r}")
        locator_kind(locator, where)
        prep = entry.get("prep_actions", [])
        if not isinstance(prep, list) or not all(isinstance(action, str) for action in prep):
            raise ConfigError(f"{where}.prep_actions must be a list of JavaScript snippets, got {prep!r}")
        rule_to_check(entry.get("required_contents"), where)


def check_url_spec(url: Any, where: str) -> None:
    """Raise ConfigError unless `url` is 'last', a URL, or a func: call whose helper exists."""
    if not isinstance(url, str) or not url.strip():
        raise ConfigError(f"{where} must be 'last', 'func:NAME(...)' or a URL, got {url!r}")
    if url.startswith(FUNC):
        prepare_call(url[len(FUNC) :])


def locator_kind(locator: str, where: str = "program_html") -> str:
    """"page", "js", "lambda" or "func" (whose call is checked here too)."""
    if not locator.strip():
        return "page"
    if locator.startswith(JS_PREFIXES):
        return "js"
    if locator.startswith(LAMBDA):
        return "lambda"
    if locator.startswith(FUNC):
        prepare_call(locator[len(FUNC) :])
        return "func"
    raise ConfigError(f"{where}.locator {locator!r} is not empty, document..., lambda:... or func:...")


def rule_to_check(required_contents: Any, where: str = "program_html") -> tuple[str, Any, list[str]]:
    """(key, value, ignored keys): the first present key of CONTENT_KEYS, its value checked."""
    if not isinstance(required_contents, dict):
        raise ConfigError(f"{where}.required_contents must be an object, got {required_contents!r}")
    present = [key for key in CONTENT_KEYS if key in required_contents]
    if not present:
        raise ConfigError(
            f"{where}.required_contents has none of {', '.join(CONTENT_KEYS)} (keys: {', '.join(required_contents)})"
        )
    key = present[0]
    value = required_contents[key]
    # Keys after the first are never looked at (the reference's if/elif chain); so are unknown keys.
    ignored = [name for name in required_contents if name != key]
    if key == "exact_match":
        if not isinstance(value, str):
            raise ConfigError(f"{where}.required_contents.exact_match must be a string, got {value!r}")
    elif key == "fuzzy_match":
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(f"{where}.required_contents.fuzzy_match must be a non-empty string, got {value!r}")
    else:
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise ConfigError(f"{where}.required_contents.{key} must be a list of strings, got {value!r}")
        for item in value:
            if key == "must_exclude":
                matching.check_exclude_item(item, f"{where}.required_contents.must_exclude")
            if key == "required_values":
                check_requirement(item)
    return key, value, ignored


# ---- judging what was read -----------------------------------------------------------------


def content_text(content: Any) -> str:
    """Content as the text rules see it: strings as they are, anything else as Python's str() writes it
    (the reference hands non-string values to the text rules that way: True -> "True", 3 -> "3")."""
    return content if isinstance(content, str) else str(content)


def check_required_contents(
    required_contents: dict, content: Any, *, intent: str = "", judge: Judge | None = None
) -> tuple[str, list[Check]]:
    """The key checked and one Check per item; pure, so saved content can be judged again later."""
    key, value, _ = rule_to_check(required_contents)
    text = content_text(content)
    if key == "exact_match":
        passed = matching.exact_match(value, text)
        return key, [Check(key, value, passed, "equal" if passed else "not equal")]
    checks = []
    if key == "must_include":
        for item in value:
            passed = matching.includes_item(item, text)
            checks.append(Check(key, item, passed, "found" if passed else "not found"))
    elif key == "must_exclude":
        for item in value:
            passed = matching.excludes_item(item, text)
            checks.append(Check(key, item, passed, "absent" if passed else "found"))
    elif key == "required_values":
        number = content if isinstance(content, (int, float)) else parse_number(text)
        if number is None:
            # Fails even with an empty list: the reference zeroes the entry before looking at the items.
            return key, [Check(key, item, False, "content is not a number") for item in value or [""]]
        number = float(number)  # True counts as 1, as in the reference's comparison
        for item in value:
            checks.append(Check(key, item, compare_required_value(number, item), f"content read as {number:g}"))
    else:
        checks = _fuzzy_checks(value, text, intent, judge)
    return key, checks


def _fuzzy_checks(value: str, text: str, intent: str, judge: Judge | None) -> list[Check]:
    if judge is None:
        raise Unscorable("program_html fuzzy_match needs an LLM judge; configure models.judge to score this task")
    checks = []
    # The reference multiplies the verdicts of every ` |OR| ` part, so here each part must pass.
    for reference in split_alternatives(value):
        verdict = judge.grade(intent, reference, text)
        checks.append(Check("fuzzy_match", reference, verdict == CORRECT, f"judge: {verdict}"))
    return checks


# ---- reading pages ---------------------------------------------------------------------------


def open_url(page: Any, url: str, navigation_timeout_ms: int, fixed_wait_ms: int = 0) -> None:
    """Open `url` and wait for it to load, then for its requests to finish (at most a few seconds);
    with `fixed_wait_ms`, for exactly that long instead, as the reference does (3 s)."""
    try:
        page.goto(url, wait_until="load", timeout=navigation_timeout_ms)
    except PlaywrightError as exc:
        raise SiteHelperError(f"could not open {url} to check it: {str(exc).splitlines()[0]}") from None
    if fixed_wait_ms > 0:
        page.wait_for_timeout(fixed_wait_ms)  # pages that render late (GitLab) are read as the reference reads them
        return
    try:
        page.wait_for_load_state("networkidle", timeout=SETTLE_AFTER_OPEN_MS)
    except PlaywrightError:
        pass  # a page that keeps polling is read as it is


def resolve_url(url: str, context: HelperContext) -> str:
    """`last`, the helper's URL for `func:...`, or the URL itself."""
    if url.startswith(FUNC):
        target = call_helper(url[len(FUNC) :], context)
        if not isinstance(target, str):
            raise SiteHelperError(f"{url} gave {target!r}, not a URL")
        return target
    return url


def read_entry(
    entry: dict, page: Any, context: HelperContext, navigation_timeout_ms: int = 30000, fixed_wait_ms: int = 0
) -> tuple[Any, str]:
    """(content, page URL it was read from) for one entry; the config must have passed `check_entries`."""
    target = resolve_url(entry["url"], context)
    if target != LAST:
        open_url(page, target, navigation_timeout_ms, fixed_wait_ms)
    locator: str = entry["locator"]
    kind = locator_kind(locator)
    if kind == "page":
        return page.content(), page.url
    if kind == "js":
        for action in entry.get("prep_actions", []):
            try:
                page.evaluate(f"() => {action}")
            except PlaywrightError:
                break  # as in the reference: the first failing preparation ends the preparations, silently
        try:
            value = content_text(page.evaluate(f"() => {locator}"))
        except PlaywrightError:
            value = ""
        return value, page.url
    if kind == "lambda":
        try:
            value = page.evaluate(locator[len(LAMBDA) :])
        except PlaywrightError:
            value = None
        return (value if value else None), page.url
    return call_helper(locator[len(FUNC) :], context), page.url


def program_html_details(
    entries: list[dict],
    page: Any,
    *,
    final_url: str,
    base_url: Callable[[str], str],
    intent: str = "",
    judge: Judge | None = None,
    navigation_timeout_ms: int = 30000,
    fixed_wait_ms: int = 0,
    quirks: frozenset[str] = frozenset(),
) -> list[EntryResult]:
    """Read and check every entry in order. Raises ConfigError, Unscorable, or SiteHelperError
    (a site could not be read: the evaluation is an error, not a 0). `quirks`: the reference quirks
    on (evaluation/scoring/reference_quirks.py); `content` stays what the page gave."""
    check_entries(entries)
    if any(rule_to_check(entry["required_contents"])[0] == "fuzzy_match" for entry in entries) and judge is None:
        raise Unscorable("program_html fuzzy_match needs an LLM judge; configure models.judge to score this task")
    context = HelperContext(page=page, last_url=final_url, base_url=base_url)
    results = []
    for index, entry in enumerate(entries):
        content, visited = read_entry(entry, page, context, navigation_timeout_ms, fixed_wait_ms)
        key, _, ignored = rule_to_check(entry["required_contents"])
        result = EntryResult(index, entry["url"], visited, entry["locator"], key, content, False, ignored_keys=ignored)
        if content is None:
            result.note = "the lambda locator threw or gave a falsy value, which fails the entry"
        else:
            judge_entry(result, entry, content, quirks, intent=intent, judge=judge)
        results.append(result)
    return results


def judge_entry(
    result: EntryResult, entry: dict, content: Any, quirks: frozenset[str], *, intent: str, judge: Judge | None
) -> str:
    """Fill `result.checks` and `result.passed` from the content read, or, where a reference quirk replaces
    what the entry's helper gives, from the reference's value (the content read is then judged too, and kept).
    Returns the required_contents key checked."""
    applies, reference_value = comment_time_content(entry["locator"], quirks)
    judged = reference_value if applies else content
    key, result.checks = check_required_contents(entry["required_contents"], judged, intent=intent, judge=judge)
    result.passed = all(check.passed for check in result.checks)
    if applies:
        _, own = check_required_contents(entry["required_contents"], content, intent=intent, judge=judge)
        result.quirk = REDDIT_COMMENT_TIME
        result.without_quirk_passed = all(check.passed for check in own)
        outcome = "passes" if result.without_quirk_passed else "fails"
        result.note = (
            f"reference quirk {REDDIT_COMMENT_TIME}: checked against {reference_value!r}, what the reference's helper "
            f"gives (naive vs aware comment time); the content read {outcome}"
        )
    return key


def json_safe(value: Any) -> Any:
    """A value as JSON can hold it (page results may carry dates)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(key): json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    return str(value)


__all__ = [
    "CONTENT_KEYS",
    "EntryResult",
    "check_entries",
    "check_required_contents",
    "content_text",
    "judge_entry",
    "program_html_details",
    "read_entry",
    "rule_to_check",
]
