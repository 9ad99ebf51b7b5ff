"""The agent's test world: a small trajectory index, SCRIPTED model replies, runs of `videodemo run`, request logs.

The index is built directly from `Trajectory` records (with real JPEG keyframes on
disk, drawn here) instead of recording the sandbox tutorials and running
`process-videos` on them: the agent only reads the index, and this takes a fraction of
a second instead of minutes. Objectives are embedded by the scripted server's hashed
bags of words (`models.embedding.backend=openai`), so FAISS ranks them for real.

Every model reply in these tests comes from the scripted OpenAI-compatible server;
its request log is what the tests read to see what each flag changed in the prompts.
"""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from model_access.messages import prompt_text
from processing.index import TrajectoryIndex
from foundation.records.trajectory import LabeledAction, Trajectory, VideoRecord
from settings import Settings, load_settings

EMBEDDING_MODEL = "scripted-embedding"
SEARCH_VIDEO = "shop_search_sort"
FORUM_VIDEO = "forum_browse_sort"
UNPROCESSED_VIDEO = "shop_order_history"  # named by task 20, never put in the index

SEARCH_ACTIONS = [
    LabeledAction("type", "Search", "headphones"),
    LabeledAction("select", "Sort By", "Price"),
    LabeledAction("hover", "Kestrel Wired Earbuds with Microphone"),
    LabeledAction("click", "Set Descending Direction"),
    LabeledAction("scroll", "page", "down"),
]
# (first action, last action, objective): 7 trajectories, more than the stage-1 bound the tests set (4).
SEARCH_SPANS = [
    (0, 0, "Search the store for headphones"),
    (1, 1, "Sort the search results by price"),
    (0, 1, "Search for headphones and sort the results by price"),
    (3, 3, "Show the most expensive results first"),
    (1, 3, "Sort the results by price and switch to descending order"),
    (0, 3, "Find the most expensive pair of headphones"),
    (0, 4, "Search for headphones, sort them by price from high to low and look through the list"),
]
LONGEST_OBJECTIVE = SEARCH_SPANS[-1][2]
SEARCH_TRANSCRIPT = (
    "Hi everyone, in this video I'll show you how to find the cheapest headphones on One Stop Market. "
    "To find the cheapest one, I open the Sort By menu and pick Price."
)
FORUM_ACTIONS = [LabeledAction("click", "Forums"), LabeledAction("click", "history")]
FORUM_SPANS = [(0, 0, "Open the list of forums"), (0, 1, "Open the history forum")]

# Markers of each prompt kind (sentences of the agent's templates).
POLICY = "Reason about the next action, then give it alone in a fenced block."
CONTINUATION = "Decide whether it should keep following that demonstration."
STAGE1 = "Decide which of them could help with the agent's next action, by their objectives."
STAGE2 = "Choose the one that helps most, or none."
INTERMEDIATE = "Now answer a question about the tutorial video"
WHOLE_VIDEO_CHOICE = "the agent will follow exactly one of them, as a whole"
DEMONSTRATION = "DEMONSTRATION FROM A TUTORIAL VIDEO"
NARRATION = "NARRATION OF A TUTORIAL VIDEO"
KINDS = {
    POLICY: "policy", CONTINUATION: "continuation", STAGE1: "stage1", STAGE2: "stage2", INTERMEDIATE: "intermediate",
    WHOLE_VIDEO_CHOICE: "whole_video_choice",
}


# ---- the index ------------------------------------------------------------------------------------


def embedding_settings(settings: Settings, server_url: str) -> Settings:
    settings.models.embedding.backend = "openai"
    settings.models.embedding.base_url = server_url
    settings.models.embedding.model = EMBEDDING_MODEL
    return settings


def _keyframe(path: Path, label: str, colour: tuple[int, int, int]) -> str:
    image = Image.new("RGB", (640, 400), colour)
    ImageDraw.Draw(image).text((20, 20), label, fill=(255, 255, 255))
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, format="JPEG", quality=80)
    return str(path)


def _trajectories(video_id: str, actions: list[LabeledAction], spans, frames: list[str]) -> list[Trajectory]:
    return [
        Trajectory(
            trajectory_id=f"{video_id}/{i}-{j}",
            video_id=video_id,
            objective=objective,
            actions=actions[i : j + 1],
            step_keyframes=frames[i : j + 1],
            first_frame=frames[i],
            last_frame=frames[j + 1],
            start_s=2.0 * i,
            end_s=2.0 * j + 1.5,
            span=(i, j),
        )
        for i, j, objective in spans
    ]


