"""`required_values`: numeric conditions such as "== 2" or ">= 10" on an answer or page content."""

from __future__ import annotations

import math
from typing import Callable

from evaluation.scoring.errors import ConfigError
from evaluation.scoring.text import split_alternatives

TOLERANCE = 1e-8

# Tried in this order, and the first operator found anywhere in the item wins: "<=" must be
# looked for before "<". The strict ones get the same tolerance as the others, so "< 5"
# accepts exactly 5, as in the reference evaluator.
_OPERATORS: tuple[tuple[str, Callable[[float, float], bool]], ...] = (
    ("<=", lambda value, bound: value <= bound + TOLERANCE),
    (">=", lambda value, bound: value >= bound - TOLERANCE),
    ("==", lambda value, bound: abs(value - bound) <= TOLERANCE),
    ("<", lambda value, bound: value < bound + TOLERANCE),
    (">", lambda value, bound: value > bound - TOLERANCE),
)


def parse_integer(text: str) -> int | None:
    """An answer read as a whole number the way string_match reads it: trimmed, commas removed."""
    try:
        return int(text.strip().replace(",", ""))
    except ValueError:
        return None


def parse_number(content: str | int | float) -> float | None:
    """Page content read as a number: trimmed, commas removed; None when it is not one."""
    if isinstance(content, bool):
        return None
    if isinstance(content, (int, float)):
        return float(content)
    try:
        value = float(content.strip().replace(",", ""))
    except ValueError:
        return None
    # "nan" and "inf" parse as floats but are no count or price a page would show.
    return value if math.isfinite(value) else None


def parse_condition(condition: str) -> tuple[Callable[[float, float], bool], float]:
    """The comparison and bound of one condition ("<= 5"); ConfigError when it is not one."""
    for symbol, compare in _OPERATORS:
        if symbol not in condition:
            continue
        parts = condition.split(symbol)
        bound = _float(parts[1]) if len(parts) == 2 else None
        if bound is None:
            raise ConfigError(
                f"required_values item {condition!r} does not read as '<op> <number>' (ops: <=, >=, ==, <, >)"
            )
        return compare, bound
    raise ConfigError(f"required_values item {condition!r} has no operator (use <=, >=, ==, < or >)")


def _float(text: str) -> float | None:
    try:
        return float(text.strip())
    except ValueError:
        return None


def check_requirement(requirement: str) -> None:
    """Raise ConfigError unless every ` |OR| ` alternative of the item is a valid condition."""
    if not isinstance(requirement, str):
        raise ConfigError(f"required_values item {requirement!r} is not a string like '>= 10'")
    for condition in split_alternatives(requirement):
        parse_condition(condition)


def value_meets(value: float, requirement: str) -> bool:
    """True when the number meets any ` |OR| ` alternative of the item."""
    check_requirement(requirement)
    for condition in split_alternatives(requirement):
        compare, bound = parse_condition(condition)
        if compare(value, bound):
            return True
    return False


def compare_required_value(content: str | int | float, requirement: str) -> bool:
    """Whether page content meets one `required_values` item (alternatives joined by ` |OR| `).

    The item is checked first, so a malformed one is a ConfigError whatever the content;
    content that does not read as a number simply fails.
    """
    check_requirement(requirement)
    value = parse_number(content)
    return value is not None and value_meets(value, requirement)

