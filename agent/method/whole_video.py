"""The `--no-trajectory-selection` ablation as the paper runs it: one video's whole action sequence, chosen once.

At the start of a task with several processed videos, the selection model (the
policy's model by default) reads the task and, per video, its title and the
objectives found in it, and names the most relevant video; a task with one video
makes no call. The video's whole action sequence (every kept action with its
keyframe, stored in the index by process-videos) is then shown at every step.
"""

from __future__ import annotations

from typing import Any

from agent.videos.candidates import CandidateSource
from agent.method.selection_replies import read_video
from agent.method.templates import render, reply_schema
from model_access.client import ModelClient
from model_access.replies import ReplyParseError
from foundation.records.trajectory import Trajectory

STAGE = "whole_video"  # the choice of the video is counted under this ledger stage
REPROCESS_HINT = "re-run process-videos into the index: indexes built before this version lack whole action lists"


def ask_for_video(
    client: ModelClient, role: str, source: CandidateSource, intent: str, video_ids: list[str], titles: dict[str, str]
) -> tuple[str, dict[str, Any]]:
    """The video the model names (the only one when there is one), and the record of the choice."""
    if len(video_ids) == 1:
        return video_ids[0], {"video": video_ids[0], "asked": "no: the task has one processed video"}
    listing = "\n\n".join(
        render(
            "whole_video_listing",
            number=n,
            title=titles.get(video_id, video_id),
            objectives="\n".join(f"- {t.objective}" for t in source.trajectories(video_id)) or "- (none named)",
        )
        for n, video_id in enumerate(video_ids, 1)
    )
    prompt = render("whole_video_choice", objective=intent, listing=listing)
    schema = reply_schema("whole_video_choice")
    reply = client.chat(role, [{"role": "user", "content": prompt}], stage=STAGE, reply_schema=schema).text
    number, reason = read_video(reply, len(video_ids))
    video_id = video_ids[number - 1]
    return video_id, {"video": video_id, "asked": "yes", "reason": reason}


def choose_whole_video(
    client: ModelClient, role: str, source: CandidateSource, intent: str, video_ids: list[str], titles: dict[str, str]
) -> tuple[Trajectory | None, dict[str, Any], str | None]:
    """(the whole-video trajectory or None, the record of the choice, why there is none)."""
    try:
        video_id, record = ask_for_video(client, role, source, intent, video_ids, titles)
    except ReplyParseError as exc:
        return None, {"asked": "yes", "error": str(exc)}, f"the choice of a video could not be read ({exc})"
    whole = source.index.whole_video(video_id)
    if whole is None:
        return None, record, f"video {video_id} has no stored action sequence ({REPROCESS_HINT})"
    record.update(trajectory_id=whole.trajectory_id, actions=whole.length)
    return whole, record, None
