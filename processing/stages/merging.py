"""Merge: one LLM call reads the video's whole action list and joins the entries that are one action.

Clips overlap, so an action in shared frames is labeled twice, and one continuous
action (a text typed across clip borders) can come back in pieces. The LLM sees
every action of the video in time order, with ids and frames, reasons first, then
lists groups of ids (N entries -> 1 action, duplicates and continuations alike) with
the merged action's kind, target and text. Groups must keep one kind (the paper's
"preserve action type"); a group mixing kinds, or reusing an id, is ignored and
reported. A reply unreadable twice keeps the actions as labeled.

A labeler that calls no model (the model-free OCR baseline) returns one clip with
nothing labeled twice: its actions pass through unchanged, with no call.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from model_access.client import ChatRequest, ModelClient
from model_access.messages import user_message
from model_access.replies import ReplyParseError, extract_json_list
from processing.plugins import Clip
from foundation.records.trajectory import LabeledAction
from processing.stages.asking import StageStats, after_heading, ask_parsed, prompt_identity, role_identity
from processing.stages.labeling import kept_kinds
from processing.templates import render, reply_schema
from settings.schema import Settings

STAGE = "merging"
TEMPLATE = "merging"
ANSWER_HEADING = "MERGED ACTIONS:"


def identity(settings: Settings) -> dict[str, Any]:
    found = {"prompts": prompt_identity(settings.processing, TEMPLATE), "model": role_identity(settings, "llm")}
    if settings.processing.spoil_share > 0:  # spoiled on purpose after merging (processing/stages/spoiling.py)
        found["spoil"] = [settings.processing.spoil_share, settings.processing.spoil_seed]
    return found


@dataclass
class Group:
    ids: list[int]
    kind: str = ""
    target: str = ""
    text: str | None = None  # None: not given, the pieces decide


def describe(action: LabeledAction) -> str:
    frames = (
        f"frame {action.start_frame}"
        if action.start_frame == action.end_frame
        else f"frames {action.start_frame}-{action.end_frame}"
    )
    return f"{action.describe()} ({frames})"


def in_time_order(clips: list[Clip]) -> list[LabeledAction]:
    """Every clip's actions, clip after clip, then sorted by frames (stable: a clip's order is kept)."""
    actions = [action for clip in clips for action in clip.actions or []]
    return sorted(actions, key=lambda action: (action.start_frame, action.end_frame))


def parse_groups(reply: str, count: int) -> list[Group]:
    """The groups of a merging reply (ids checked against `count`; an id used twice keeps its first group)."""
    items = extract_json_list(after_heading(reply, ANSWER_HEADING))
    groups: list[Group] = []
    used: set[int] = set()
    for item in items:
        if not isinstance(item, dict):
            raise ReplyParseError('objects with "original_action_ids"', reply)
        raw = item.get("original_action_ids", item.get("ids"))
        if not isinstance(raw, list):
            raise ReplyParseError('"original_action_ids" list', reply)
        ids = sorted({int(v) for v in raw if _is_id(v, count)})
        if len(ids) < 2 or used & set(ids):
            continue
        used |= set(ids)
        text = item.get("text")
        groups.append(
            Group(ids, str(item.get("type") or "").strip().lower(), _clean(item.get("target")), _clean_or_none(text))
        )
    return groups


def merge_group(actions: list[LabeledAction], group: Group) -> LabeledAction:
    """The pieces as one action: their kind, the reply's target and text where given, the frames of all."""
    pieces = [actions[i] for i in group.ids]
    first = pieces[0]
    texts = [p.text for p in pieces if p.text]
    text = group.text if group.text is not None else max(texts, key=len, default="")
    return replace(
        first,
        target=group.target or next((p.target for p in pieces if p.target), ""),
        text=text,
        start_frame=min(p.start_frame for p in pieces),
        end_frame=max(p.end_frame for p in pieces),
        start_s=min(p.start_s for p in pieces),
        end_s=max(p.end_s for p in pieces),
        point=next((p.point for p in pieces if p.point is not None), None),  # where the first piece with one acted
    )


def apply_groups(actions: list[LabeledAction], groups: list[Group]) -> tuple[list[LabeledAction], list[str]]:
    """The merged list in time order, and one line per group ignored for mixing kinds."""
    problems: list[str] = []
    absorbed: dict[int, LabeledAction | None] = {}  # id -> the merged action (at the group's first id) or None
    for group in groups:
        kinds = {actions[i].kind for i in group.ids}
        if len(kinds) > 1:
            problems.append(f"merge of actions {group.ids} ignored: they are of different kinds ({', '.join(kinds)})")
            continue
        merged = merge_group(actions, group)
        for i in group.ids:
            absorbed[i] = None
        absorbed[group.ids[0]] = merged
    result = [absorbed.get(i, action) for i, action in enumerate(actions) if absorbed.get(i, action) is not None]
    result.sort(key=lambda action: (action.start_frame, action.end_frame))
    return result, problems  # type: ignore[return-value]


def merge_clips(
    clips: list[Clip], settings: Settings, client: ModelClient, video_id: str, use_model: bool = True, title: str = ""
) -> tuple[list[LabeledAction], StageStats]:
    """The video's actions in time order, each group the LLM names made one action."""
    actions = in_time_order(clips)
    if not use_model or len(actions) < 2:
        return actions, StageStats()
    prompt = render(
        TEMPLATE,
        settings.processing,
        title=title or video_id,
        count=len(actions),
        last_id=len(actions) - 1,
        actions="\n".join(f"{i}. {describe(action)}" for i, action in enumerate(actions)),
    )
    kinds = kept_kinds(settings.processing)
    schema = reply_schema(TEMPLATE, settings.processing).with_enum(("items", "properties", "type"), kinds)
    request = ChatRequest("llm", [user_message(prompt)], STAGE, reply_schema=schema)
    outcome = ask_parsed(
        client, [request], lambda _, reply: parse_groups(reply, len(actions)), settings.processing, [video_id]
    )
    groups = outcome.values[0]
    if groups is None:  # unreadable twice: counted in the stats, the actions stay as labeled
        return actions, outcome.stats
    merged, problems = apply_groups(actions, groups)
    outcome.stats.problems += [f"{video_id}: {line}" for line in problems]
    return merged, outcome.stats


def _is_id(value: object, count: int) -> bool:
    try:
        number = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return 0 <= number < count and not isinstance(value, bool)


def _clean(value: object) -> str:
    return " ".join(str(value).split()) if value is not None else ""


def _clean_or_none(value: object) -> str | None:
    return None if value is None else _clean(value)
