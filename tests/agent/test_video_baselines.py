"""VideoWA's baselines (`--policy frames|summary`) and the factual question asked about the video, with a
SCRIPTED model server: what each request carries, read from the server's request log."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
from pathlib import Path

import pytest

from cli.main import main
from model_access.scripted_server import ScriptedServer
from tests.agent.world import (
    POLICY,
    SEARCH_TRANSCRIPT,
    SEARCH_VIDEO,
    action,
    build_index,
    chat_requests,
    record,
    rules_for,
    run_command,
)

VIDEO_SECONDS = 75  # longer than 60 s: 60 frames spread over the whole video, not one a second
FRAME_MARK = re.compile(r"\[(\d+) s in the video\]")
SUMMARY_REQUEST = "Write a summary of the video for that agent"
VIDEO_QUESTION = "Answer this question about the tutorial video"
SUMMARY = "The presenter searches for headphones, opens Sort By and picks Price, then sets descending order."


@pytest.fixture(scope="module")
def video_index(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("baseline-index")
    video = folder / f"{SEARCH_VIDEO}.mp4"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                    f"testsrc=size=320x240:rate=4:duration={VIDEO_SECONDS}", "-c:v", "libx264", "-preset",
                    "ultrafast", str(video)], check=True)  # fmt: skip
    with ScriptedServer({"name": "embeddings", "default": "unused"}) as server:
        return build_index(folder, server.base_url, {SEARCH_VIDEO: video})


@pytest.fixture(scope="module")
def run_baseline(sandbox, test_settings, video_index, tmp_path_factory):
    def run(rules, ids: str, *flags: str):
        out = tmp_path_factory.mktemp("baseline-run") / "run"
        with ScriptedServer({"name": "agent", "rules": rules}) as server:
            command = run_command(out, video_index, server.base_url, ids, *flags)
            command += ["--set", f"paths.cache_dir={test_settings.paths.cache_dir}"]
            with contextlib.redirect_stdout(io.StringIO()) as printed:
                code = main(command)
            assert code == 0, printed.getvalue()
            return out, chat_requests(server)

    return run


def _frame_times(text: str) -> list[int]:
    return [int(t) for t in FRAME_MARK.findall(text)]


def test_frames_baseline_gives_sixty_spread_frames_and_the_transcript_at_every_step(run_baseline) -> None:
    rules = rules_for("Coffee & Tea", POLICY, [action("scroll [down]"), action("stop [$13.49]")])
    out, requests = run_baseline(rules, "1", "--policy", "frames")
    policy = [r for r in requests if r.kind == "policy"]
    assert len(policy) == 2  # one per step
    for request in policy:
        times = _frame_times(request.text)
        assert len(times) == 60 and times[0] == 0 and times[-1] >= VIDEO_SECONDS - 3  # spread over all 75 s
        assert all(b > a for a, b in zip(times, times[1:]))
        assert len(request.images) >= 60 and request.images[:60] == ["jpeg"] * 60
        assert SEARCH_TRANSCRIPT in request.text
    info = record(out, 1)["policy_info"]
    assert info["mode"] == "frames" and len(info["frame_times"][SEARCH_VIDEO]) == 60


def test_the_reference_sampling_quirk_is_recorded_with_the_frames_it_sent(run_baseline) -> None:
    rules = rules_for("Coffee & Tea", POLICY, [action("stop [$13.49]")])
    out, requests = run_baseline(rules, "1", "--policy", "frames", "--set",
                                 "video_context.reference_quirks=[fps_frame_step]")  # fmt: skip
    sent = _frame_times(next(r for r in requests if r.kind == "policy").text)
    info = record(out, 1)["policy_info"]
    note = info["frame_sampling"][SEARCH_VIDEO]
    assert info["quirks"] == ["fps_frame_step"] and note["quirk"] == "fps_frame_step"
    # 75 s at 4 fps is over 60 whole seconds: every 5th of its 300 frames, 60 of them, as sent.
    assert note["step"] == 5 and note["frames"] == len(info["frame_times"][SEARCH_VIDEO]) == len(sent) == 60


def test_summary_baseline_summarises_once_for_the_task_and_shows_it_at_every_step(run_baseline) -> None:
    rules = [{"contains": SUMMARY_REQUEST, "reply": SUMMARY}]
    rules += rules_for("Coffee & Tea", POLICY, [action("scroll [down]"), action("stop [$13.49]")])
    out, requests = run_baseline(rules, "1", "--policy", "summary")
    asked = [r for r in requests if SUMMARY_REQUEST in r.text]
    assert len(asked) == 1
    assert "cheapest product in the Coffee & Tea category" in asked[0].text  # conditioned on the task
    assert len(_frame_times(asked[0].text)) == 60 and SEARCH_TRANSCRIPT in asked[0].text
    policy = [r for r in requests if r.kind == "policy"]
    assert len(policy) == 2
    for request in policy:
        assert SUMMARY in request.text and not _frame_times(request.text)
    assert record(out, 1)["policy_info"]["summaries"] == {SEARCH_VIDEO: SUMMARY}


@pytest.mark.parametrize("policy", ["frames", "video"])
def test_factual_question_is_asked_about_the_video_and_scored(run_baseline, policy) -> None:
    rules = [{"contains": VIDEO_QUESTION, "reply": "The Sort By option was:\n```\nPrice\n```"}]
    rules += [{"regex": "earbuds.*" + re.escape(POLICY), "reply": action("stop [done]")}]
    rules += [{"contains": "Decide which of them could help", "reply": '```json\n{"picks": [], "reason": "none"}\n```'}]
    out, requests = run_baseline(rules, "6", "--policy", policy)
    asked = [r for r in requests if VIDEO_QUESTION in r.text]
    assert len(asked) == 1
    assert "Which option did the tutorial pick in the Sort By menu?" in asked[0].text
    assert len(_frame_times(asked[0].text)) == 60 and SEARCH_TRANSCRIPT in asked[0].text
    factual = record(out, 6)
    assert factual["intermediate_answer"] == "Price" and factual["intermediate_score"] == 1.0
    qa = factual["policy_info"]["intermediate_qa"]
    assert qa["question"] == "Which option did the tutorial pick in the Sort By menu?" and qa["answer"] == "Price"
    assert len(qa["frame_times"][SEARCH_VIDEO]) == 60 and qa["scripted"] is True


@pytest.mark.parametrize(("scored", "score"), [("fenced", 0.0), ("reply", 1.0)])
def test_the_reference_scores_the_whole_factual_reply(run_baseline, scored, score) -> None:
    # The phrase is in the reasoning, not in the block: VideoWA's runner (`reply`, its preset's value) finds it.
    reply = "The presenter opened Sort By and chose Price.\n```\nthe second option\n```"
    rules = [{"contains": VIDEO_QUESTION, "reply": reply}]
    rules += [{"regex": "earbuds.*" + re.escape(POLICY), "reply": action("stop [done]")}]
    out, _ = run_baseline(rules, "6", "--policy", "frames", "--set", f"video_context.intermediate_answer={scored}")
    factual = record(out, 6)
    expected = "the second option" if scored == "fenced" else reply
    assert factual["intermediate_answer"] == expected and factual["intermediate_score"] == score


def test_transcript_only_without_a_transcript_is_an_error_in_the_task_record(run_baseline) -> None:
    # Task 37's video (the forum tutorial) is in the index without a transcript.
    out, requests = run_baseline([], "37", "--transcript-only")
    task = record(out, 37)
    assert task["status"] == "error"
    (error,) = task["errors"]
    assert "--transcript-only has no transcript for this task" in error and "configure models.asr" in error
    assert not [r for r in requests if r.kind == "policy"]  # the base agent never ran in its place
