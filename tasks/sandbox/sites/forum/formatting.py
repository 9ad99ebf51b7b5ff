"""How values look on the page: times, scores, link hosts, slugs and counts."""

from __future__ import annotations

import re
import time
import unicodedata
from datetime import datetime, timezone
from urllib.parse import urlparse

MINUS = "\u2212"  # Postmill prints negative scores with a real minus sign
SLUG_MAX_LENGTH = 60


def _utc(timestamp: int) -> datetime:
    return datetime.fromtimestamp(int(timestamp), tz=timezone.utc)


def iso_time(timestamp: int) -> str:
    """Machine-readable time for `<time datetime>`: 2023-03-10T00:39:36+00:00."""
    return _utc(timestamp).isoformat()


def long_time(timestamp: int) -> str:
    """Human absolute time for tooltips: March 10, 2023 at 12:39:36 AM UTC."""
    moment = _utc(timestamp)
    hour = moment.hour % 12 or 12
    suffix = "AM" if moment.hour < 12 else "PM"
    return f"{moment:%B} {moment.day}, {moment.year} at {hour}:{moment:%M:%S} {suffix} UTC"


def _count(number: int, unit: str) -> str:
    return f"{number} {unit}{'' if number == 1 else 's'} ago"


def relative_time(timestamp: int, now: float | None = None) -> str:
    """Short relative time: 'a few seconds ago', '5 minutes ago', '2 years ago'."""
    seconds = (time.time() if now is None else now) - int(timestamp)
    if seconds < 60:
        return "a few seconds ago"
    for limit, size, unit in (
        (3600, 60, "minute"),
        (86400, 3600, "hour"),
        (30 * 86400, 86400, "day"),
        (365 * 86400, 30 * 86400, "month"),
    ):
        if seconds < limit:
            return _count(int(seconds // size), unit)
    return _count(int(seconds // (365 * 86400)), "year")


def format_score(score: int) -> str:
    """Thousands separators and a true minus sign: 3,085 / −4."""
    return f"{MINUS if score < 0 else ''}{abs(int(score)):,}"


def link_host(url: str | None) -> str:
    """The host of a link post without 'www.', shown beside its title."""
    host = urlparse(url or "").hostname or ""
    return host[4:] if host.startswith("www.") else host


def slugify(title: str) -> str:
    """URL slug of a title: lowercase ASCII words joined by '-', '-' when nothing is left."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode().lower()
    slug = ""
    for word in re.findall(r"[a-z0-9]+", ascii_title):
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > SLUG_MAX_LENGTH:
            break
        slug = candidate
    return slug or "-"


def pluralize(number: int, singular: str, plural: str, zero: str | None = None) -> str:
    """'No comments' / '1 comment' / '12 comments'."""
    if number == 0 and zero is not None:
        return zero
    return f"{number:,} {singular if number == 1 else plural}"
