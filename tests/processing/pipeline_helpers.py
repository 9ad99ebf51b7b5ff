"""Test fixtures for the processing pipeline: two small tutorial recordings and a SCRIPTED model.

The scripted server stands in for the VLM and the LLM. Its replies are canned and
visibly fake: the labeler "sees" ACTIONS_PER_FRAME clicks on made-up items in every
keyframe of a clip ("Item <frame>-<letter>"), so the actions in frames shared by two
clips come back twice and the merge rule pairs them; a few chosen spans of actions get
an objective and every other span gets none; one objective fails its check. Item names
start with the video's first title word ("Search item 2-b"), so the videos' actions differ.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.processing.make_videos import Script

from processing.stages.trajectory_filtering import CHECKS
from settings import Settings, load_settings

ACTIONS_PER_FRAME = 3
LETTERS = "abc"
MAX_FRAMES = 80  # labeling rules cover clips of videos with up to this many keyframes

# Test settings: small clips so a few seconds of video make several clips and borders.
CLIP_FRAMES = 4
CLIP_OVERLAP = 2

TITLES = ("search tutorial", "cart tutorial")
# Objectives the scripted VLM names: (video title, first action, last action, objective).
NAMED = [
    ("search tutorial", "Search item 0-a", "Search item 0-c", "Open the three items of the start page"),
    ("search tutorial", "Search item 1-a", "Search item 2-b", "Compare the variants of item one"),
    ("cart tutorial", "Cart item 1-a", "Cart item 1-b", "Pick the first two items in the cart"),
]
FAILS_CHECK = "Compare the variants of item one"


def search_tutorial_script() -> Script:
    s = Script(3)
    s.idle(1.0).click_field().type("mouse", 8).idle(0.5).page(1).idle(0.8).scroll(300, 0.5).idle(0.6)
    s.page(2).idle(0.6).click_field().type("ok", 8).idle(0.6).page(3).idle(0.8)
    return s


def cart_tutorial_script() -> Script:
    s = Script(4)
    s.idle(0.8).page(2).idle(0.8).click_field().type("cart", 8).idle(0.8).page(3).idle(0.8)
    return s


def render_tutorials(folder: Path) -> dict[str, Path]:
    """search_tutorial.mp4 (about 8 s) and cart_tutorial.mp4 (about 5 s) in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    return {
        "search_tutorial": search_tutorial_script().render(folder / "search_tutorial.mp4", preset="ultrafast").path,
        "cart_tutorial": cart_tutorial_script().render(folder / "cart_tutorial.mp4", preset="ultrafast").path,
    }


def item(title: str, frame: int, letter: str) -> str:
    return f"{title.split()[0].title()} item {frame}-{letter}"


def scripted_point(frame: int, letter: str) -> list[int]:
    """Where the scripted labeler says click `letter` of `frame` happened (pixels of the frame as sent)."""
    return [10 * frame + LETTERS.index(letter), 20]


def clip_actions(title: str, first: int, last: int) -> list[dict[str, Any]]:
    return [
        {"type": "click", "target": item(title, frame, letter), "text": "", "start_frame": frame, "end_frame": frame,
         "point": scripted_point(frame, letter)}
        for frame in range(first, last + 1)
        for letter in LETTERS[:ACTIONS_PER_FRAME]
    ]  # fmt: skip


def step_list(targets: list[str]) -> str:
    """The step block of a trajectory prompt for clicks on `targets` (as the stage writes it)."""
    return "Steps:\n" + "\n".join(f'{n}. click "{t}"' for n, t in enumerate(targets, 1)) + "\n(end of steps)"


def targets_between(title: str, first: str, last: str) -> list[str]:
    """The targets from action `first` to action `last` of a video, in video order."""
    order = [item(title, frame, letter) for frame in range(MAX_FRAMES) for letter in LETTERS[:ACTIONS_PER_FRAME]]
    return order[order.index(first) : order.index(last) + 1]


def fenced(value: Any, chatter: str = "Here is my answer.") -> str:
    return f"{chatter}\n```json\n{json.dumps(value)}\n```\nLet me know if you need more."


def labeling_rules(title: str) -> list[dict[str, Any]]:
    """One rule per clip a video of up to MAX_FRAMES keyframes can have (any last frame of each start)."""
    rules = []
    step = CLIP_FRAMES - CLIP_OVERLAP
    for first in range(0, MAX_FRAMES, step):
        for last in range(first, first + CLIP_FRAMES):
            # Titles from file names keep their underscores when a site reports them as they are.
            spelled = "[ _]".join(re.escape(word) for word in title.split(" "))
            pattern = rf"Video title: {spelled}\n.*This clip shows frames {first} to {last} "
            rules.append({"regex": pattern, "reply": fenced(clip_actions(title, first, last))})
    return rules


