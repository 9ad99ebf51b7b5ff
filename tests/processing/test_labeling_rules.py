"""The labeling rules on a sandbox tutorial: reasoning before the JSON, hovers with no effect dropped by the
kind filter, a typing split over three clips merged into one action by the whole-list merge.

The tutorial is recorded from the running sandbox (real Chromium, real video); the VLM and LLM replies are
SCRIPTED: they stand for what a model would say about each clip, not what one said.
"""

from __future__ import annotations

import json
import re

import pytest

from model_access.client import ModelClient
from model_access.messages import prompt_text
from processing.changed_frames import detect_changed_frames
from foundation.records.trajectory import VideoRecord
from processing.stages.labeling import VlmLabeler
from processing.stages.merging import merge_clips
from tasks.sandbox.tutorials.recorder import record_one
from tasks.sandbox.tutorials.script import load_script

TYPING_CLIP = """
title: Search for headphones
description: Search the store for headphones.
site: shop
start_url: /
login: no
steps:
  - say: I click the search box and type what I am looking for, then press Enter.
    type: {target: {role: searchbox, name: Search}, text: wireless headphones, enter: yes}
"""
CLIP_FRAMES, CLIP_OVERLAP = 3, 1  # clips 0-2, 2-4, 4-6...: six keyframes make three clips


def _clip_reply(reasoning: str, actions: list[dict]) -> str:
    return f"REASONING:\n{reasoning}\nACTIONS:\n```json\n{json.dumps(actions)}\n```"


def _act(kind: str, target: str, text: str, start: int, end: int) -> dict:
    return {"type": kind, "target": target, "text": text, "start_frame": start, "end_frame": end}


# What the scripted VLM "sees" per clip (by its first frame). The reasoning quotes brackets and a decoy list,
# which must not be read.
CLIP_REPLIES = {
    0: _clip_reply(
        'The pointer opens the [Electronics] menu, e.g. not [{"type": "goto"}]. Then the search box is clicked '
        "and typing starts.",
        [
            _act("hover", "Electronics", "Electronics menu", 0, 0),
            _act("click", "Search", "", 1, 1),
            _act("type", "Search", "wirel", 2, 2),
        ],
    ),
    2: _clip_reply(
        "The pointer rests on My Account without effect; the typing goes on.",
        [_act("hover", "My Account", "", 3, 3), _act("type", "Search", "wireless head", 4, 4)],
    ),
    4: _clip_reply(
        "The text is complete, then Enter is pressed.",
        [_act("type", "Search", "wireless headphones", 4, 4), _act("press", "", "Enter", 5, 5)],
    ),
}
MERGE_REPLY = (
    "REASONING:\nEntries 2, 3 and 4 are one text typed into the search box, cut by the clip borders.\n"
    "MERGED ACTIONS:\n```json\n"
    '[{"original_action_ids": [2, 3, 4], "type": "type", "target": "Search", "text": "wireless headphones"}]\n```'
)


@pytest.fixture(scope="module")
def typing_tutorial(sandbox, chromium, tmp_path_factory):
    folder = tmp_path_factory.mktemp("typing-tutorial")
    script_path = folder / "typing.yaml"
    script_path.write_text(TYPING_CLIP.lstrip(), encoding="utf-8")
    settings = sandbox.settings
    files = record_one(settings, load_script(script_path), chromium, folder).files
    return files.video


def test_labeling_and_merging_give_the_cleaned_merged_action_list(typing_tutorial, tmp_path, scripted_server):
    rules = [
        {"regex": rf"This clip shows frames {first} to \d+ ", "reply": reply} for first, reply in CLIP_REPLIES.items()
    ]
    rules.append({"contains": "This clip shows frames", "reply": _clip_reply("Nothing happens.", [])})
    rules.append({"contains": "may have been written down twice", "reply": MERGE_REPLY})
    server = scripted_server({"name": "labeling-rules", "rules": rules})
    from settings import load_settings

    settings = load_settings()
    settings.paths.cache_dir = tmp_path / "cache"
    for role in ("vlm", "llm"):
        getattr(settings.models, role).base_url = server.base_url
        getattr(settings.models, role).model = f"scripted-{role}"
    p = settings.processing
    p.clip_frames, p.clip_overlap, p.model_image_max_side = CLIP_FRAMES, CLIP_OVERLAP, 320
    p.decode_frames = "all"  # exact 2 fps grid: this test is about labeling, so the keyframes are pinned

    keyframes = detect_changed_frames(typing_tutorial, p, tmp_path / "keyframes")
    assert len(keyframes) >= 6, "the typing must span at least three clips"
    video = VideoRecord("typing", str(typing_tutorial), "sandbox", title="Search for headphones")
    with ModelClient(settings) as client:
        clips, label_stats = VlmLabeler(settings).label(video, keyframes, client)
        actions, merge_stats = merge_clips(clips, settings, client, "typing", title=video.title)

    assert label_stats.unparseable == 0 and merge_stats.unparseable == 0
    # Labeling: the reasoning's decoy list is not read; the two hovers that opened nothing are gone.
    labeled = [a.describe() for clip in clips for a in clip.actions or []]
    assert labeled[:6] == [
        'hover "Electronics" (opens "Electronics menu")',
        'click "Search"',
        'type "wirel" into "Search"',
        'type "wireless head" into "Search"',
        'type "wireless headphones" into "Search"',
        "press Enter",
    ]
    assert "goto" not in " ".join(labeled) and 'hover "My Account"' not in labeled
    # Merging: one call reading the whole list, the three pieces of typing made one action.
    merge_requests = [r for r in server.requests() if "may have been written down twice" in str(r["body"])]
    assert len(merge_requests) == 1
    asked = prompt_text(merge_requests[0]["body"]["messages"])
    assert re.search(r"There are 6 actions \(ids 0 to 5\)", asked) and 'type "wirel" into "Search"' in asked
    assert [(a.kind, a.target, a.text, a.start_frame, a.end_frame) for a in actions] == [
        ("hover", "Electronics", "Electronics menu", 0, 0),  # kept: it opened a menu
        ("click", "Search", "", 1, 1),
        ("type", "Search", "wireless headphones", 2, 4),
        ("press", "", "Enter", 5, 5),
    ]
