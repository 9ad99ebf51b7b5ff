"""Coarse selection: the LLM reads the task and every candidate's title and description and
picks at most `coarse_max_videos`, best first, each with a reason.

Only ids from the candidate list count: made-up ids, and picks beyond the limit, are
dropped and recorded, as is every candidate that was not picked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from model_access.client import ModelClient
from model_access.messages import user_message
from model_access.replies import ReplyParseError, extract_json_list
from retrieval.applications import Application
from retrieval.candidates import Candidate, clock
from retrieval.manifest import Rejection
from retrieval.prompt_templates import render, reply_schema

STAGE = "coarse_selection"
DESCRIPTION_CHARS = 300  # a description's opening says what the video is; the rest is links and hashtags
_ID_FIELDS = ("id", "video_id", "youtube_id", "videoId")


@dataclass
class Pick:
    candidate: Candidate
    rank: int  # 1 = best
    reason: str


@dataclass
class CoarseSelection:
    picks: list[Pick] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)
    error: str | None = None


def select_coarse(
    client: ModelClient, application: Application, intent: str, candidates: list[Candidate], max_videos: int
) -> CoarseSelection:
    if not candidates:
        return CoarseSelection()
    prompt = render(
        "coarse",
        max_videos=max_videos,
        application=application.description,
        task=intent,
        videos="\n".join(_line(candidate) for candidate in candidates),
    )
    reply = client.chat("llm", [user_message(prompt)], stage=STAGE, reply_schema=reply_schema("coarse")).text
    try:
        items = extract_json_list(reply)
    except ReplyParseError as exc:
        return CoarseSelection(error=f"coarse selection reply unreadable, no video picked: {exc}")
    return read_picks(items, candidates, max_videos)


def read_picks(items: list, candidates: list[Candidate], max_videos: int) -> CoarseSelection:
    by_id = {candidate.youtube_id: candidate for candidate in candidates}
    selection = CoarseSelection()
    chosen: set[str] = set()
    for item in items:
        youtube_id, reason = _id_and_reason(item)
        if not youtube_id or youtube_id in chosen:
            continue  # no id, or named twice: the first place counts
        if youtube_id not in by_id:
            reason = "picked, but not among the search results (an id the model made up); dropped"
            selection.rejected.append(Rejection(youtube_id, "", "coarse", reason))
            continue
        chosen.add(youtube_id)
        candidate = by_id[youtube_id]
        if len(selection.picks) >= max_videos:
            reason = f"picked after the first {max_videos}; dropped"
            selection.rejected.append(Rejection(youtube_id, candidate.title, "coarse", reason))
            continue
        selection.picks.append(Pick(candidate, len(selection.picks) + 1, reason))
    for candidate in candidates:
        if candidate.youtube_id not in chosen:
            reason = "not picked by the coarse selection"
            selection.rejected.append(Rejection(candidate.youtube_id, candidate.title, "coarse", reason))
    return selection


def _id_and_reason(item: object) -> tuple[str, str]:
    if isinstance(item, dict):
        youtube_id = next((str(item[name]) for name in _ID_FIELDS if item.get(name)), "")
        return youtube_id.strip().strip("[]"), str(item.get("reason", "")).strip()
    return str(item).strip().strip("[]"), ""


def _line(candidate: Candidate) -> str:
    description = " ".join(candidate.description.split())
    if len(description) > DESCRIPTION_CHARS:
        description = description[:DESCRIPTION_CHARS].rsplit(" ", 1)[0] + " ..."
    title = " ".join(candidate.title.split())
    return f"[{candidate.youtube_id}] {title} ({clock(candidate.duration_s)}): {description or '(no description)'}"
