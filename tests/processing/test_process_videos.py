"""`process-videos` end to end on two generated tutorials, with a SCRIPTED model standing in for the VLM and LLM.

The first run is made once for the module; tests that change settings work on a copy of its cache.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from model_access.scripted_server import ScriptedServer
from processing.index import TrajectoryIndex
from processing.stages.frames import frame_sizes
from processing.stages.trajectory_filtering import CHECKS
from processing.templates import BUNDLED_DIR
from settings import Settings
from tests.processing.pipeline_helpers import (
    ACTIONS_PER_FRAME,
    CHECK_MARKER,
    FAILS_CHECK,
    FILTER_MARKER,
    NAMED,
    chat_requests_by_stage,
    clip_count,
    fenced,
    pipeline_script,
    pipeline_settings,
    process,
    read_summary,
    run_cli,
    scripted_point,
    video_summary,
)

VIDEO_IDS = ("cart_tutorial", "search_tutorial")
EARLY_STAGES = ("changed_frames", "labeling", "merging", "action_filtering")


def spans_up_to(actions: int, longest: int) -> int:
    """How many runs of consecutive actions have at most `longest` actions (counted one by one)."""
    return sum(1 for i in range(actions) for j in range(i, actions) if j - i + 1 <= longest)


@dataclass
class FirstRun:
    settings: Settings
    server: ScriptedServer
    videos: Path
    code: int
    out: str
    summary: dict


@pytest.fixture(scope="module")
def first_run(tutorial_videos, tmp_path_factory):
    videos = Path(tutorial_videos["search_tutorial"]).parent
    server = ScriptedServer(pipeline_script()).start()
    settings = pipeline_settings(tmp_path_factory.mktemp("first-run") / "cache", server.base_url)
    code, out, _ = process(settings, "--source", "dir", "--videos", str(videos), "--workers", "2")
    try:
        yield FirstRun(settings, server, videos, code, out, read_summary(settings))
    finally:
        server.stop()


@pytest.fixture
def copied_run(first_run, tmp_path, scripted_model):
    """The first run's cache, copied, and a fresh scripted server with an empty request log."""
    cache = tmp_path / "cache"
    shutil.copytree(first_run.settings.paths.cache_dir, cache)
    server = scripted_model()
    return pipeline_settings(cache, server.base_url), server, first_run.videos


def test_two_videos_become_checked_trajectories_in_the_index(first_run):
    assert first_run.code == 0, first_run.out
    summary = first_run.summary
    assert summary["videos"] == {"processed": 2, "failed": []}
    index = TrajectoryIndex.load(first_run.settings.paths.index_dir, first_run.settings)
    assert sorted(index.videos()) == sorted(VIDEO_IDS)

    kept = {t.objective: t for video in VIDEO_IDS for t in index.trajectories(video)}
    expected = {objective for _, _, _, objective in NAMED if objective != FAILS_CHECK}
    assert set(kept) == expected
    assert summary["trajectories"]["dropped"] == 1

    opening = kept["Open the three items of the start page"]
    assert opening.video_id == "search_tutorial" and opening.span == (0, 2)
    assert [a.target for a in opening.actions] == ["Search item 0-a", "Search item 0-b", "Search item 0-c"]
    assert opening.checks["aligned"] is True and opening.checks["reason"] == "scripted pass"
    picking = kept["Pick the first two items in the cart"]
    assert [a.target for a in picking.actions] == ["Cart item 1-a", "Cart item 1-b"]
    assert picking.start_s > 0 and picking.end_s >= picking.start_s
    for trajectory in kept.values():
        assert len(trajectory.step_keyframes) == len(trajectory.actions)
        for frame in [*trajectory.step_keyframes, trajectory.first_frame, trajectory.last_frame]:
            assert Path(frame).is_absolute() and Path(frame).is_file() and frame.endswith(".jpg")

    dropped = first_run.settings.paths.processed_dir / "search_tutorial" / "trajectory_filtering.json"
    assert FAILS_CHECK in dropped.read_text() and '"natural": false' in dropped.read_text()


