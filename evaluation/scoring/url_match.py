"""url_match: the URL of the page the agent ended on against the task's `reference_url`."""

from __future__ import annotations

from evaluation.scoring.errors import ConfigError
from evaluation.scoring.text import split_alternatives

EXACT = "EXACT"
GOLD_IN_PRED = "GOLD in PRED"


def normalize_url(url: str) -> str:
    """`localhost` becomes 127.0.0.1 and one trailing slash goes.

    Every "localhost" in the string is replaced, query and path included, as the reference
    does; both sides get the same treatment, so this only matters for odd URLs.
    """
    url = url.replace("localhost", "127.0.0.1")
    return url[:-1] if url.endswith("/") else url


def reference_urls(reference_url: str) -> list[str]:
    """The normalised ` |OR| ` alternatives; ConfigError for a missing or empty one."""
    if not isinstance(reference_url, str) or not reference_url.strip():
        # With an empty reference, "GOLD in PRED" would pass every URL (the reference evaluator lets it).
        raise ConfigError(f"url_match needs a reference_url, got {reference_url!r}")
    alternatives = split_alternatives(reference_url)
    if not all(alternative.strip() for alternative in alternatives):
        raise ConfigError(f"reference_url {reference_url!r} has an empty ' |OR| ' alternative")
    return [normalize_url(alternative) for alternative in alternatives]


def url_match(reference_url: str, url_note: str | None, url: str) -> float:
    """1.0 when the final URL matches the reference under the task's `url_note`, else 0.0.

    `url_note` None (absent) means EXACT: equal to one alternative, query string included.
    "GOLD in PRED": some alternative is a substring of the URL. Any other note, the empty
    string included, is a ConfigError.
    """
    rule = EXACT if url_note is None else url_note
    if rule not in (EXACT, GOLD_IN_PRED):
        raise ConfigError(f"url_note {url_note!r} is not a known rule (use {EXACT!r} or {GOLD_IN_PRED!r})")
    references = reference_urls(reference_url)
    prediction = normalize_url(url)
    if rule == EXACT:
        return float(prediction in references)
    return float(any(reference in prediction for reference in references))
