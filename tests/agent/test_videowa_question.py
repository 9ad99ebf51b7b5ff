"""What the video requests carry under `--harness videowa`. The factual question is VideoWA's own
(`video_context.intermediate_prompt: videowa`), built from the question file of the user's checkout (written here
by the test in the same JSON shape, in our words), over the video's frames at full size in the BGR order the
reference sends, and its whole transcript; the frames and summary baselines send their frames and transcript
the same way, and the summary is asked with the checkout's summary file (`video_context.summary_prompt`)."""

from __future__ import annotations

import base64
import contextlib
import io
import json
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from cli.main import main
from model_access.scripted_server import ScriptedServer
from agent.videos.context import TaskVideo, transcript_part, transcript_share
from settings import load_settings
from tests.agent.world import POLICY, SEARCH_TRANSCRIPT, SEARCH_VIDEO, action, build_index, record, run_command

INTRO = "You read tutorial videos from their frames and narration, then answer what is asked about them."
EXAMPLE_TEXT = "CLIP:\n[FRAME-1]\nSPOKEN:\nI open the garden tools.\nASKED:\nWhich section was opened?"
EXAMPLE_REPLY = "RESULT: Garden tools"
ANSWER_PHRASE = "RESULT:"
QUESTION = "Which option did the tutorial pick in the Sort By menu?"  # sandbox task 6's intermediate_intent
WIDTH, HEIGHT, SECONDS = 320, 240, 75  # over 60 s: 60 frames spread over the video


def _checkout(root: Path) -> Path:
    """A folder shaped like a VideoWA checkout: the question file and its example frame."""
    (root / "agent/prompts/jsons").mkdir(parents=True)
    (root / "agent/prompts/video_frame_examples").mkdir(parents=True)
    Image.new("RGB", (32, 24), (20, 160, 40)).save(root / "agent/prompts/video_frame_examples/garden_0.png")
    prompt = {
        "intro": INTRO,
        "examples": [[EXAMPLE_TEXT, EXAMPLE_REPLY, ["agent/prompts/video_frame_examples/garden_0.png"]]],
        "template": "CLIP:\n{video}\nSPOKEN:\n{audio}\nASKED:\n{objective}",
        "meta_data": {
            "keywords": ["video", "audio", "objective"],
            "prompt_constructor": "VideoFrameUnderstandingPromptConstructor",
            "answer_phrase": ANSWER_PHRASE,
        },
    }
    path = root / "agent/prompts/jsons/video_frame_intent_understanding.json"
    path.write_text(json.dumps(prompt))
    return path


SUMMARY_INTRO = "You watch a screen recording of a website and tell an agent what in it serves the agent's goal."
SUMMARY_TEMPLATE = "CLIP:\n{video}\nSPOKEN:\n{audio}\nGOAL:\n{objective}"
SUMMARY_PHRASE = "Working through the clip:"
SUMMARY = "The presenter types a product name in the search box, then sorts the results by price."


def _summary_file(root: Path) -> Path:
    """The checkout's summary file (video_frame_understanding.json), beside the question file `_checkout` wrote."""
    prompt = {
        "intro": SUMMARY_INTRO,
        "examples": [[SUMMARY_TEMPLATE.format(video="[FRAME-1]", audio="I open the garden tools.",
                                              objective="Buy a rake"),
                      "The presenter opens Garden tools.", ["agent/prompts/video_frame_examples/garden_0.png"]]],
        "template": SUMMARY_TEMPLATE,
        "meta_data": {
            "keywords": ["video", "audio", "objective"],
            "prompt_constructor": "VideoFrameUnderstandingPromptConstructor",
            "answer_phrase": SUMMARY_PHRASE,
        },
    }  # fmt: skip
    path = root / "agent/prompts/jsons/video_frame_understanding.json"
    path.write_text(json.dumps(prompt))
    return path


