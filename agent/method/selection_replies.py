"""Reading the three selection replies. Each returns its decision or raises `ReplyParseError`,
which the selector records as "no demonstration this step" (never a crash)."""

from __future__ import annotations

from typing import Any

from model_access.replies import ReplyParseError, extract_json, parse_yes_no

_YES = {"yes", "true", "relevant", "y"}
_NO = {"no", "false", "not relevant", "n"}
_NONE = {"", "none", "null", "no", "n/a"}


def read_continuation(reply: str) -> tuple[bool, str]:
    """(still relevant, reason)."""
    data = _object_or_none(reply)
    if data is None:
        return parse_yes_no(reply), ""  # a bare "yes" or "no" is a clear answer too
    value = data.get("relevant")
    if isinstance(value, bool):
        return value, _reason(data)
    word = str(value).strip().lower()
    if value is None or word not in _YES | _NO:
        raise ReplyParseError('"relevant": yes or no', reply)
    return word in _YES, _reason(data)


def read_picks(reply: str) -> tuple[list[int], str]:
    """(the numbers picked in stage 1, in the reply's order, repeats dropped; reason)."""
    value = extract_json(reply)
    data = value if isinstance(value, dict) else {"picks": value}
    picks = data.get("picks", data.get("candidates"))
    if picks is None:
        raise ReplyParseError('"picks" list', reply)
    if not isinstance(picks, list):
        picks = [] if str(picks).strip().lower() in _NONE else [picks]
    numbers: list[int] = []
    for item in picks:
        number = _number(item)
        if number is None:
            raise ReplyParseError("list of candidate numbers", reply)
        if number not in numbers:
            numbers.append(number)
    return numbers, _reason(data)


def read_choice(reply: str) -> tuple[int | None, str]:
    """(the number chosen in stage 2, or None for none; reason)."""
    data = _object_or_none(reply)
    if data is None or "choice" not in data:
        raise ReplyParseError('"choice" field', reply)
    value = data["choice"]
    if value is None or (isinstance(value, str) and value.strip().lower() in _NONE):
        return None, _reason(data)
    number = _number(value)
    if number is None:
        raise ReplyParseError("candidate number or null", reply)
    return number, _reason(data)


def _object_or_none(reply: str) -> dict[str, Any] | None:
    try:
        value = extract_json(reply)
    except ReplyParseError:
        return None
    return value if isinstance(value, dict) else None


def _number(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    text = str(value).strip().lstrip("#").strip()
    return int(text) if text.isdigit() else None


def _reason(data: dict[str, Any]) -> str:
    return " ".join(str(data.get("reason") or "").split())


def read_video(reply: str, count: int) -> tuple[int, str]:
    """The 1-based video number from {"video": 2, "reason": ...}, for the whole-video ablation's choice."""
    data = _object_or_none(reply)
    number = _number(data.get("video")) if data is not None else None
    if number is None or not 1 <= number <= count:
        raise ReplyParseError(f"video number between 1 and {count}", reply)
    return number, _reason(data or {})
