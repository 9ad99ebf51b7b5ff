"""Action filtering: an LLM keeps only the actions that belong to what the video teaches.

One call per video. The LLM reads the video's title, description and transcript
(cut to `filter_transcript_chars`) and the numbered action list, and answers the
numbers to keep. A reply unreadable twice keeps every action: dropping a video's
actions because of a formatting slip would lose more than it saves.
Off with `--no-action-filtering` (processing.action_filtering=false), as the method
does for VideoWA, where one video serves many tasks.
"""

from __future__ import annotations

from typing import Any

from model_access.client import ChatRequest, ModelClient
from model_access.messages import user_message
from model_access.replies import ReplyParseError, extract_json
from foundation.records.trajectory import LabeledAction, VideoRecord
from processing.stages.asking import StageStats, ask_parsed, prompt_identity, role_identity
from processing.templates import render, reply_schema
from settings.schema import Settings

STAGE = "action_filtering"
TEMPLATE = "action_filtering"


def identity(settings: Settings) -> dict[str, Any]:
    p = settings.processing
    if not p.action_filtering:
        return {"enabled": False}
    return {
        "enabled": True,
        "filter_transcript_chars": p.filter_transcript_chars,
        "prompts": prompt_identity(p, TEMPLATE),
        "model": role_identity(settings, "llm"),
    }


def video_inputs(video: VideoRecord, settings: Settings) -> dict[str, str]:
    """What the filter reads about the video (part of the stage's key)."""
    if not settings.processing.action_filtering:
        return {}
    return {
        "title": video.title or video.video_id,
        "description": video.description,
        "transcript": _cut(video.transcript, settings.processing.filter_transcript_chars),
    }


def numbered(actions: list[LabeledAction]) -> str:
    return "\n".join(f"{n}. {action.describe()}" for n, action in enumerate(actions, 1))


def parse_relevant(reply: str, count: int) -> list[int]:
    """Zero-based indices to keep, from {"relevant": [1, 3]} (a bare list is accepted too)."""
    data = extract_json(reply)
    numbers = data.get("relevant", data.get("keep")) if isinstance(data, dict) else data
    if not isinstance(numbers, list):
        raise ReplyParseError('"relevant" list', reply)
    keep = set()
    for value in numbers:
        try:
            number = int(value)
        except (TypeError, ValueError):
            continue
        if 1 <= number <= count:
            keep.add(number - 1)
    return sorted(keep)


def filter_actions(
    video: VideoRecord, actions: list[LabeledAction], settings: Settings, client: ModelClient
) -> tuple[list[int], StageStats]:
    """Indices of the actions to keep (all of them when filtering is off or there is nothing to filter)."""
    if not settings.processing.action_filtering or not actions:
        return list(range(len(actions))), StageStats()
    inputs = video_inputs(video, settings)
    prompt = render(
        TEMPLATE,
        settings.processing,
        title=inputs["title"],
        description=inputs["description"] or "(none)",
        transcript=inputs["transcript"] or "(none)",
        actions=numbered(actions),
    )
    schema = reply_schema(TEMPLATE, settings.processing)
    request = ChatRequest("llm", [user_message(prompt)], STAGE, reply_schema=schema)
    outcome = ask_parsed(
        client, [request], lambda _, reply: parse_relevant(reply, len(actions)), settings.processing, [video.video_id]
    )
    kept = outcome.values[0]
    return (list(range(len(actions))) if kept is None else kept), outcome.stats


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: max(0, limit)].rsplit(" ", 1)[0] + " ..."