def test_the_point_each_action_happened_at_goes_through_merging_into_the_index(first_run):
    # The scripted labeler gives each click a point in the pixels of the frames it was sent, shrunk to
    # model_image_max_side; it is kept in frame pixels, through merging (duplicates keep the first piece's) and
    # the stage files into the index.
    index = TrajectoryIndex.load(first_run.settings.paths.index_dir, first_run.settings)
    opening = next(t for t in index.trajectories("search_tutorial") if t.span == (0, 2))
    (width, _), (shown, _) = frame_sizes(opening.step_keyframes[0], first_run.settings.processing.model_image_max_side)
    assert width > shown  # the frames were shrunk: the point is scaled back
    scaled = [(round(x * width / shown), round(y * width / shown)) for x, y in (scripted_point(0, c) for c in "abc")]
    assert [a.point for a in opening.actions] == scaled
    whole = index.whole_video("cart_tutorial")
    assert whole is not None and all(a.point is not None for a in whole.actions)
    merged = json.loads((first_run.settings.paths.processed_dir / "cart_tutorial" / "merging.json").read_text())
    assert merged["data"][0]["point"] == list(scaled[0])


def test_querying_an_objective_returns_its_trajectory_first(first_run):
    index = TrajectoryIndex.load(first_run.settings.paths.index_dir, first_run.settings)
    for objective in ("Open the three items of the start page", "Pick the first two items in the cart"):
        best, score = index.search(objective, k=2)[0]
        assert best.objective == objective and score == pytest.approx(1.0, abs=1e-4)
    only_cart = index.search("Open the three items of the start page", k=5, video_ids=["cart_tutorial"])
    assert [t.video_id for t, _ in only_cart] == ["cart_tutorial"]


def test_each_stage_makes_the_calls_the_method_prescribes(first_run):
    requests = chat_requests_by_stage(first_run.server)
    frames = {video: video_summary(first_run.summary, video)["keyframes"] for video in VIDEO_IDS}
    actions = {video: video_summary(first_run.summary, video)["actions"] for video in VIDEO_IDS}
    # The scripted labeler sees ACTIONS_PER_FRAME actions in each keyframe; merging leaves each once.
    assert actions == {video: ACTIONS_PER_FRAME * frames[video] for video in VIDEO_IDS}
    assert actions["search_tutorial"] > 15, "the 15-action cap must matter for this test"
    clips = {video: clip_count(frames[video]) for video in VIDEO_IDS}
    assert requests["labeling"] == sum(clips.values())
    assert requests["merging"] == len(VIDEO_IDS)  # one call per video, reading its whole action list
    assert requests["action_filtering"] == 2
    assert requests["trajectories"] == sum(spans_up_to(n, 15) for n in actions.values())
    assert requests["trajectory_filtering"] == len(NAMED)  # one per named objective
    ledger = {row["stage"]: row for row in first_run.summary["model_usage"]["rows"]}
    for stage, count in requests.items():
        assert ledger[stage]["calls"] == count and ledger[stage]["cache_hits"] == 0
        assert ledger[stage]["scripted"] == count
    assert "SCRIPTED (not a model result)" in first_run.out


def test_a_second_run_sends_nothing(first_run):
    def work_requests() -> int:  # the endpoint check before the run (GET /v1/models) is not work
        return len(first_run.server.requests("/chat/completions")) + len(first_run.server.requests("/embeddings"))

    before = work_requests()
    code, out, _ = process(first_run.settings, "--source", "dir", "--videos", str(first_run.videos))
    assert code == 0
    assert work_requests() == before  # no chat and no embedding request
    assert "model usage: no model calls" in out
    for video in read_summary(first_run.settings)["per_video"]:
        assert all(stage["reused"] for stage in video["stages"].values())


def test_a_longer_trajectory_cap_asks_only_the_new_subsequences(copied_run):
    settings, server, videos = copied_run
    settings.processing.max_trajectory_actions = 16
    code, _, _ = process(settings, "--source", "dir", "--videos", str(videos))
    assert code == 0
    summary = read_summary(settings)
    for video in summary["per_video"]:
        assert [video["stages"][s]["reused"] for s in EARLY_STAGES] == [True] * 4
        assert not video["stages"]["trajectories"]["reused"]
    search = video_summary(summary, "search_tutorial")["actions"]
    assert chat_requests_by_stage(server) == {"trajectories": search - 15}  # the spans of exactly 16 actions


