"""The factual (intermediate) question asked about the video itself, as VideoWA does.

VideoWA scores a factual-retention task on an answer to `intermediate_intent` that its
agents give from the video's frames and transcript. Every policy with videos asks it
here (`video_context.intermediate_from: video`), in a call of its own after the
episode, whatever it was shown while acting. The record keeps the question, the times
of the frames sent and the answer, for the task record's `policy_info`.
"""

from __future__ import annotations

from typing import Any

from agent.templates import block
from agent.video_context import TaskVideo, VideoFrames, frame_parts
from model_access.client import ModelClient
from model_access.replies import ReplyParseError, extract_code_block, strip_thinking

STAGE = "intermediate"


def answer_of(reply: str, scored: str) -> str:
    """What of a reply to the factual question is scored (`video_context.intermediate_answer`)."""
    if scored == "reply":  # VideoWA's runner matches the must-include phrases anywhere in the reply
        return strip_thinking(reply).strip()
    if scored != "fenced":
        raise ValueError(f"video_context.intermediate_answer is {scored!r}; use 'fenced' or 'reply'")
    try:
        return extract_code_block(reply)
    except ReplyParseError:
        return strip_thinking(reply).strip()


def ask_about_videos(
    client: ModelClient,
    role: str,
    question: str,
    videos: list[TaskVideo],
    frames: VideoFrames,
    transcript_chars: int,
    scored: str = "fenced",
) -> tuple[str, dict[str, Any]]:
    """(answer, record) of `question` asked over the frames and transcripts of `videos`; `scored` as in answer_of."""
    parts: list[dict[str, Any]] = []
    frame_times: dict[str, list[float]] = {}
    for video in videos:
        sampled = frames.sample(video)
        frame_times[video.video_id] = [time_s for time_s, _ in sampled]
        parts += frame_parts(video, sampled, transcript_chars)
    parts.append(block("video_question", question=question))
    result = client.chat(role, [{"role": "user", "content": parts}], stage=STAGE)
    answer = answer_of(result.text, scored)
    record = {
        "question": question,
        "asked": "the video: its frames and transcript",
        "videos": [video.video_id for video in videos],
        "frame_times": frame_times,
        "answer": answer,
        "scripted": result.scripted,
    }
    return answer, record
