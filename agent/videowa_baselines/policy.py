"""VideoWA's own video agents, as `--policy frames` and `--policy summary`, on the method's base agent.

- frames: the task's videos as frames at 1 fps (at most 60, spread evenly over a longer
  video) and their transcripts, given with the task at every step;
- summary: one summary of those frames and transcript, written for the task once per
  task (a cached model call, `video_context.summary_role`), given at every step; asked
  with our request or VideoWA's own file (`video_context.summary_prompt`).

How the frames and transcript look (size, channel order, encoding, transcript length)
is `video_context`'s; `--harness videowa` sends them as the reference does.

Both act through the same base agent and observation as the method (`agent.base_agent`),
so the only difference between a run of these and `--policy video` is how the video is
used. A task whose video cannot be read is an error in its record, with the reason: a
baseline without its video would be the base agent under another name.
"""

from __future__ import annotations

import argparse
from typing import Any

from agent.base.agent import make_base_agent
from agent.base.videowa_prompt import ReferencePrompt
from agent.videos.context import TaskVideo, VideoFrames, cut_transcript, frame_parts, load_task_videos, transcript_share
from agent.videos.question import FactualQuestion
from agent.videos.task_videos import open_index
from agent.videos.videowa_question import load_frame_understanding_prompt, question_messages
from agent.videowa_baselines.material import FramesMaterial, SummaryMaterial
from agent.videowa_baselines.templates import block
from evaluation.browser_env.episode_options import EpisodeOptions
from evaluation.browser_env.observation import Observation
from evaluation.running.policy import PolicyStep, declared_episode_options
from foundation.errors import UserError
from model_access.client import ModelClient
from model_access.messages import Message
from model_access.replies import strip_thinking
from settings import Settings

SUMMARY_STAGE = "video_summary"


class VideoBaselinePolicy:
    def __init__(self, settings: Settings, kind: str) -> None:
        self.name = kind
        self.kind = kind
        self.settings = settings
        self.client = ModelClient(settings)
        self.base = make_base_agent(settings, self.client)
        context = settings.video_context
        self.summary_prompt: ReferencePrompt | None = None
        if kind == "summary":
            self.client.role_settings(context.summary_role)  # an unconfigured role fails before any task
            self.summary_prompt = _summary_prompt(settings)
        self.client.role_settings(context.question_role)
        self.index = open_index(settings)
        self.frames = VideoFrames(context)
        self.question = FactualQuestion(settings, self.frames)
        self._reset_episode()

    def _reset_episode(self) -> None:
        self.task: Any = None
        self.videos: list[TaskVideo] = []
        self.problems: list[str] = []
        self.material: FramesMaterial | SummaryMaterial | None = None
        self.summaries: dict[str, str] = {}
        self.intermediate: dict[str, Any] | None = None

    # ---- the Policy protocol ----

    def attach_environment(self, env: Any) -> None:
        self.base.attach_environment(env)

    def episode_options(self, defaults: EpisodeOptions) -> EpisodeOptions:
        return declared_episode_options(self.base, defaults)  # what its base agent needs of the environment

    def reset(self, task: Any) -> None:
        self._reset_episode()
        self.task = task
        self.base.reset(task)
        self.videos, self.problems = load_task_videos(task, self.index, self.settings)
        if not self.videos:
            why = "; ".join(self.problems) or "the task names no tutorial video"
            raise UserError(f"--policy {self.kind} has no video to show for this task: {why}")
        chars = transcript_share(self.settings.video_context, len(self.videos))
        if self.kind == "frames":
            parts = [part for video in self.videos for part in frame_parts(video, self.frames.sample(video), chars)]
            narration = "\n\n".join(cut_transcript(video.transcript, chars) for video in self.videos
                                     if video.transcript)  # fmt: skip
            self.material = FramesMaterial(parts, narration)
        else:
            self.summaries = {video.video_id: self._summary(video, chars) for video in self.videos}
            self.material = SummaryMaterial([(video, self.summaries[video.video_id]) for video in self.videos])

    def act(self, observation: Observation) -> PolicyStep:
        return self.base.step(observation, self.material)

    def answer_intermediate(self, question: str) -> str | None:
        answer, self.intermediate = self.question.ask(self.client, question, self.videos)
        return answer

    def usage(self) -> dict[str, Any]:
        return self.client.ledger.to_dict()

    def episode_info(self) -> dict[str, Any]:
        info: dict[str, Any] = {
            "mode": self.kind,
            "videos": [video.video_id for video in self.videos],
            "frame_times": {video.video_id: [t for t, _ in self.frames.sample(video)] for video in self.videos},
        }
        info.update(self.frames.quirk_record(self.videos))  # the reference's sampling quirk, when it chose them
        if self.problems:
            info["not_used"] = self.problems
        if self.summaries:
            info["summaries"] = self.summaries
            if self.summary_prompt is not None:
                info["summary_prompt"] = self.summary_prompt.path.name
        if self.intermediate is not None:
            info["intermediate_qa"] = self.intermediate
        return info

    def close(self) -> None:
        self.base.close()
        self.client.close()

    # ---- helpers ----

    def _summary(self, video: TaskVideo, chars: int) -> str:
        """One summary of the video for this task; the model cache makes it once per task and video."""
        sampled = self.frames.sample(video)
        messages: list[Message]
        if self.summary_prompt is None:
            parts = frame_parts(video, sampled, chars)
            parts.append(block("video_summary_request", title=video.title, objective=self.task.intent))
            messages = [{"role": "user", "content": parts}]
        else:  # the reference's request: its file filled with the frames' marks, the transcript and the intent
            frames = [image for _, image in sampled]
            audio = cut_transcript(video.transcript, chars)
            messages = question_messages(self.summary_prompt, self.task.intent, frames, audio)
        role = self.settings.video_context.summary_role
        result = self.client.chat(role, messages, stage=SUMMARY_STAGE)
        summary = strip_thinking(result.text).strip()
        if not summary:
            raise UserError(f"the {role} model gave an empty summary of video {video.video_id}; check its endpoint")
        return summary


def _summary_prompt(settings: Settings) -> ReferencePrompt | None:
    """VideoWA's summary file when `video_context.summary_prompt` asks for it (read before any task)."""
    choice = settings.video_context.summary_prompt
    if choice == "ours":
        return None
    if choice != "videowa":
        raise UserError(f"video_context.summary_prompt is {choice!r}; use 'ours' or 'videowa'")
    return load_frame_understanding_prompt(settings.video_context.videowa_summary_file,
                                           "video_context.videowa_summary_file", "video_frame_understanding.json",
                                           "summary_prompt", "our summary request", "summary")  # fmt: skip


def build_frames_policy(settings: Settings, args: argparse.Namespace) -> VideoBaselinePolicy:
    return VideoBaselinePolicy(settings, "frames")


def build_summary_policy(settings: Settings, args: argparse.Namespace) -> VideoBaselinePolicy:
    return VideoBaselinePolicy(settings, "summary")
