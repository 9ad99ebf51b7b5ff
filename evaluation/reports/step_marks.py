"""What a step's header says at a glance: the action with its element named (`click [80] button 'Upvote'`), and a
mark in place of a bare "ok" when the step changed nothing or grounded on a tie.

The element behind an id is the one the reference tracker reads (evaluation/running/episode_acts.py: the replay's
grounding, the scripted policy's target, the observation's `[id] role 'name'` lines). A step recorded with the
element's box (`target_box`, evaluation/browser_env/episode.py) has it outlined on the screenshot before the step;
older records have none, and only the header names the element.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evaluation.running.episode_acts import episode_acts
from foundation.records.demonstration import TIE_MARGIN

_NO_PAGE_CHANGE = ("stop", "none")  # a stop ends the episode; an unreadable action did nothing on purpose


def named_actions(episode: dict[str, Any]) -> dict[int, str]:
    """Step number -> its action(s) with each element's role and name after its id, one line per command."""
    lines: dict[int, list[str]] = {}
    for act in episode_acts(episode):
        step = next((s for s in episode.get("steps") or [] if int(s.get("index") or 0) == act.step), {})
        raw = str((step.get("action") or {}).get("raw") or step.get("action_text") or "").strip()
        if act.element_id and act.role:
            element = f"[{act.element_id}]"
            named = f"{element} {act.role} {act.name!r}"
            raw = raw.replace(element, named, 1) if element in raw else f"{act.kind} {named}"
        lines.setdefault(act.step, []).append(raw)
    return {number: "\n".join(texts) for number, texts in lines.items()}


def step_mark(step: dict[str, Any], observation_before: str) -> tuple[str, str]:
    """(badge, css status) of a step: failed; "no change" (same URL and observation after as before); "tie" (it
    grounded on one of several elements at the top similarity); else ok."""
    if not step.get("ok"):
        return "failed", "failed"
    if tie := grounding_tie(step):
        return tie, "unscorable"
    kind = str((step.get("action") or {}).get("kind") or "")
    same_url = (step.get("url_after") or "") == (step.get("url_before") or "")
    same_page = (step.get("observation_text") or "") == (observation_before or "")
    if kind not in _NO_PAGE_CHANGE and same_url and same_page and observation_before:
        return "no change", "unscorable"
    return "ok", "passed"


def grounding_tie(step: dict[str, Any]) -> str:
    """"tie: N at similarity S" when the replay's grounding had rivals as good as its pick, else ""."""
    replayed = (step.get("extra") or {}).get("replayed")
    grounded = replayed.get("grounded") if isinstance(replayed, dict) else None
    if not isinstance(grounded, dict) or grounded.get("similarity") is None:
        return ""
    top = float(grounded["similarity"])
    rivals = [other for other in grounded.get("next_best") or []
              if isinstance(other, dict) and float(other.get("similarity") or 0) >= top - TIE_MARGIN]  # fmt: skip
    return f"tie: {len(rivals) + 1} at similarity {top:g}" if rivals else ""


NO_BOX = "no element box recorded to outline"


def target_outline(step: dict[str, Any], screenshot: Path | None) -> dict[str, str]:
    """How the step's `target_box` sits on the screenshot before it: {"style": CSS left/top/width/height in
    percent of the image, clipped to it} (percentages, so the outline scales with the image at any width), or
    {"note": why there is no outline}, shown after the element the header names."""
    box = step.get("target_box")
    if not box:
        return {"note": NO_BOX}
    if screenshot is None:
        return {"note": "no screenshot to outline its box on"}
    try:
        from PIL import Image

        with Image.open(screenshot) as image:  # reads the header only
            width, height = image.size
    except OSError:
        return {"note": "the screenshot could not be read to outline its box"}
    x, y, w, h = (float(value) for value in box)
    left, top = max(x, 0.0), max(y, 0.0)
    right, bottom = min(x + w, float(width)), min(y + h, float(height))
    if right <= left or bottom <= top:
        return {"note": "its box lies outside this screenshot (it was scrolled into view to act on)"}
    parts = zip(("left", "top", "width", "height"), (left / width, top / height, (right - left) / width,
                                                     (bottom - top) / height))  # fmt: skip
    return {"style": ";".join(f"{name}:{100 * share:.3f}%" for name, share in parts)}
