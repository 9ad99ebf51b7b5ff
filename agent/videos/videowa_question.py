"""VideoWA's own factual question (`video_context.intermediate_prompt: videowa`), built from the user's checkout.

The reference asks `intermediate_intent` with `agent/prompts/jsons/video_frame_intent_understanding.json`
(run_videowa.sh's --intermediate_intent_instruction_path) through its VideoFrameUnderstanding prompt
constructor. The file holds an `intro`, worked `examples` (text, reply, list of frame image paths
relative to the checkout), a `template` with `{video}`, `{audio}` and `{objective}`, and the
`answer_phrase`. Its text is read at run time from `video_context.videowa_question_file`, never
copied here. The request is laid out as that constructor does in chat mode for OpenAI:

  system: intro
  per example: user (name example_user): text, then "frame-i" and the frame for each of its frames;
               user (name example_assistant): the reply
  user: the filled template (video = "[FRAME-1] [FRAME-2] ...", audio = the whole transcript,
        objective = the question), then "frame-i" and each frame of the task's video
  user: the answer phrase

`--policy summary` asks for its summary the same way (`video_context.summary_prompt: videowa`), with
`agent/prompts/jsons/video_frame_understanding.json` and the task's intent as the objective, its frames
and transcript as `video_context` sets them (the reference's way under `--harness videowa`).

The question's frames go as the reference sends them: full size, PNG, and in OpenCV's BGR order read
as RGB (its video processor builds PIL images straight from OpenCV's arrays); the example frames
are PNG files opened as they are, so their colours are right.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agent.base.videowa_prompt import ReferencePrompt, read_prompt_file
from agent.videos.context import TaskVideo, VideoFrames
from foundation.errors import UserError
from model_access.client import ModelClient
from model_access.messages import Message, image_part, text_part

STAGE = "intermediate"
SETTING = "video_context.videowa_question_file"
FIX = "set it to agent/prompts/jsons/video_frame_intent_understanding.json in your VideoWA checkout"


def load_question_prompt(setting: str) -> ReferencePrompt:
    """Read and check the file `video_context.videowa_question_file` names; every problem is one line."""
    return load_frame_understanding_prompt(setting, SETTING, "video_frame_intent_understanding.json",
                                           "intermediate_prompt", "our question", "question")  # fmt: skip


def load_frame_understanding_prompt(
    value: str, setting: str, file_name: str, switch: str, ours: str, kind: str
) -> ReferencePrompt:
    """A file the reference reads with its VideoFrameUnderstanding constructor (the factual question's, the
    summary's), named by `setting` (its value `value`), which `video_context.<switch>: videowa` asks for."""
    fix = f"set it to agent/prompts/jsons/{file_name} in your VideoWA checkout"
    if not value:
        raise UserError(f"video_context.{switch} is videowa but {setting} is not set: {fix} "
                        f"(or --set video_context.{switch}=ours for {ours})")  # fmt: skip
    path = Path(value).expanduser()
    prompt = read_prompt_file(path, setting, fix)
    if prompt.constructor != "VideoFrameUnderstandingPromptConstructor" or not all(
        len(example) == 3 and isinstance(example[2], list) for example in prompt.examples
    ):
        raise UserError(f"{setting}: {path} is not a frame {kind} file (it names {prompt.constructor}); {fix}")
    return prompt


def question_messages(prompt: ReferencePrompt, question: str, frames: list[dict[str, Any]], audio: str) -> list[Message]:
    """The request: `frames` are image parts of the task's video, `audio` its transcript, `question` fills
    {objective} (the summary's file takes the task's intent there: agent.py:354-356)."""
    video = " ".join(f"[FRAME-{number}]" for number in range(1, len(frames) + 1))
    try:
        current = prompt.template.format(video=video, audio=audio, objective=question)
    except (KeyError, IndexError) as exc:
        raise UserError(f"{prompt.path.name}: its template asks for {exc} that the question does not give") from None
    messages: list[Message] = [{"role": "system", "content": [text_part(prompt.intro)]}]
    for text, reply, frame_paths in prompt.examples:
        content = [text_part(text)]
        for number, frame_path in enumerate(frame_paths):
            content += [text_part(f"frame-{number}"), image_part(prompt.root / frame_path)]
        messages.append({"role": "user", "name": "example_user", "content": content})
        messages.append({"role": "user", "name": "example_assistant", "content": reply})
    content = [text_part(current)]
    for number, frame in enumerate(frames):
        content += [text_part(f"frame-{number}"), frame]
    messages.append({"role": "user", "content": content})
    messages.append({"role": "user", "content": prompt.answer_phrase})
    return messages


def ask_like_videowa(
    client: ModelClient, role: str, prompt: ReferencePrompt, question: str, videos: list[TaskVideo], frames: VideoFrames
) -> tuple[str, dict[str, Any]]:
    """(the reply, the record) of the reference's question. The reference's task has one video; a task
    with several gets all their frames in order and their transcripts one after another."""
    parts: list[dict[str, Any]] = []
    frame_times: dict[str, list[float]] = {}
    for video in videos:
        sampled = frames.sample(video)
        frame_times[video.video_id] = [time_s for time_s, _ in sampled]
        parts += [image for _, image in sampled]
    audio = "\n\n".join(video.transcript for video in videos if video.transcript)
    result = client.chat(role, question_messages(prompt, question, parts, audio), stage=STAGE)
    record = {
        "question": question,
        "asked": f"the video: its frames and transcript, with VideoWA's {prompt.path.name}",
        "videos": [video.video_id for video in videos],
        "frame_times": frame_times,
        **frames.quirk_record(videos),
        "scripted": result.scripted,
    }
    return result.text, record