@pytest.fixture(scope="module")
def red_index(tmp_path_factory) -> Path:
    """The index with the search tutorial as a plain red video: a colour swap shows in every frame."""
    folder = tmp_path_factory.mktemp("red-index")
    video = folder / f"{SEARCH_VIDEO}.mp4"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                    f"color=c=red:size={WIDTH}x{HEIGHT}:rate=4:duration={SECONDS}", "-c:v", "libx264",
                    "-preset", "ultrafast", "-pix_fmt", "yuv420p", str(video)], check=True)  # fmt: skip
    with ScriptedServer({"name": "embeddings", "default": "unused"}) as server:
        return build_index(folder, server.base_url, {SEARCH_VIDEO: video})


def _run(sandbox, test_settings, red_index, tmp_path, rules, *flags: str) -> tuple[int, str, Path, list]:
    out = tmp_path / "run"
    with ScriptedServer({"name": "agent", "rules": rules}) as server:
        command = run_command(out, red_index, server.base_url, "6", "--harness", "videowa", *flags)
        command += ["--set", f"paths.cache_dir={test_settings.paths.cache_dir}"]
        command += ["--set", "browser.wait_after_action_s=0"]
        with contextlib.redirect_stdout(io.StringIO()) as printed, contextlib.redirect_stderr(io.StringIO()) as said:
            code = main(command)
        bodies = [entry["body"] for entry in server.requests("/chat/completions")]
    return code, printed.getvalue() + said.getvalue(), out, bodies


def _frames_after_time_marks(messages: list[dict]) -> list[Image.Image]:
    """The images our prompt labels `[N s in the video]`: the frames baseline's frames, not the screenshot."""
    content = [part for message in messages if isinstance(message["content"], list) for part in message["content"]]
    return [_image(part) for before, part in zip(content, content[1:])
            if re.fullmatch(r"\[\d+ s in the video\]", before.get("text", "").strip()) and part["type"] == "image_url"]


def _is_blue(image: Image.Image) -> bool:
    red, green, blue = np.asarray(image).reshape(-1, 3).mean(axis=0)
    return blue > 200 and red < 40 and green < 40  # the red video arrives blue: OpenCV's BGR read as RGB


def _length(body: dict) -> int:
    return body.get("max_completion_tokens", body.get("max_tokens"))


def _image(part: dict) -> Image.Image:
    header, _, payload = part["image_url"]["url"].partition(",")
    assert header == "data:image/png;base64"
    return Image.open(io.BytesIO(base64.b64decode(payload))).convert("RGB")


@pytest.mark.parametrize("policy", ["frames", "video"])
def test_the_factual_question_is_the_checkout_s_own_with_whole_bgr_frames_and_transcript(
    sandbox, test_settings, red_index, tmp_path, policy
) -> None:
    question_file = _checkout(tmp_path / "videowebarena")
    reply = "The presenter opens Sort By and picks an option.\nRESULT: Price"
    rules = [{"contains": INTRO, "reply": reply}]
    rules += [{"regex": "earbuds.*" + re.escape(POLICY), "reply": action("stop [done]")}]
    rules += [{"contains": "Decide which of them could help", "reply": '```json\n{"picks": [], "reason": "none"}\n```'}]
    code, said, out, bodies = _run(
        sandbox, test_settings, red_index, tmp_path, rules, "--policy", policy,
        "--set", f"video_context.videowa_question_file={question_file}",
        "--set", "video_context.transcript_max_chars=40",  # our question would cut the transcript here
    )  # fmt: skip
    assert code == 0, said
    asked = [body for body in bodies if json.dumps(body).count(INTRO)]
    assert len(asked) == 1
    messages = asked[0]["messages"]
    assert messages[0] == {"role": "system", "content": INTRO}
    assert [m.get("name") for m in messages[1:3]] == ["example_user", "example_assistant"]
    example = messages[1]["content"]
    assert [example[0]["text"], example[1]["text"]] == [EXAMPLE_TEXT, "frame-0"]
    assert _image(example[2]).getpixel((5, 5)) == (20, 160, 40)  # the checkout's example frame, colours as they are
    assert messages[2]["content"] == EXAMPLE_REPLY
    current = messages[3]["content"]
    frames = " ".join(f"[FRAME-{n}]" for n in range(1, 61))
    assert current[0]["text"] == f"CLIP:\n{frames}\nSPOKEN:\n{SEARCH_TRANSCRIPT}\nASKED:\n{QUESTION}"
    assert [part["text"] for part in current[1::2]] == [f"frame-{n}" for n in range(60)]
    images = [_image(part) for part in current[2::2]]
    assert len(images) == 60 and {image.size for image in images} == {(WIDTH, HEIGHT)}  # full size
    assert _is_blue(images[30])
    assert messages[4] == {"role": "user", "content": ANSWER_PHRASE}
    factual = record(out, 6)
    assert factual["intermediate_answer"] == reply and factual["intermediate_score"] == 1.0
    assert {_length(body) for body in bodies} == {4096}  # a run with videos: run_videowa.sh's --max_tokens
    assert factual["policy_info"]["intermediate_qa"]["asked"].endswith("video_frame_intent_understanding.json")


