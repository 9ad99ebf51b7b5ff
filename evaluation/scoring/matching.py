"""The text tests shared by string_match (the answer) and program_html (page content).

Each helper cleans both of its arguments, as the reference evaluator's helpers do.
string_match hands them an answer it has already cleaned once, so an answer loses up
to two pairs of surrounding quotes there, while page content is cleaned once.
"""

from __future__ import annotations

from evaluation.scoring.errors import ConfigError
from evaluation.scoring.text import OR_SEPARATOR, clean, split_alternatives, word_tokenize


def exact_match(reference: str, prediction: str) -> bool:
    return clean(prediction) == clean(reference)


def found(reference: str, prediction: str) -> bool:
    """The finding rule: a one-token reference must be a whole token, anything else a substring.

    "42" is not found in "420", and "23750" is not found in "23750. it was listed" either,
    because Punkt reads that period as part of the number when a lowercase word follows.
    """
    reference, prediction = clean(reference), clean(prediction)
    if len(word_tokenize(reference)) == 1:
        return reference in word_tokenize(prediction)
    return reference in prediction


def includes_item(item: str, prediction: str) -> bool:
    """One must_include item: any of its ` |OR| ` alternatives is found."""
    return any(found(alternative, prediction) for alternative in split_alternatives(item))


def excludes_item(item: str, prediction: str) -> bool:
    """One must_exclude item: it is not found. Call `check_exclude_item` on the config first."""
    return not found(item, prediction)


def check_exclude_item(item: str, key: str = "must_exclude") -> None:
    # The reference never splits must_exclude items on |OR|: string_match would search for the
    # whole "a |OR| b" (a check that always passes) and program_html asserts there is none.
    # Rejecting it keeps such a config from passing silently.
    if OR_SEPARATOR in item:
        raise ConfigError(f"{key} item {item!r} uses ' |OR| ', which must_exclude does not support; list items apart")


def one_of(items: list[str], prediction: str) -> bool:
    """Any item is a plain substring of the (already cleaned) prediction; no token rule, no |OR| split."""
    return any(clean(item) in prediction for item in items)
