"""The pieces every page of a report is drawn with: the templates, the css, a recorded value as HTML (tables,
images, demonstrations), a step's usage table, and an episode's steps as the pages read them."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from evaluation.browser_env.step_extras import IMAGE_SUFFIXES
from foundation.records.demonstration import DemonstrationShown
from foundation.records.step_info import StepInfo
from model_access.accounting import tokens_text

TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"


def render_value(value: Any, folder: Path) -> str:
    """HTML for any JSON value: dicts as definition lists, lists as lists, image files and data URLs as images."""
    if isinstance(value, dict):
        if not value:
            return '<span class="muted">{}</span>'
        if all(_is_scalar(item) for item in value.values()) and len(value) <= 8:
            pairs = (f"<b>{html.escape(str(key))}</b> {render_value(item, folder)}" for key, item in value.items())
            return ", ".join(pairs)
        items = "".join(
            f"<dt>{html.escape(str(key))}</dt><dd>{render_value(item, folder)}</dd>" for key, item in value.items()
        )
        return f'<dl class="value">{items}</dl>'
    if isinstance(value, list):
        if not value:
            return '<span class="muted">[]</span>'
        if all(isinstance(item, dict) and item for item in value):
            return _table(value, folder)
        return "<ol>" + "".join(f"<li>{render_value(item, folder)}</li>" for item in value) + "</ol>"
    if isinstance(value, str):
        source = _image_source(value, folder)
        if source is not None:
            alt = "image" if value.startswith("data:") else Path(value).name
            return f'<img src="{html.escape(source)}" alt="{html.escape(alt)}">'
        if "\n" in value or len(value) > 160:
            return f"<pre>{html.escape(value)}</pre>"
        return html.escape(value)
    if isinstance(value, float):
        return html.escape(_readable_number(value))
    return html.escape(json.dumps(value))


def _readable_number(value: float) -> str:
    """A float as a person reads it: 72.43, 0.0123, 3 (not 72.42976653799951)."""
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.2f}" if abs(value) >= 1 else f"{value:.3g}"


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (int, float, bool)) or (isinstance(value, str) and len(value) <= 80)


def _table(rows: list[dict[str, Any]], folder: Path) -> str:
    """A list of objects as one table, a column per key."""
    columns: list[str] = []
    for row in rows:
        columns += [key for key in row if key not in columns]
    head = "".join(f"<th>{html.escape(str(column))}</th>" for column in columns)
    body = "".join(
        "<tr>" + "".join(f"<td{_cell_class(row.get(c))}>{render_value(row[c], folder) if c in row else ''}</td>"
                         for c in columns) + "</tr>"
        for row in rows
    )  # fmt: skip
    # In a box of its own that scrolls sideways: a wide table never widens the page or spills into a neighbour.
    return f'<div class="wide"><table><tr>{head}</tr>{body}</table></div>'


def _cell_class(value: Any) -> str:
    """Long text keeps a readable width (not a word a line); a long unbroken string (a URL) may break anywhere."""
    if not isinstance(value, str) or len(value) <= 40 or "\n" in value:
        return ""
    return ' class="long"' if " " in value else ' class="token"'


# The usage columns a task page shows (the ledger has ~20; all of them ran off the page), in the text table's words.
_USAGE_COLUMNS = (("calls", "calls"), ("cache_hits", "cached"), ("failures", "failed"), ("retries", "retries"),
                  ("prompt_tokens", "prompt tok"), ("completion_tokens", "compl tok"), ("truncated", "cut"),
                  ("latency_s", "time s"))  # fmt: skip


def usage_table_html(usage: dict[str, Any]) -> str:
    """A task's model usage (ledgers by who called: policy, evaluation) as one narrow table in a scrolling box;
    tokens a server never reported read "n/a"."""
    head = "<tr><th>calls by</th><th>stage</th><th>role</th>" + "".join(f"<th>{label}</th>" for _, label in
                                                                         _USAGE_COLUMNS) + "</tr>"  # fmt: skip
    body = []
    for who, ledger in usage.items():
        for row in ledger.get("rows", []):
            cells = [who, row.get("stage", ""), row.get("role", "")]
            for name, _ in _USAGE_COLUMNS:
                if name in ("prompt_tokens", "completion_tokens"):
                    cells.append(tokens_text(row, name))
                elif name == "latency_s":
                    cells.append(f"{float(row.get(name, 0.0)):.1f}")
                else:
                    cells.append(str(row.get(name, 0)))
            body.append("<tr>" + "".join(f"<td>{html.escape(str(cell))}</td>" for cell in cells) + "</tr>")
    return f'<div class="wide"><table class="usage">{head}{"".join(body)}</table></div>'


def _image_source(value: str, folder: Path) -> str | None:
    if value.startswith("data:image/"):
        return value
    if not value.lower().endswith(IMAGE_SUFFIXES) or "\n" in value or len(value) > 1000:
        return None
    path = Path(value)
    if not path.is_absolute() and (folder / path).is_file():
        return path.as_posix()
    if path.is_absolute() and path.is_file():
        return path.as_uri()
    return None


def demonstration_html(demonstration: DemonstrationShown, folder: Path, current: int | None = None) -> str:
    """A demonstration a step showed (its `demonstration`: objective, actions, keyframes): each of its steps under
    the tutorial's screen before it, in a row that scrolls sideways, the step carried out (`current`, 1-based)
    marked; other fields as usual."""
    actions, keyframes = demonstration.actions, demonstration.keyframe_list
    paired = keyframes is not None and len(keyframes) == len(actions)
    frames = keyframes if paired else [None] * len(actions)
    figures = "".join(
        ('<figure class="current">' if number == current else "<figure>") + (render_value(frame, folder) if isinstance(frame, str) else "")
        + f"<figcaption>{number}. {html.escape(str(text))}</figcaption></figure>"
        for number, (text, frame) in enumerate(zip(actions, frames), 1)
    )  # fmt: skip
    inline = {"objective", "actions"} | ({"keyframes"} if paired else set())
    rest = {key: value for key, value in demonstration.to_dict().items() if key not in inline}
    return (
        f'<div class="demo"><b>demonstration:</b> {html.escape(str(demonstration.objective))}'
        f'<div class="strip">{figures}</div>{render_value(rest, folder) if rest else ""}</div>'
    )


def environment():
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    return Environment(loader=FileSystemLoader(str(TEMPLATES_DIR)), autoescape=select_autoescape(["html"]))


def css() -> Any:
    """The style sheet as markup the templates take as it is: escaped, `details > summary` became
    `details &gt; summary`, and every rule with a child combinator silently never applied."""
    from markupsafe import Markup

    return Markup((TEMPLATES_DIR / "report.css").read_text(encoding="utf-8"))


def episode_steps(episode: dict[str, Any]) -> list[tuple[dict[str, Any], DemonstrationShown | None, StepInfo]]:
    """(step, the trajectory it showed or None, the rest of what the policy recorded) for each step of an
    episode.json, its `extra` read through the type (foundation/records/step_info.py)."""
    steps = []
    keyframes_of: dict[str, list] = {}  # a demonstration's images are saved once; later steps showing it reuse them
    for step in episode.get("steps", []):
        info = StepInfo.from_dict(step.get("extra") or {})
        shown = info.demonstration if isinstance(info.demonstration, DemonstrationShown) else None
        if shown is None or not shown.shows_steps:  # nothing shown (null), or narration: drawn with the rest
            steps.append((step, None, info))
            continue
        info.drop("demonstration")
        if shown.trajectory_id:
            if shown.keyframe_list is not None:
                keyframes_of[shown.trajectory_id] = shown.keyframe_list
            elif shown.trajectory_id in keyframes_of:
                shown = DemonstrationShown.from_dict(shown.to_dict())
                shown.keyframes = keyframes_of[shown.trajectory_id]
        steps.append((step, shown, info))
    return steps