def merge_rules() -> list[dict[str, Any]]:
    """One merging rule per possible action list: the actions labeled twice in shared frames, grouped by id.

    The merge prompt lists every action of the video sorted by frame (a clip's order kept), so for a video of
    K keyframes the list and its duplicate groups are known; its length and first frame name the layout. The
    layouts with the first clip's reply skipped (unreadable) are covered too.
    """
    from processing.stages.labeling import clip_ranges

    rules = []
    for frames in range(1, MAX_FRAMES + 1):
        ranges = clip_ranges(frames, CLIP_FRAMES, CLIP_OVERLAP)
        for skipped in (0, 1) if len(ranges) > 1 else (0,):
            entries = [
                (frame, clip, letter)
                for clip, (first, last) in enumerate(ranges)
                if clip >= skipped
                for frame in range(first, last + 1)
                for letter in LETTERS[:ACTIONS_PER_FRAME]
            ]
            entries.sort(key=lambda entry: entry[0])  # stable: clip order within a frame
            ids: dict[tuple[int, str], list[int]] = {}
            for n, (frame, _, letter) in enumerate(entries):
                ids.setdefault((frame, letter), []).append(n)
            groups = [{"original_action_ids": group} for group in ids.values() if len(group) > 1]
            reply = fenced(groups, "REASONING:\nThe shared frames list each click twice.\nMERGED ACTIONS:")
            first = entries[0][0]
            pattern = rf'There are {len(entries)} actions \(ids 0 to \d+\):\n0\. click "\w+ item {first}-a"'
            rules.append({"regex": pattern, "reply": reply})
    return rules


CHECK_MARKER = "Judge six things"
TRAJECTORY_MARKER = "Do these steps, taken together"
MERGE_MARKER = "may have been written down twice"
FILTER_MARKER = "Decide which actions are part of"
LABEL_MARKER = "Work out from the changes between frames"
REMINDER_MARKER = "Your reply could not be read"


def pipeline_script(extra_rules: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The whole SCRIPTED model: `extra_rules` are tried first."""
    rules: list[dict[str, Any]] = list(extra_rules or [])
    passed = {name: True for name in CHECKS} | {"reason": "scripted pass"}
    failed = {**passed, "natural": False, "reason": "scripted fail"}
    rules.append({"contains": f"Objective: {FAILS_CHECK}\n", "reply": fenced(failed)})
    rules.append({"contains": CHECK_MARKER, "reply": fenced(passed)})
    for title, first, last, objective in NAMED:
        steps = step_list(targets_between(title, first, last))
        rules.append({"contains": steps, "regex": TRAJECTORY_MARKER, "reply": fenced({"objective": objective})})
    rules.append({"contains": TRAJECTORY_MARKER, "reply": fenced({"objective": None}, "No single objective.")})
    rules += merge_rules()
    rules.append({"contains": FILTER_MARKER, "reply": fenced({"relevant": list(range(1, 3 * MAX_FRAMES + 1))})})
    for title in TITLES:
        rules += labeling_rules(title)
    return {"name": "pipeline-test", "rules": rules}


def stage_of(request: dict[str, Any]) -> str:
    """Which stage sent a logged request, read from its prompt."""
    text = json.dumps(request.get("body") or {})
    for marker, stage in (
        (CHECK_MARKER, "trajectory_filtering"),
        (TRAJECTORY_MARKER, "trajectories"),
        (MERGE_MARKER, "merging"),
        (FILTER_MARKER, "action_filtering"),
        (LABEL_MARKER, "labeling"),
    ):
        if marker in text:
            return stage
    return "other"


def pipeline_settings(cache_dir: Path, server_url: str) -> Settings:
    """Settings aiming every role and the embeddings at the scripted server, with the small test clips."""
    settings = load_settings()
    settings.paths.cache_dir = cache_dir
    for role in ("vlm", "llm"):
        getattr(settings.models, role).base_url = server_url
        getattr(settings.models, role).model = f"scripted-{role}"
    settings.models.embedding.backend = "openai"
    settings.models.embedding.base_url = server_url
    settings.models.embedding.model = "scripted-embedding"
    settings.models.max_retries = 1
    settings.models.backoff_initial_s = 0.01
    settings.models.backoff_max_s = 0.02
    settings.processing.clip_frames = CLIP_FRAMES
    settings.processing.clip_overlap = CLIP_OVERLAP
    settings.processing.model_image_max_side = 320
    return settings


def config_file(settings: Settings) -> Path:
    """All of `settings` as a YAML file beside the cache folder, for the command line's --config."""
    import yaml

    from settings import settings_as_dict

    path = settings.paths.cache_dir.parent / f"{settings.paths.cache_dir.name}-settings.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(settings_as_dict(settings)))
    return path


def run_cli(*args: str) -> tuple[int, str, str]:
    """Run `videodemo ARGS...` in this process: (exit code, stdout, stderr)."""
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def process(settings: Settings, *args: str) -> tuple[int, str, str]:
    """`process-videos ARGS...` under `settings` (passed as a --config file)."""
    return run_cli("process-videos", *args, "--config", str(config_file(settings)))


def read_summary(settings: Settings) -> dict[str, Any]:
    return json.loads((settings.paths.processed_dir / "summary.json").read_text())


def video_summary(summary: dict[str, Any], video_id: str) -> dict[str, Any]:
    return next(video for video in summary["per_video"] if video["video_id"] == video_id)


def clip_count(keyframes: int, clip_frames: int = CLIP_FRAMES, overlap: int = CLIP_OVERLAP) -> int:
    """Clips of `clip_frames` sharing `overlap` frames needed to cover `keyframes` frames."""
    if keyframes <= clip_frames:
        return 1
    step = clip_frames - overlap
    return 1 + -(-(keyframes - clip_frames) // step)


def chat_requests_by_stage(server: Any) -> dict[str, int]:
    counts: dict[str, int] = {}
    for request in server.requests("/chat/completions"):
        stage = stage_of(request)
        counts[stage] = counts.get(stage, 0) + 1
    return counts
