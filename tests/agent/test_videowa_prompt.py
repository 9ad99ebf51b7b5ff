"""`agent.videowa_prompt_file`: the react agent under `--harness videowa` asks with VideoWA's own prompt file, read
from the user's checkout at run time. The file here is written by the test in the same JSON shape, in our words."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from PIL import Image

from cli.main import main
from foundation.errors import UserError
from model_access.scripted_server import ScriptedServer
from agent.base.videowa_prompt import load_reference_prompt
from tests.agent.world import chat_requests, record, run_command

INTRO = "You steer a web browser for a user. Finish with the phrase below and one action in a fence."
EXAMPLE_PAGE = "OBSERVATION:\n[1] [A] [Garden tools]\nURL: http://onestopmarket.com\nOBJECTIVE: open the garden tools"
EXAMPLE_REPLY = "The link leads there. My next action is ```click [1]```"
ANSWER_PHRASE = "My next action is"


def _checkout(root: Path) -> Path:
    """A folder shaped like a VideoWA checkout: the prompt file and its example screenshot."""
    (root / "agent/prompts/jsons").mkdir(parents=True)
    (root / "agent/prompts/som_examples").mkdir(parents=True)
    Image.new("RGB", (64, 48), (200, 30, 30)).save(root / "agent/prompts/som_examples/garden.png")
    prompt = {
        "intro": INTRO,
        "examples": [[EXAMPLE_PAGE, EXAMPLE_REPLY, "agent/prompts/som_examples/garden.png"]],
        "template": "OBSERVATION:\n{observation}\nURL: {url}\nOBJECTIVE: {objective}\n"
        "PREVIOUS ACTION: {previous_action}",
        "meta_data": {
            "observation": "image_som",
            "action_type": "som",
            "keywords": ["url", "objective", "observation", "previous_action"],
            "prompt_constructor": "MultimodalCoTPromptConstructor",
            "answer_phrase": ANSWER_PHRASE,
            "action_splitter": "```",
        },
    }
    path = root / "agent/prompts/jsons/p_som_cot_id_actree_3s.json"
    path.write_text(json.dumps(prompt))
    return path


def test_a_missing_prompt_file_is_one_clear_line(sandbox, tmp_path) -> None:
    with pytest.raises(UserError, match=r"agent.videowa_prompt_file: .*nope.json does not exist; point it at"):
        load_reference_prompt(str(tmp_path / "nope.json"))
    out = tmp_path / "run"
    command = run_command(out, tmp_path, "http://127.0.0.1:9", "1", "--policy", "base", "--harness", "videowa")
    command += ["--set", f"agent.videowa_prompt_file={tmp_path / 'nope.json'}"]
    command += ["--set", "models.check_before_run=false"]
    with contextlib.redirect_stderr(io.StringIO()) as said, contextlib.redirect_stdout(io.StringIO()):
        assert main(command) != 0
    assert "nope.json does not exist" in said.getvalue()


def test_the_checkout_prompt_file_makes_the_request(sandbox, test_settings, tmp_path) -> None:
    prompt_file = _checkout(tmp_path / "videowebarena")
    rules = [
        {"contains": "PREVIOUS ACTION: None", "reply": f"I look further down. {ANSWER_PHRASE} ```scroll down```"},
        {"contains": "PREVIOUS ACTION: scroll [down]", "reply": f"Done here. {ANSWER_PHRASE} ```stop [$13.49]```"},
    ]
    out = tmp_path / "run"
    with ScriptedServer({"name": "agent", "rules": rules}) as server:
        command = run_command(out, tmp_path, server.base_url, "1", "--policy", "base", "--harness", "videowa")
        command += ["--set", f"agent.videowa_prompt_file={prompt_file}"]
        command += ["--set", f"paths.cache_dir={test_settings.paths.cache_dir}"]
        command += ["--set", "browser.wait_after_action_s=0"]
        with contextlib.redirect_stdout(io.StringIO()) as printed:
            assert main(command) == 0, printed.getvalue()
        bodies = [entry["body"] for entry in server.requests("/chat/completions")]
        requests = chat_requests(server)
    assert len(bodies) == 2
    first = bodies[0]
    # the preset's decoding; no video: its Set-of-Marks baseline's 384 tokens (run.py's default), not 4096
    length = first.get("max_completion_tokens", first.get("max_tokens"))
    assert (first["temperature"], first["top_p"], length) == (1.0, 0.9, 384)
    messages = first["messages"]
    # A message of text parts only goes as one string (model_access joins them; llama.cpp refuses the list).
    assert messages[0] == {"role": "system", "content": INTRO}
    assert [m.get("name") for m in messages[1:3]] == ["example_user", "example_assistant"]
    assert messages[1]["content"][0]["text"] == EXAMPLE_PAGE and messages[2]["content"] == EXAMPLE_REPLY
    assert requests[0].images[0] == "png"  # the example's screenshot, read from the checkout
    current = messages[3]["content"][0]["text"]
    assert current.startswith("OBSERVATION:\n[") and "URL: http://onestopmarket.com" in current
    assert "PREVIOUS ACTION: None" in current and "Tab 0" not in current
    assert messages[3]["content"][1]["text"] == "IMAGES: (1) current page screenshot"
    assert messages[-1] == {"role": "user", "content": ANSWER_PHRASE}
    assert "PREVIOUS ACTION: scroll [down]" in bodies[1]["messages"][3]["content"][0]["text"]
    assert record(out, 1)["answer"] == "$13.49"


def test_the_prompt_file_takes_the_material_of_its_own_baseline_and_refuses_any_other(tmp_path) -> None:
    """The base agent tells frames from a summary by shape, without importing the baselines' room."""
    from agent.base.videowa_prompt import reference_messages
    from agent.videos.context import TaskVideo
    from agent.videos.demonstration import SELECTED, Demonstration
    from agent.videowa_baselines.material import FramesMaterial, SummaryMaterial

    path = _checkout(tmp_path)
    data = json.loads(path.read_text())
    fields = {"objective": "buy a rake", "url": "http://onestopmarket.com", "observation": "[1] [A] [Rakes]",
              "previous_action": "None"}  # fmt: skip
    frame = {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,AAAA"}}
    frames = FramesMaterial([{"type": "text", "text": "frame at 0 s"}, frame], transcript="Open the garden menu.")
    summary = SummaryMaterial([(TaskVideo("v1", tmp_path / "v1.mp4", "Rakes", ""), "Open Garden, then Rakes.")])

    data["template"] += "\nVIDEO: {video}\nAUDIO: {audio}"
    path.write_text(json.dumps(data))
    messages = reference_messages(load_reference_prompt(str(path)), fields, None, [], frames)
    current = messages[-2]["content"]
    assert "VIDEO: [FRAME1]\nAUDIO: Open the garden menu." in current[0]["text"]
    assert current[-3:] == [{"type": "text", "text": "Video frames"}, {"type": "text", "text": "frame-0"}, frame]
    for other in (summary, Demonstration(SELECTED), None):
        with pytest.raises(UserError, match="run it with --policy frames"):
            reference_messages(load_reference_prompt(str(path)), fields, None, [], other)

    data["template"] = data["template"].split("\nVIDEO:")[0] + "\nTUTORIAL: {tutorial}"
    path.write_text(json.dumps(data))
    messages = reference_messages(load_reference_prompt(str(path)), fields, None, [], summary)
    assert "TUTORIAL: Open Garden, then Rakes." in messages[-2]["content"][0]["text"]
    with pytest.raises(UserError, match="run it with --policy summary"):
        reference_messages(load_reference_prompt(str(path)), fields, None, [], frames)
