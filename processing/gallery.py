"""An HTML page of the index to look at: per video, every trajectory with its objective, steps and keyframes.

The page is one self-contained file: styles inline, images referenced by paths
relative to the page (so it opens from disk in any browser without copying frames).
"""

from __future__ import annotations

import html
import os
from pathlib import Path

from processing.index import VERDICT_KEY, TrajectoryIndex
from foundation.records.trajectory import Trajectory

_STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; background: #fafafa; }
h1 { font-size: 20px; } h2 { font-size: 17px; margin-top: 32px; border-bottom: 1px solid #ccc; }
.meta { color: #666; font-size: 12px; }
.trajectory { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 10px 14px; margin: 12px 0; }
.objective { font-weight: 600; font-size: 15px; }
ol { margin: 6px 0 8px 20px; padding: 0; }
.strip { display: flex; gap: 6px; overflow-x: auto; padding-bottom: 4px; }
.strip figure { margin: 0; flex: none; text-align: center; font-size: 11px; color: #555; }
.strip img { height: 110px; border: 1px solid #ccc; display: block; }
"""


def _time(seconds: float) -> str:
    minutes, rest = divmod(max(0.0, seconds), 60)
    return f"{int(minutes)}:{rest:04.1f}"


def _image_src(path: str, page_dir: Path) -> str:
    relative = os.path.relpath(Path(path).resolve(), page_dir.resolve())
    return html.escape(Path(relative).as_posix(), quote=True)


def _trajectory_html(trajectory: Trajectory, page_dir: Path) -> str:
    steps = "".join(f"<li>{html.escape(action.describe())}</li>" for action in trajectory.actions)
    frames = [(f"step {n}", path) for n, path in enumerate(trajectory.step_keyframes, 1)]
    frames.append(("after", trajectory.last_frame))
    strip = "".join(
        f'<figure><a href="{_image_src(path, page_dir)}"><img loading="lazy" src="{_image_src(path, page_dir)}" '
        f'alt="{label}"></a><figcaption>{label}</figcaption></figure>'
        for label, path in frames
    )
    i, j = trajectory.span
    checks = trajectory.checks.get("reason", "")
    found = trajectory.checks.get(VERDICT_KEY)
    verdict = "unverified"
    if found:  # what `process-videos --verify` found on the live site
        verdict = f"{found['verdict']} ({found['carried_out']}/{found['steps']}, start from " \
                  f"{found.get('start_page', {}).get('source', '?')})"
        if found["verdict"] != "verified":
            verdict += f": {found['reason']}"
    return (
        '<div class="trajectory">'
        f'<div class="objective">{html.escape(trajectory.objective)}</div>'
        f'<div class="meta">{html.escape(trajectory.trajectory_id)} · actions {i}-{j} · '
        f"{_time(trajectory.start_s)}-{_time(trajectory.end_s)} · "
        f"objective by {html.escape(trajectory.objective_source)}"
        f"{' · check: ' + html.escape(str(checks)) if checks else ''}"
        f' · <span class="verdict">on the live site: {html.escape(verdict)}</span></div>'
        f"<ol>{steps}</ol><div class=\"strip\">{strip}</div></div>"
    )


def write_gallery(index: TrajectoryIndex, out: Path, video_ids: list[str] | None = None) -> tuple[int, int]:
    """Write the page to `out`; returns (videos shown, trajectories shown)."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    chosen = video_ids if video_ids else index.videos()
    sections = []
    shown = 0
    for video_id in chosen:
        video = index.video(video_id)
        trajectories = index.trajectories(video_id)
        shown += len(trajectories)
        title = video.title if video and video.title else video_id
        details = []
        if video is not None:
            details.append(f"{video.source}")
            if video.duration_s:
                details.append(_time(video.duration_s))
            if video.path:
                details.append(html.escape(video.path))
        body = "".join(_trajectory_html(t, out.parent) for t in trajectories) or "<p>No trajectory kept.</p>"
        sections.append(
            f'<h2 id="{html.escape(video_id, quote=True)}">{html.escape(title)}</h2>'
            f'<div class="meta">{html.escape(video_id)} · {len(trajectories)} trajectories · '
            f'{" · ".join(details)}</div>'
            f"{body}"
        )
    page = (
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Trajectory index</title>"
        f"<style>{_STYLE}</style></head><body>"
        f"<h1>Trajectory index: {shown} trajectories from {len(chosen)} video(s)</h1>"
        f"<div class=\"meta\">{html.escape(str(index.folder))}</div>"
        + "".join(sections)
        + "</body></html>"
    )
    out.write_text(page, encoding="utf-8")
    return len(chosen), shown
