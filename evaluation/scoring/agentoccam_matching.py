"""AgentOccam's matching rules (amazon-science/AgentOccam c078ba6, evaluation_harness/evaluators.py), as pure functions.

Its evaluator is WebArena's, edited; where it departs from VisualWebArena's rules
(../shared/EVALUATORS.md, our `videowa` rule set) the line is cited:

- answers and references lose surrounding whitespace before the quotes (:84);
- `must_include` is a plain substring test, except for a one-character reference in a
  list of one item, which must be a whole token (:101-130, tokenize at :168);
- a url is compared lowercased, trailing slashes gone, by host+path substring and query
  parameters as sets, with the task file's "or" alternatives (:212-269);
- page content is HTML-unescaped before it is compared (:342).

Scoring the verdicts is evaluation/scoring/agentoccam_scoring.py; these only compare.
"""

from __future__ import annotations

import html
import urllib.parse
from collections import defaultdict

from evaluation.scoring.text import word_tokenize

# `" |OR| " in clean_ref` is tested after lowercasing, so only the lowercase form ever splits (:106-107).
LOWER_OR = " |or| "
OR_SEPARATOR = " |OR| "


def clean(text: str) -> str:
    """clean_answer (:83-89): strip whitespace, then one pair of surrounding quotes, then lowercase."""
    text = text.strip()
    if text.startswith("'") and text.endswith("'"):
        text = text[1:-1]
    elif text.startswith('"') and text.endswith('"'):
        text = text[1:-1]
    return text.lower()


def exact_match(reference: str, prediction: str) -> bool:
    return clean(prediction) == clean(reference)


def _one_character_token(text: str) -> bool:
    return len(text) == 1 and len(word_tokenize(text)) == 1


def must_include(reference: str, prediction: str, tokenize: bool) -> bool:
    """One must_include item (:101-130). `tokenize` is on only when the list has one item (:168)."""
    reference, prediction = clean(reference), clean(prediction)
    if LOWER_OR in reference:
        for alternative in (part.strip() for part in reference.split(LOWER_OR)):
            if tokenize and _one_character_token(alternative):
                # :115 tokenizes the alternative itself, not the answer, so it finds itself: the item passes.
                if alternative in word_tokenize(alternative):
                    return True
            elif alternative in prediction:
                return True
        return False
    if tokenize and _one_character_token(reference):
        return reference in word_tokenize(prediction)
    return reference in prediction


def content_includes(item: str, content: str) -> bool:
    """A program_html must_include item (:355-366): split on ` |OR| `, any part a substring (no token rule)."""
    return any(must_include(part, content, tokenize=False) for part in item.split(OR_SEPARATOR))


def unescape(content: str) -> str:
    """What the page gave, as compared (:342)."""
    return html.unescape(content)


def clean_url(url: str) -> str:
    """:212-216: every trailing slash goes, and the whole URL is lowercased."""
    return str(url).rstrip("/").lower()


def _parse(url: str) -> tuple[str, dict[str, list[str]]]:
    parsed = urllib.parse.urlparse(url)
    return parsed.netloc + parsed.path, urllib.parse.parse_qs(parsed.query)


def url_group_matches(group: str, url: str) -> bool:
    """One reference group (`a |OR| b`) against the page URL (:247-268): some alternative's host+path is a
    substring of the URL's host+path, and every query parameter of the alternatives has one of its values
    (pooled over the alternatives) in the URL's; the URL may carry more parameters, in any order."""
    prediction_base, prediction_query = _parse(clean_url(url))
    bases, queries = [], defaultdict(set)
    for alternative in group.split(OR_SEPARATOR):
        base, query = _parse(clean_url(alternative))
        bases.append(base)
        for key, values in query.items():
            queries[key].update(values)
    found_base = any(base in prediction_base for base in bases)
    return found_base and all(
        any(value in prediction_query.get(key, []) for value in values) for key, values in queries.items()
    )


__all__ = [
    "clean",
    "clean_url",
    "content_includes",
    "exact_match",
    "must_include",
    "unescape",
    "url_group_matches",
]