def test_a_new_vlm_model_relabels_and_keeps_the_llm_stages(copied_run):
    settings, server, videos = copied_run
    settings.models.vlm.model = "scripted-vlm-2"
    code, _, _ = process(settings, "--source", "dir", "--videos", str(videos))
    assert code == 0
    for video in read_summary(settings)["per_video"]:
        stages = video["stages"]
        assert not stages["labeling"]["reused"] and stages["labeling"]["calls"] == clip_count(video["keyframes"])
        assert stages["merging"]["reused"] and stages["action_filtering"]["reused"]
    assert "merging" not in chat_requests_by_stage(server)


def test_an_edited_labeling_prompt_reruns_labeling_only(copied_run, tmp_path):
    settings, server, videos = copied_run
    prompts = tmp_path / "prompts"
    prompts.mkdir()
    text = (BUNDLED_DIR / "labeling.txt").read_text()
    (prompts / "labeling.txt").write_text(text.replace("Rules:", "Be precise. Rules:"))
    settings.processing.prompts_dir = str(prompts)
    code, _, _ = process(settings, "--source", "dir", "--videos", str(videos))
    assert code == 0
    summary = read_summary(settings)
    for video in summary["per_video"]:
        reran = [name for name, stage in video["stages"].items() if not stage["reused"]]
        # The same actions came back, so every later model stage stayed valid; the index entries are
        # rewritten only because this copy of the cache lives elsewhere (their frame paths are absolute).
        assert reran == ["labeling", "index"]
    clips = sum(clip_count(v["keyframes"]) for v in summary["per_video"])
    assert chat_requests_by_stage(server) == {"labeling": clips}
    assert all("Be precise." in str(r["body"]) for r in server.requests())


def test_dry_run_lists_the_work_and_sends_nothing(first_run, tmp_path, scripted_model):
    server = scripted_model()
    fresh = pipeline_settings(tmp_path / "cache", server.base_url)
    code, out, _ = process(fresh, "--source", "dir", "--videos", str(first_run.videos), "--dry-run")
    assert code == 0 and server.log == []
    assert not fresh.paths.processed_dir.exists()  # nothing written
    assert "cart_tutorial" in out and "search_tutorial" in out
    # The changed frames are detected for the count (nothing stored), the actions estimated from them.
    assert re.search(r"labeling: \d+ model call\(s\) \(exact\)", out)
    assert re.search(r"trajectories: \d+ model call\(s\) \(estimate: one action per changed frame", out)

    stored = first_run.settings
    stored.processing.max_trajectory_actions = 5
    try:
        code, out, _ = process(stored, "--source", "dir", "--videos", str(first_run.videos), "--dry-run")
    finally:
        stored.processing.max_trajectory_actions = 15
    for video in first_run.summary["per_video"]:
        assert f"trajectories: {spans_up_to(video['actions'], 5)} model call(s) (exact)" in out
    assert "labeling" not in out.split("to do:")[1].split("\n")[0]


def test_dry_run_lists_switched_off_stages_as_off(first_run, tmp_path, scripted_model):
    settings = pipeline_settings(tmp_path / "cache", scripted_model().base_url)
    code, out, _ = process(settings, "--source", "dir", "--videos", str(first_run.videos), "--dry-run",
                           "--no-action-filtering", "--no-trajectory-filtering")  # fmt: skip
    assert code == 0
    lines = [line for line in out.splitlines() if "to do:" in line]
    assert len(lines) == 2
    for line in lines:
        todo, off = line.split("to do: ")[1].split("; off: ")
        assert "filtering" not in todo and off == "action_filtering, trajectory_filtering"
    assert "action_filtering:" not in out and "trajectory_filtering:" not in out  # no calls counted for them


