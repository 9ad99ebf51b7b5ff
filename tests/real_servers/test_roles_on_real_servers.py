"""The tool's model roles end to end on real servers running a real (tiny) model: the AgentOccam and ReAct
policies and the video policy (selection) playing sandbox tasks on llama.cpp, process-videos with real
labeling/merging/objective/filtering roles on `transformers serve`, the judge, and a policy step whose
prompt outgrows the model. SmolLM2-135M's replies are mostly unusable: what is checked is that every
task and video finishes, is scored, and says how the model behaved (unreadable, cut, too long)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from cli.main import main
from evaluation.scoring.judge import GRADES, JudgeReplyError, judge_from_client
from model_access.client import ModelClient
from model_access.messages import user_message
from model_access.scripted_server import ScriptedServer
from settings import load_settings
from tests.agent.world import EMBEDDING_MODEL, build_index
from tests.real_servers.conftest import REPLY_TOKENS

# A real model on 2 CPU cores: a few minutes per run on a quiet machine, several times that under load.
pytestmark = pytest.mark.timeout(1800)

# A forum task of the sandbox naming a video of the test index. One task proves each policy's path on a real
# server: the sites themselves are played by the scripted-server and reference-solution tests (each prompt here
# reads 1,000-2,500 tokens, 60-100 a second on 2 CPU cores; a page of 800 made them 1,400-2,200).
TASK_IDS = "37"
PAGE_TOKENS = 400
SELECTION_TOKENS = 96
STRUCTURED_SPAN_ACTIONS = 2


@pytest.fixture(scope="module")
def embeddings():
    """Hashed-bag-of-words embeddings for the small index (not a model result: only FAISS's ranking uses them)."""
    with ScriptedServer({"name": "embeddings", "default": "unused"}) as server:
        yield server


@pytest.fixture(scope="module")
def index(tmp_path_factory, embeddings) -> Path:
    return build_index(tmp_path_factory.mktemp("real-index"), embeddings.base_url)


def _run(out: Path, server, embeddings, index: Path, *flags: str) -> tuple[int, str]:
    command = [
        "run", "--ids", TASK_IDS, "--out", str(out), "--no-progress", "--index", str(index),
        "--policy-url", server.base_url, "--policy-model", server.model,
        "--set", f"models.policy.max_tokens={REPLY_TOKENS}", "--set", "models.policy.temperature=0",
        "--set", "models.policy.timeout_s=300", "--set", "models.max_retries=1",
        "--set", "models.embedding.backend=openai", "--set", f"models.embedding.base_url={embeddings.base_url}",
        "--set", f"models.embedding.model={EMBEDDING_MODEL}", "--set", "sandbox.reset_token=test-reset-token",
        # SmolLM2 reads text only: no screenshot, no demonstration screens (models check would fail the role).
        "--set", "agent.use_screenshot=false", "--set", "agent.visual=false", "--set", "selection.stage2_screens=false",
        # Every call reaches the server (a re-run must not replay the last run's replies) and nothing is kept.
        "--no-cache",
        # Short pages keep each step to a few seconds of prompt reading on 2 CPU cores.
        "--set", f"agentoccam.observation_token_budget={PAGE_TOKENS}",
        "--set", f"agent.observation_token_budget={PAGE_TOKENS}",
        # A garbled command is asked again once, not up to 10 times (AgentOccam's re-asks take no step).
        "--set", "agentoccam.max_invalid_reasks=1",
        *flags,
    ]  # fmt: skip
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main(command)
    return code, printed.getvalue()


def _records(out: Path) -> list[dict]:
    records = []
    for path in sorted((out / "tasks").glob("*/record.json")):
        record = json.loads(path.read_text())
        record["_episode"] = json.loads((path.parent / "episode.json").read_text())
        records.append(record)
    return records


def _check_played_and_reported(out: Path, printed: str, max_steps: int, tasks: int = 1) -> list[dict]:
    records = _records(out)
    assert len(records) == tasks, printed
    for record in records:
        assert record["status"] in ("passed", "failed", "unscorable"), record.get("errors")
        assert 1 <= record["steps"] <= max_steps
        assert set(record["model_health"]) >= {"unparseable_steps", "truncated_replies", "timeouts"}
        steps = record["_episode"]["steps"]
        assert all(step["model_usage"].get("calls", 0) >= 1 for step in steps)
        assert all(step["model_usage"].get("latency_s", 0) > 0 for step in steps)
    assert "model health" in printed and "replies cut at the length limit" in printed
    assert "episodes ended by:" in printed
    summary = json.loads((out / "summary.json").read_text())
    assert summary["model_health"]["totals"]["unparseable_steps"] == sum(
        r["model_health"]["unparseable_steps"] for r in records
    )
    page = (out / "index.html").read_text()
    assert "model health" in page and "ended by" in page
    return records


def test_agentoccam_plays_a_sandbox_task_on_llama_cpp(sandbox, llama_server, embeddings, index, tmp_path):
    out = tmp_path / "agentoccam"
    # One step: the prompt, the reply read (or asked again once) and the action on the page; AgentOccam's later
    # steps (plans, history) are checked against the scripted server in tests/agent/test_agentoccam.py.
    code, printed = _run(out, llama_server, embeddings, index, "--policy", "base", "--set", "agent.max_steps=1")
    assert code == 0, printed
    _check_played_and_reported(out, printed, 1)


def test_the_video_policy_selects_with_readable_replies_and_plays_a_sandbox_task_on_llama_cpp(
    sandbox, llama_server, embeddings, index, tmp_path
):
    """Structured output on (issue 39): every selection reply is held to its schema, so each one is read. One
    step asks both selection stages and the policy (a second step would add the continuation question)."""
    out = tmp_path / "method"
    code, printed = _run(
        out, llama_server, embeddings, index, "--policy", "video", "--set", "agent.max_steps=1",
        "--set", "models.policy.structured_output=auto",
        # room for a selection reply's JSON with its reason (a cut reply would break its schema)
        "--set", f"models.policy.max_tokens={SELECTION_TOKENS}",
    )  # fmt: skip
    assert code == 0, printed
    records = _check_played_and_reported(out, printed, 1)
    rows = [row for record in records for row in record["usage"]["policy"]["rows"]]
    selection = [row for row in rows if row["stage"].startswith("selection")]
    assert selection, {row["stage"] for row in rows}
    asked = sum(row["calls"] for row in selection)
    assert sum(row.get("constrained", 0) for row in selection) == asked
    assert sum(row.get("schema_violations", 0) for row in selection) == 0, selection
    assert all(record["model_health"]["unreadable_selections"] == 0 for record in records)


def test_react_on_transformers_serve_and_an_overflowing_prompt_is_a_recorded_failed_step(
    sandbox, transformers_server, embeddings, index, tmp_path
):
    out = tmp_path / "react"
    code, printed = _run(
        out, transformers_server, embeddings, index, "--policy", "base", "--set", "agent.base_agent=react",
        "--set", "agent.max_steps=2", "--set", "models.policy.context_tokens=500",
    )  # fmt: skip
    assert code == 0, printed
    for record in _records(out):
        assert record["status"] != "error", record.get("errors")  # scored, not crashed
        assert record["stop_reason"] == "context_overflow"
        assert record["model_health"]["context_overflows"] == 1
        assert any("context overflow" in error and "context_tokens" in error for error in record["errors"])


def test_the_judge_grades_with_a_real_model_or_says_its_reply_had_no_verdict(llama_server, tmp_path):
    settings = load_settings()
    settings.paths.cache_dir = tmp_path / "cache"
    settings.models.judge.base_url, settings.models.judge.model = llama_server.base_url, llama_server.model
    settings.models.judge.max_tokens = REPLY_TOKENS
    with ModelClient(settings) as client:
        judge = judge_from_client(client)
        try:
            verdict = judge.grade("What is the cheapest item?", "Kestrel earbuds", "The Kestrel earbuds")
        except JudgeReplyError as exc:
            assert "no verdict" in str(exc)
        else:
            assert verdict in GRADES
        assert client.ledger.usage("judge").calls == 1


def test_an_objective_is_graded_by_a_real_judge_or_its_reply_is_said_to_give_no_grade(llama_server, tmp_path):
    """The objective judge (processing/objective_grades.py) on a real model: a grade of 0-5, or None with why."""
    from processing.objective_grades import grade_objectives
    from tests.processing.test_objective_grades import VIDEO, _processed, _trajectory

    settings = load_settings()
    settings.paths.cache_dir = tmp_path / "cache"
    settings.models.judge.base_url, settings.models.judge.model = llama_server.base_url, llama_server.model
    settings.models.judge.max_tokens = REPLY_TOKENS
    processed = _processed(tmp_path / "processed", [_trajectory("Search the shop for headphones", 10.0)])
    with ModelClient(settings) as client:
        report = grade_objectives(settings, client, [VIDEO], processed)
    assert report is not None and not report.skipped, report
    (grade,) = report.grades
    assert grade.grade in range(6) or (grade.grade is None and "gives no grade" in grade.reason), grade
    assert report.lines()  # the summary names what was graded, or that no reply gave a grade


@pytest.fixture(scope="module")
def sandbox_tutorial(sandbox, tmp_path_factory) -> Path:
    """One sandbox tutorial recorded by the sandbox's own recorder, alone in a folder."""
    from tasks.sandbox.tutorials.recorder import record_tutorials

    (result,) = record_tutorials(sandbox.settings, only=["forum_browse_sort"])
    folder = tmp_path_factory.mktemp("one-tutorial")
    (folder / result.files.video.name).symlink_to(result.files.video)
    return folder


def test_process_videos_with_real_model_roles_finishes_on_a_sandbox_tutorial(
    transformers_server, sandbox_tutorial, tmp_path
):
    cache = tmp_path / "cache"
    roles = []
    for role in ("vlm", "llm"):
        roles += [f"--{role}-url", transformers_server.base_url, f"--{role}-model", transformers_server.model,
                  "--set", f"models.{role}.max_tokens={REPLY_TOKENS}", "--set", f"models.{role}.timeout_s=900",
                  "--set", f"models.{role}.temperature=0"]  # fmt: skip
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main(["process-videos", "--source", "dir", "--videos", str(sandbox_tutorial), *roles,
                     # One request at a time: the server answers them one by one, and queued ones would time out.
                     "--set", f"paths.cache_dir={cache}", "--set", "models.max_retries=1", "--set", "models.max_concurrency=1",
                     "--set", "processing.model_image_max_side=320"])  # fmt: skip
    text = printed.getvalue()
    assert code == 0, text
    summary = json.loads((cache / "processed" / "summary.json").read_text())
    (video,) = summary["per_video"]
    assert video["ok"], video
    assert {"labeling", "merging"} <= set(video["stages"]), video["stages"]
    assert video["stages"]["labeling"]["calls"] >= 1
    assert "answered by" in text and "SCRIPTED" not in text  # the usage table: every reply came from the real model


def test_process_videos_with_structured_output_on_llama_cpp_gets_valid_json_from_every_stage(
    llama_server, sandbox_tutorial, tmp_path
):
    """Issue 39: objectives, action filtering and trajectory checks held to their schemas on a real server;
    then the labeling and merging prompts themselves (SmolLM2 reads no frames, so their text alone)."""
    cache = tmp_path / "cache"
    roles = []
    for role in ("vlm", "llm"):
        roles += [f"--{role}-url", llama_server.base_url, f"--{role}-model", llama_server.model,
                  "--set", f"models.{role}.max_tokens={SELECTION_TOKENS}", "--set", f"models.{role}.timeout_s=900",
                  "--set", f"models.{role}.temperature=0", "--set", f"models.{role}.structured_output=auto"]  # fmt: skip
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main(["process-videos", "--source", "dir", "--videos", str(sandbox_tutorial), *roles,
                     "--labeler", "ocr", "--objectives", "vlm", "--set", "processing.frames_in_prompts=false",
                     # Spans of at most 2 actions: 35 objective and 35 trajectory-check calls instead of 165 each
                     # (SmolLM2 answers about 2 a second here); every stage still answers under its schema.
                     "--set", f"processing.max_trajectory_actions={STRUCTURED_SPAN_ACTIONS}",
                     "--set", f"paths.cache_dir={cache}", "--set", "models.max_retries=1",
                     "--set", "models.max_concurrency=1"])  # fmt: skip
    text = printed.getvalue()
    assert code == 0, text
    summary = json.loads((cache / "processed" / "summary.json").read_text())
    rows = {row["stage"]: row for row in summary["model_usage"]["rows"]}
    assert {"trajectories", "action_filtering", "trajectory_filtering"} <= set(rows), sorted(rows)
    for stage in ("trajectories", "action_filtering", "trajectory_filtering"):  # objectives, filters
        assert rows[stage]["constrained"] == rows[stage]["calls"] >= 1, rows[stage]
        assert rows[stage]["schema_violations"] == 0, rows[stage]

    from processing.stages.merging import parse_groups
    from processing.templates import render, reply_schema

    settings = load_settings()
    settings.paths.cache_dir = cache
    p = settings.processing
    labeling = render("labeling", p, title="Sort forum posts", first_frame=1, last_frame=4, frame_count=4,
                      frame_width=640, frame_height=400)
    labeling += "\nFrame 1: the forum list. Frame 2: the Sort menu open. Frame 3: 'Top' chosen. Frame 4: sorted list."
    merging = render("merging", p, title="Sort forum posts", count=2, last_id=1,
                     actions='0. click "Sort" (frames 1-2)\n1. click "Sort" (frames 2-2)')  # fmt: skip
    for mode in ("json_schema", "grammar"):
        settings.models.vlm.base_url = settings.models.llm.base_url = llama_server.base_url
        settings.models.vlm.model = settings.models.llm.model = llama_server.model
        for role in (settings.models.vlm, settings.models.llm):
            role.max_tokens, role.temperature, role.structured_output = 160, 0.0, mode
        with ModelClient(settings) as client:
            labeled = client.chat("vlm", [user_message(labeling)], stage="labeling", use_cache=False,
                                  reply_schema=reply_schema("labeling", p))  # fmt: skip
            merged = client.chat("llm", [user_message(merging)], stage="merging", use_cache=False,
                                 reply_schema=reply_schema("merging", p))  # fmt: skip
        for result in (labeled, merged):
            assert result.constrained and result.schema_violation == "", (mode, result.text)
        parse_groups(merged.text, 2)  # the stage's own parser reads it