def test_without_the_question_file_the_harness_stops_in_one_line(sandbox, test_settings, red_index, tmp_path) -> None:
    code, said, _, bodies = _run(sandbox, test_settings, red_index, tmp_path, [], "--policy", "frames")
    assert code != 0 and not bodies
    assert "video_context.videowa_question_file is not set: set it to agent/prompts/jsons/" in said


def test_our_question_stays_a_setting_under_the_harness(sandbox, test_settings, red_index, tmp_path) -> None:
    rules = [{"contains": "Answer this question about the tutorial video", "reply": "Sorted.\n```\nPrice\n```"}]
    rules += [{"regex": "earbuds.*" + re.escape(POLICY), "reply": action("stop [done]")}]
    code, said, out, bodies = _run(
        sandbox, test_settings, red_index, tmp_path, rules, "--policy", "frames",
        "--set", "video_context.intermediate_prompt=ours",
    )  # fmt: skip
    assert code == 0, said
    assert not any(INTRO in json.dumps(body) for body in bodies)
    assert sum("Answer this question about the tutorial video" in json.dumps(body) for body in bodies) == 1
    assert record(out, 6)["intermediate_score"] == 1.0


@pytest.mark.parametrize("flags", [("--policy", "base"), ("--policy", "video", "--no-videos")])
def test_the_no_video_baseline_decodes_384_tokens(sandbox, test_settings, red_index, tmp_path, flags) -> None:
    # VideoWA's Set-of-Marks scripts (its baseline without video) pass no --max_tokens: run.py's default.
    rules = [{"regex": "earbuds", "reply": action("stop [done]")}]
    code, said, _, bodies = _run(sandbox, test_settings, red_index, tmp_path, rules, *flags)
    assert code == 0, said
    assert bodies and {_length(body) for body in bodies} == {384}
    assert {(body["temperature"], body["top_p"]) for body in bodies} == {(1.0, 0.9)}


def test_a_policy_prompt_file_given_as_the_question_file_is_refused_in_one_line(tmp_path) -> None:
    from agent.videos.videowa_question import load_question_prompt
    from foundation.errors import UserError

    path = _checkout(tmp_path)
    data = json.loads(path.read_text())
    data["meta_data"]["prompt_constructor"] = "MultimodalCoTPromptConstructor"
    data["examples"] = [[EXAMPLE_TEXT, EXAMPLE_REPLY, "agent/prompts/video_frame_examples/garden_0.png"]]
    path.write_text(json.dumps(data))
    with pytest.raises(UserError, match="is not a frame question file .*video_frame_intent_understanding.json"):
        load_question_prompt(str(path))
    with pytest.raises(UserError, match=r"videowa_question_file: .*nope.json does not exist"):
        load_question_prompt(str(tmp_path / "nope.json"))