def build_index(folder: Path, server_url: str, video_files: dict[str, Path] | None = None) -> Path:
    """A trajectory index holding the search tutorial (7 trajectories) and the forum tutorial (2);
    `video_files` gives videos a real file (else their records name a path that does not exist)."""
    settings = embedding_settings(load_settings(), server_url)
    settings.paths.cache_dir = folder / "cache"
    index = TrajectoryIndex.open(folder / "index", settings)
    videos = (
        (SEARCH_VIDEO, SEARCH_ACTIONS, SEARCH_SPANS, "Finding the cheapest headphones", SEARCH_TRANSCRIPT,
         (30, 60, 120)),
        (FORUM_VIDEO, FORUM_ACTIONS, FORUM_SPANS, "Browsing and sorting forums", "", (120, 40, 40)),
    )  # fmt: skip
    for video_id, actions, spans, title, transcript, colour in videos:
        frames = [
            _keyframe(folder / "keyframes" / video_id / f"{n:03d}.jpg", f"{video_id} screen {n}", colour)
            for n in range(len(actions) + 1)
        ]
        path = str((video_files or {}).get(video_id, f"/videos/{video_id}.mp4"))
        record = VideoRecord(video_id, path, "sandbox", title=title, transcript=transcript)
        whole = _trajectories(video_id, actions, [(0, len(actions) - 1, title)], frames)[0]
        whole.trajectory_id = f"{video_id}/whole"
        trajectories = _trajectories(video_id, actions, spans, frames)
        index.add_video(video_id, trajectories, source_key="test", video=record, whole_video=whole)
    return folder / "index"


# ---- scripted replies -----------------------------------------------------------------------------


def rules_for(intent_words: str, kind_marker: str, replies: list[str]) -> list[dict[str, Any]]:
    """One rule per reply, used once each in order, for prompts of one kind about one task."""
    # Both anywhere in the prompt: selection prompts name the task before or after their introduction
    # (selection.shared_opening), the policy's before its closing sentence.
    pattern = f"^(?=.*{re.escape(kind_marker)})(?=.*{re.escape(intent_words)})"
    return [{"regex": pattern, "reply": reply, "times": 1} for reply in replies]


def action(text: str, thought: str = "The page shows what I need next.") -> str:
    return f"{thought}\n```\n{text}\n```"


def picks(*numbers: int) -> str:
    return _json_block({"picks": list(numbers), "reason": "these objectives match the next step"})


def choice(number: int | None) -> str:
    return _json_block({"choice": number, "reason": "its first screen looks like this page"})


def relevant(answer: str) -> str:
    return _json_block({"relevant": answer, "reason": "checked against the recent steps"})


def _json_block(value: dict[str, Any]) -> str:
    return "```json\n" + json.dumps(value) + "\n```"


# ---- request logs ---------------------------------------------------------------------------------


@dataclass
class Request:
    kind: str
    text: str
    images: list[str]  # mime type of each attached image, in order
    messages: list[dict[str, Any]]
    body: dict[str, Any]  # the whole request as sent (sampling and structured-output fields)


def chat_requests(server) -> list[Request]:
    requests = []
    for entry in server.requests("/chat/completions"):
        messages = entry["body"]["messages"]
        text = prompt_text(messages)
        kind = next((name for marker, name in KINDS.items() if marker in text), "other")
        requests.append(Request(kind, text, image_types(messages), messages, entry["body"]))
    return requests


def image_types(messages: list[dict[str, Any]]) -> list[str]:
    found = []
    for message in messages:
        content = message.get("content")
        for part in content if isinstance(content, list) else []:
            if part.get("type") == "image_url":
                header, _, payload = part["image_url"]["url"].partition(",")
                data = base64.b64decode(payload)
                found.append("png" if data.startswith(b"\x89PNG") else "jpeg" if data.startswith(b"\xff\xd8") else "?")
    return found


def about(requests: list[Request], intent_words: str) -> list[Request]:
    return [request for request in requests if intent_words in request.text]


def stage1_listing(request: Request) -> dict[str, list[str]]:
    """Video title -> the objectives a stage-1 prompt listed for it."""
    listing = request.text.split("OBJECTIVES OF THE AVAILABLE DEMONSTRATIONS, BY VIDEO:", 1)[1]
    listing = listing.split("Work in three steps", 1)[0]
    videos: dict[str, list[str]] = {}
    current = None
    for line in listing.splitlines():
        if line.startswith("Video "):
            current = line
            videos[current] = []
        elif current and re.match(r"\d+\. ", line):
            videos[current].append(line.split(". ", 1)[1])
    return videos


# ---- runs -----------------------------------------------------------------------------------------


def run_command(out: Path, index: Path, server_url: str, ids: str, *extra: str) -> list[str]:
    return [
        "run", "--ids", ids, "--out", str(out), "--no-progress", "--no-cache", "--index", str(index),
        "--policy-url", server_url, "--policy-model", "scripted-policy",
        "--set", "models.embedding.backend=openai", "--set", f"models.embedding.base_url={server_url}",
        "--set", f"models.embedding.model={EMBEDDING_MODEL}", "--set", "sandbox.reset_token=test-reset-token",
        "--set", "models.max_retries=0",
        # These stories are written for the ReAct agent's replies; AgentOccam's have tests/agent/test_agentoccam.py.
        "--set", "agent.base_agent=react", *extra,
    ]  # fmt: skip


def task_folder(run_dir: Path, task_id: int) -> Path:
    source = "shop" if task_id <= 35 else "forum"
    return run_dir / "tasks" / f"{source}-{task_id}"


def record(run_dir: Path, task_id: int) -> dict[str, Any]:
    return json.loads((task_folder(run_dir, task_id) / "record.json").read_text())


def steps(run_dir: Path, task_id: int) -> list[dict[str, Any]]:
    return json.loads((task_folder(run_dir, task_id) / "episode.json").read_text())["steps"]
