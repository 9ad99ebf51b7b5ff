"""From a query to candidate videos: search pages, then details, then the duration and language filter.

Language: a video's spoken language (`defaultAudioLanguage`) decides when the uploader
gave one; else the language of its title and description (`defaultLanguage`). Codes
match on their first part, so "en-US" and "en-GB" are English. Many tutorials state no
language at all. Those are kept when the wanted language is English and their title is
written in Latin script: the search already asked for English results
(`relevanceLanguage`), and the content check later reads the transcript. A title mostly
in another script is left out. Both cases record their reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from retrieval.manifest import ErrorRecord, Rejection
from retrieval.youtube import PAGE_SIZE, ApiError, YouTubeApi
from settings.schema import RetrievalSettings

_ISO_DURATION = re.compile(r"^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$")
# Codes that name no language: no speech, undetermined, several.
_NO_LANGUAGE = {"zxx", "und", "mul"}
LATIN_SHARE = 0.9  # share of a title's letters that must be ASCII for "written in Latin script"


@dataclass
class Candidate:
    youtube_id: str
    title: str
    description: str
    channel: str
    duration_s: float
    language: str | None  # the code that decided, None when the video states none
    language_note: str  # why the language check let it through


@dataclass
class CandidateSearch:
    query: str
    found: int = 0  # distinct videos the search returned (up to results_per_query)
    candidates: list[Candidate] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)
    errors: list[ErrorRecord] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.errors


def find_candidates(api: YouTubeApi, query: str, settings: RetrievalSettings) -> CandidateSearch:
    result = CandidateSearch(query)
    snippets = _search(api, query, settings, result)
    result.found = len(snippets)
    details = _details(api, list(snippets), result)
    for youtube_id, snippet in snippets.items():
        title = str(snippet.get("title", ""))
        item = details.get(youtube_id)
        if item is None:
            if youtube_id in details.failed:
                continue  # the batch failed: an error is recorded, the video is neither kept nor judged
            result.rejected.append(
                Rejection(youtube_id, title, "details", "the API returned no details: private or removed")
            )
            continue
        full = item.get("snippet", {})
        title = str(full.get("title", title))
        description = str(full.get("description", snippet.get("description", "")))
        duration = parse_iso_duration(item.get("contentDetails", {}).get("duration"))
        if not duration:
            result.rejected.append(Rejection(youtube_id, title, "duration", "no duration: a live stream or premiere"))
            continue
        if duration >= settings.max_duration_s:
            limit = clock(settings.max_duration_s)
            result.rejected.append(
                Rejection(youtube_id, title, "duration", f"{clock(duration)} long, not under {limit}")
            )
            continue
        keep, language, reason = language_verdict(full, title, settings.language)
        if not keep:
            result.rejected.append(Rejection(youtube_id, title, "language", reason))
            continue
        channel = str(full.get("channelTitle", snippet.get("channelTitle", "")))
        result.candidates.append(Candidate(youtube_id, title, description, channel, duration, language, reason))
    return result


def _search(api: YouTubeApi, query: str, settings: RetrievalSettings, result: CandidateSearch) -> dict[str, dict]:
    """Search snippets by video id, in rank order, paging until `results_per_query` or the last page."""
    snippets: dict[str, dict] = {}
    token: str | None = None
    while len(snippets) < settings.results_per_query:
        wanted = min(PAGE_SIZE, settings.results_per_query - len(snippets))
        try:
            page = api.search_page(query, wanted, token, settings.language)
        except ApiError as exc:
            result.errors.append(ErrorRecord("search", str(exc)))
            break
        for item in page.get("items", []):
            youtube_id = item.get("id", {}).get("videoId")
            if youtube_id and youtube_id not in snippets and len(snippets) < settings.results_per_query:
                snippets[youtube_id] = item.get("snippet", {})
        token = page.get("nextPageToken")
        if not token or not page.get("items"):
            break
    return snippets


class _Details(dict):
    """Details by video id, and the ids whose batch request failed."""

    def __init__(self) -> None:
        super().__init__()
        self.failed: set[str] = set()


def _details(api: YouTubeApi, ids: list[str], result: CandidateSearch) -> _Details:
    details = _Details()
    for start in range(0, len(ids), PAGE_SIZE):
        batch = ids[start : start + PAGE_SIZE]
        try:
            response = api.video_details(batch)
        except ApiError as exc:
            result.errors.append(ErrorRecord("details", f"{exc} ({len(batch)} videos left unjudged)"))
            details.failed.update(batch)
            continue
        for item in response.get("items", []):
            if item.get("id") in batch:
                details[item["id"]] = item
    return details


def language_verdict(snippet: dict, title: str, wanted: str) -> tuple[bool, str | None, str]:
    """(keep, the deciding language code or None, the reason)."""
    wanted = wanted.replace("_", "-").split("-")[0].lower()
    for what, name in (("spoken", "defaultAudioLanguage"), ("title and description", "defaultLanguage")):
        code = str(snippet.get(name) or "").strip()
        primary = code.replace("_", "-").split("-")[0].lower()
        if not primary or primary in _NO_LANGUAGE:
            continue
        if primary == wanted:
            return True, code, f"{what} language {code}"
        return False, code, f"{what} language {code}, not {wanted}"
    if wanted != "en":
        return True, None, "language not stated; kept for the content check"
    if latin_script(title):
        return True, None, "language not stated; kept: Latin-script title, and the content check reads the transcript"
    return False, None, "language not stated and the title is not in Latin script"


def latin_script(text: str) -> bool:
    letters = [char for char in text if char.isalpha()]
    if not letters:
        return True
    return sum(char.isascii() for char in letters) / len(letters) >= LATIN_SHARE


def parse_iso_duration(text: object) -> float | None:
    """Seconds of an ISO-8601 duration as YouTube writes them ("PT4M13S", "P1DT2H"); None if unreadable."""
    match = _ISO_DURATION.match(str(text or ""))
    if not match or not any(match.groups()):
        return None
    days, hours, minutes, seconds = (float(group) if group else 0.0 for group in match.groups())
    return days * 86400 + hours * 3600 + minutes * 60 + seconds


def clock(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"