def test_the_frames_baseline_sends_whole_bgr_frames_and_the_whole_transcript(
    sandbox, test_settings, red_index, tmp_path
) -> None:
    question_file = _checkout(tmp_path / "videowebarena")
    rules = [{"contains": INTRO, "reply": "RESULT: Price"}]
    rules += [{"regex": "earbuds.*" + re.escape(POLICY), "reply": action("stop [done]")}]
    code, said, _, bodies = _run(sandbox, test_settings, red_index, tmp_path, rules, "--policy", "frames",
                                 "--set", f"video_context.videowa_question_file={question_file}")  # fmt: skip
    assert code == 0, said
    (step,) = [body for body in bodies if POLICY in json.dumps(body)]
    frames = _frames_after_time_marks(step["messages"])  # _image: each a PNG
    assert len(frames) == 60 and {frame.size for frame in frames} == {(WIDTH, HEIGHT)}  # full size
    assert all(_is_blue(frame) for frame in frames[::10])
    assert SEARCH_TRANSCRIPT in json.dumps(step)


def test_the_transcript_is_whole_under_the_harness_and_cut_by_default() -> None:
    video = TaskVideo("long", Path("long.mp4"), "A long tutorial", "I click the next button. " * 600)  # 15,000 chars
    for settings, whole in ((load_settings(), False), (load_settings(harness="videowa"), True)):
        shown = transcript_part(video, transcript_share(settings.video_context, 1))["text"]
        assert (video.transcript in shown) is whole and len(shown) > (14_000 if whole else 11_000)


def test_the_summary_is_asked_with_the_checkout_s_file(sandbox, test_settings, red_index, tmp_path) -> None:
    question_file = _checkout(tmp_path / "videowebarena")
    summary_file = _summary_file(tmp_path / "videowebarena")
    rules = [{"contains": SUMMARY_INTRO, "reply": SUMMARY}, {"contains": INTRO, "reply": "RESULT: Price"}]
    rules += [{"regex": "earbuds.*" + re.escape(POLICY), "reply": action("stop [done]")}]
    code, said, out, bodies = _run(
        sandbox, test_settings, red_index, tmp_path, rules, "--policy", "summary",
        "--set", f"video_context.videowa_question_file={question_file}",
        "--set", f"video_context.videowa_summary_file={summary_file}",
    )  # fmt: skip
    assert code == 0, said
    (asked,) = [body for body in bodies if SUMMARY_INTRO in json.dumps(body)]
    messages = asked["messages"]
    assert messages[0] == {"role": "system", "content": SUMMARY_INTRO}
    assert [m.get("name") for m in messages[1:3]] == ["example_user", "example_assistant"]
    current = messages[3]["content"]
    intent = "Search the store for 'earbuds' and sort the results the way the tutorial sorted its search."
    video = " ".join(f"[FRAME-{n}]" for n in range(1, 61))
    assert current[0]["text"] == SUMMARY_TEMPLATE.format(video=video, audio=SEARCH_TRANSCRIPT, objective=intent)
    images = [_image(part) for part in current[2::2]]
    assert len(images) == 60 and {image.size for image in images} == {(WIDTH, HEIGHT)} and _is_blue(images[30])
    assert messages[4] == {"role": "user", "content": SUMMARY_PHRASE}
    (step,) = [body for body in bodies if POLICY in json.dumps(body)]
    assert SUMMARY in json.dumps(step)
    info = record(out, 6)["policy_info"]
    assert info["summaries"] == {SEARCH_VIDEO: SUMMARY} and info["summary_prompt"] == "video_frame_understanding.json"


def test_without_the_summary_file_the_summary_baseline_stops_in_one_line(
    sandbox, test_settings, red_index, tmp_path
) -> None:
    question_file = _checkout(tmp_path / "videowebarena")
    code, said, _, bodies = _run(sandbox, test_settings, red_index, tmp_path, [], "--policy", "summary",
                                 "--set", f"video_context.videowa_question_file={question_file}")  # fmt: skip
    assert code == 2 and not bodies
    (line,) = [line for line in said.splitlines() if "videowa_summary_file" in line]
    assert "video_context.videowa_summary_file is not set: set it to agent/prompts/jsons/video_frame_under" in line
