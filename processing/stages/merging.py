"""Merge: remove the actions labeled twice where consecutive clips overlap.

Only an action that touches the frames two clips share can have been labeled
twice, so the LLM is shown just those: for each border, the earlier clip's actions
that reach into the shared frames (A1, A2...) and the later clip's actions that
start in them (B1, B2...). It answers which A/B pairs are one action. A border
with no candidate on either side needs no call. Every action away from the
borders is kept as labeled.

A pair becomes one action: the earlier clip's kind and target (the later clip's
where the earlier has none), the longer of the two texts (typing cut by the border
is complete in one of them), and the frames of both together.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from model_access.client import ChatRequest, ModelClient
from model_access.messages import user_message
from model_access.replies import ReplyParseError, extract_json_object
from processing.plugins import Clip
from processing.records import LabeledAction
from processing.stages.asking import StageStats, ask_parsed, prompt_identity, role_identity
from processing.templates import render
from settings.schema import Settings

STAGE = "merging"
TEMPLATE = "merging"


def identity(settings: Settings) -> dict[str, Any]:
    return {"prompts": prompt_identity(settings.processing, TEMPLATE), "model": role_identity(settings, "llm")}


def border_candidates(earlier: Clip, later: Clip) -> tuple[list[int], list[int]]:
    """Indices of the earlier clip's actions reaching the shared frames, and of the later clip's starting in them."""
    if earlier.actions is None or later.actions is None or later.first > earlier.last:
        return [], []
    shared_first, shared_last = later.first, earlier.last
    ending = [i for i, a in enumerate(earlier.actions) if a.end_frame >= shared_first]
    starting = [i for i, a in enumerate(later.actions) if a.start_frame <= shared_last]
    return ending, starting


def describe(action: LabeledAction) -> str:
    frames = (
        f"frame {action.start_frame}"
        if action.start_frame == action.end_frame
        else f"frames {action.start_frame}-{action.end_frame}"
    )
    return f"{action.describe()} ({frames})"


def merge_pair(first: LabeledAction, second: LabeledAction) -> LabeledAction:
    return replace(
        first,
        target=first.target or second.target,
        text=max(first.text, second.text, key=len),
        start_frame=min(first.start_frame, second.start_frame),
        end_frame=max(first.end_frame, second.end_frame),
        start_s=min(first.start_s, second.start_s),
        end_s=max(first.end_s, second.end_s),
    )


def parse_pairs(reply: str, a_count: int, b_count: int) -> list[tuple[int, int]]:
    """(a, b) zero-based index pairs from {"duplicates": [["A1", "B2"], ...]}, each action used once."""
    data = extract_json_object(reply)
    raw = data.get("duplicates", data.get("pairs"))
    if not isinstance(raw, list):
        raise ReplyParseError('"duplicates" list', reply)
    pairs: list[tuple[int, int]] = []
    used_a: set[int] = set()
    used_b: set[int] = set()
    for item in raw:
        if isinstance(item, dict):
            item = [item.get("a") or item.get("A"), item.get("b") or item.get("B")]
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            continue
        a, b = _label_index(item[0], "A", a_count), _label_index(item[1], "B", b_count)
        if a is None or b is None or a in used_a or b in used_b:
            continue
        used_a.add(a)
        used_b.add(b)
        pairs.append((a, b))
    return pairs


def _label_index(value: object, letter: str, count: int) -> int | None:
    text = str(value).strip().upper()
    if text.startswith(letter):
        text = text[1:]
    try:
        number = int(text)
    except ValueError:
        return None
    return number - 1 if 1 <= number <= count else None


def merge_clips(
    clips: list[Clip], settings: Settings, client: ModelClient, video_id: str
) -> tuple[list[LabeledAction], StageStats]:
    """The video's actions in time order, with each duplicate pair at a clip border made one."""
    borders = []  # (clip index, earlier candidate indices, later candidate indices)
    for k in range(len(clips) - 1):
        ending, starting = border_candidates(clips[k], clips[k + 1])
        if ending and starting:
            borders.append((k, ending, starting))
    requests = [_request(clips[k], clips[k + 1], ending, starting, settings) for k, ending, starting in borders]
    labels = [f"{video_id} frames {clips[k + 1].first}-{clips[k].last}" for k, _, _ in borders]

    def parse(i: int, reply: str) -> list[tuple[int, int]]:
        _, ending, starting = borders[i]
        return parse_pairs(reply, len(ending), len(starting))

    outcome = ask_parsed(client, requests, parse, settings.processing, labels)
    # drop[k] = indices of clip k's actions absorbed into clip k-1's; replaced[k] = merged versions of clip k's actions
    drop: dict[int, set[int]] = {}
    replaced: dict[tuple[int, int], LabeledAction] = {}
    for (k, ending, starting), pairs in zip(borders, outcome.values):
        for a, b in pairs or []:
            a_index, b_index = ending[a], starting[b]
            if a_index in drop.get(k, set()):
                continue  # already merged into the clip before (a clip shorter than two overlaps); keep b as is
            earlier = replaced.get((k, a_index), clips[k].actions[a_index])  # type: ignore[index]
            replaced[(k, a_index)] = merge_pair(earlier, clips[k + 1].actions[b_index])  # type: ignore[index]
            drop.setdefault(k + 1, set()).add(b_index)
    actions: list[LabeledAction] = []
    for k, clip in enumerate(clips):
        for i, action in enumerate(clip.actions or []):
            if i not in drop.get(k, set()):
                actions.append(replaced.get((k, i), action))
    actions.sort(key=lambda action: (action.start_frame, action.end_frame))
    return actions, outcome.stats


def _request(earlier: Clip, later: Clip, ending: list[int], starting: list[int], settings: Settings) -> ChatRequest:
    lines_a = [f"A{n}. {describe(earlier.actions[i])}" for n, i in enumerate(ending, 1)]  # type: ignore[index]
    lines_b = [f"B{n}. {describe(later.actions[i])}" for n, i in enumerate(starting, 1)]  # type: ignore[index]
    prompt = render(
        TEMPLATE,
        settings.processing,
        overlap_first=later.first,
        overlap_last=earlier.last,
        actions_a="\n".join(lines_a),
        actions_b="\n".join(lines_b),
    )
    return ChatRequest("llm", [user_message(prompt)], STAGE)