def test_a_rerun_that_keeps_nothing_leaves_the_index_as_it_was_and_says_so(copied_run):
    settings, _, videos = copied_run
    failed = fenced({**{name: True for name in CHECKS}, "natural": False, "reason": "scripted fail"})
    server = ScriptedServer(pipeline_script([{"contains": CHECK_MARKER, "reply": failed}])).start()
    try:
        settings = pipeline_settings(settings.paths.cache_dir, server.base_url)
        index = TrajectoryIndex.load(settings.paths.index_dir, settings)
        before = {video: [t.trajectory_id for t in index.trajectories(video)] for video in VIDEO_IDS}
        assert all(before.values())
        code, out, _ = process(settings, "--source", "dir", "--videos", str(videos), "--no-cache")
        assert code == 0, out
        after = {video: [t.trajectory_id for t in index.trajectories(video)] for video in VIDEO_IDS}
        assert after == before
        assert out.count("earlier trajectories: this run kept none (--replace-empty-index replaces them)") == 2
        kept = sum(map(len, before.values()))
        assert f"the index kept {kept} earlier trajectories of 2 video(s) whose run kept none" in out

        code, out, _ = process(settings, "--source", "dir", "--videos", str(videos), "--replace-empty-index")
        assert code == 0 and "earlier trajectories" not in out
        assert all(index.trajectories(video) == [] for video in VIDEO_IDS)
    finally:
        server.stop()


def test_no_action_filtering_sends_no_filtering_call(first_run, tmp_path, scripted_model):
    server = scripted_model()
    settings = pipeline_settings(tmp_path / "cache", server.base_url)
    code, _, _ = process(settings, "--source", "dir", "--videos", str(first_run.videos), "--no-action-filtering")
    assert code == 0
    assert not any(FILTER_MARKER in str(r["body"]) for r in server.requests())
    assert chat_requests_by_stage(server).get("action_filtering", 0) == 0
    assert read_summary(settings)["videos"]["processed"] == 2


def test_index_inspect_writes_a_gallery_of_the_trajectories(first_run, tmp_path):
    out = tmp_path / "pages" / "gallery.html"
    code, printed, _ = run_cli(
        "index", "inspect", "--index", str(first_run.settings.paths.index_dir), "--out", str(out)
    )
    assert code == 0 and str(out) in printed
    page = out.read_text()
    assert "Open the three items of the start page" in page and "Pick the first two items in the cart" in page
    assert "Search item 0-b" in page  # the steps are listed
    sources = re.findall(r'<img[^>]+src="([^"]+)"', page)
    assert len(sources) >= 5 and all((out.parent / src).is_file() for src in sources)

    code, _, err = run_cli("index", "inspect", "--index", str(first_run.settings.paths.index_dir), "--video", "nope")
    assert code == 2 and "not in the index" in err


def test_the_index_keeps_each_videos_whole_action_list_for_the_whole_video_ablation(first_run):
    index = TrajectoryIndex.load(first_run.settings.paths.index_dir, first_run.settings)
    for video in VIDEO_IDS:
        whole = index.whole_video(video)
        assert whole is not None and whole.trajectory_id == f"{video}/whole"
        assert whole.length == video_summary(first_run.summary, video)["actions"]  # every kept action
        assert len(whole.step_keyframes) == whole.length and all(Path(p).is_file() for p in whole.step_keyframes)
        assert whole not in index.trajectories(video)  # not a selectable trajectory, not searched


def test_a_run_into_another_index_keeps_the_default_summary(copied_run, tmp_path):
    settings, _, videos = copied_run
    default = settings.paths.processed_dir / "summary.json"
    before = default.read_bytes()
    code, out, _ = process(settings, "--source", "dir", "--videos", str(videos), "--index", str(tmp_path / "other"))
    assert code == 0, out
    assert default.read_bytes() == before  # the default index's run summary is still there
    written = Path(out.strip().splitlines()[-1].removeprefix("summary written to "))
    assert written.parent == settings.paths.processed_dir and written.name.startswith("summary-other-")
    assert json.loads(written.read_text())["index"]["dir"] == str(tmp_path / "other")
