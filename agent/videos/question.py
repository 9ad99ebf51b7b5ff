"""The factual (intermediate) question asked about the video itself, as VideoWA does.

VideoWA scores a factual-retention task on an answer to `intermediate_intent` that its
agents give from the video's frames and transcript. Every policy with videos asks it
here (`video_context.intermediate_from: video`), in a call of its own after the
episode, whatever it was shown while acting, with our prompt or with VideoWA's own
(`video_context.intermediate_prompt`, agent/videos/videowa_question.py). The record keeps the question, the times
of the frames sent and the answer, for the task record's `policy_info`.
"""

from __future__ import annotations

from typing import Any

from agent.base.replies import answer_of
from agent.videos.context import TaskVideo, VideoFrames, frame_parts, transcript_share
from agent.videos.templates import block
from agent.videos.videowa_question import ask_like_videowa, load_question_prompt
from foundation.errors import UserError
from model_access.client import ModelClient
from settings import Settings

STAGE = "intermediate"


def ask_about_videos(
    client: ModelClient,
    role: str,
    question: str,
    videos: list[TaskVideo],
    frames: VideoFrames,
    transcript_chars: int,
    scored: str = "fenced",
) -> tuple[str, dict[str, Any]]:
    """(answer, record) of `question` asked over the frames and transcripts of `videos`;
    `scored` as in agent.base.replies.answer_of."""
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
        **frames.quirk_record(videos),
        "answer": answer,
        "scripted": result.scripted,
    }
    return answer, record


class FactualQuestion:
    """The factual question as `video_context.intermediate_prompt` asks it. VideoWA's file is read here, when
    the policy is built, so a missing or wrong one stops the run before any task."""

    def __init__(self, settings: Settings, frames: VideoFrames) -> None:
        context = settings.video_context
        self.settings = settings
        if context.intermediate_prompt == "videowa":
            self.reference = load_question_prompt(context.videowa_question_file)
            wanted = VideoFrames(context, as_videowa_reads=True)
            self.frames = frames if frames.look == wanted.look else wanted  # one decoding when they agree
        elif context.intermediate_prompt == "ours":
            self.reference = None
            self.frames = frames
        else:
            raise UserError(f"video_context.intermediate_prompt is {context.intermediate_prompt!r}; "
                            "use 'ours' or 'videowa'")  # fmt: skip

    def ask(self, client: ModelClient, question: str, videos: list[TaskVideo]) -> tuple[str, dict[str, Any]]:
        context = self.settings.video_context
        if self.reference is None:
            chars = transcript_share(context, len(videos))
            return ask_about_videos(client, context.question_role, question, videos, self.frames, chars,
                                    context.intermediate_answer)  # fmt: skip
        reply, record = ask_like_videowa(client, context.question_role, self.reference, question, videos, self.frames)
        record["answer"] = answer_of(reply, context.intermediate_answer)
        return record["answer"], record
