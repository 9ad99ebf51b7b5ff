"""A task's `image` field reaches the policy model with the intent, as VWA's runner gives it.

The image is served over real HTTP, downloaded once into the cache, and sent as an image
part of the first policy request (read from the SCRIPTED server's request log).
"""

from __future__ import annotations

import base64
import functools
import http.server
import io
import json
import threading
from pathlib import Path

import pytest
from PIL import Image

from cli.main import main
from model_access.scripted_server import ScriptedServer
from tasks.images import load_task_images

from tests.agent.world import POLICY, action


def _png(colour: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (48, 32), colour).save(out, format="PNG")
    return out.getvalue()


@pytest.fixture
def image_server(tmp_path):
    """A real HTTP server with one picture; `hits` counts the downloads."""
    folder = tmp_path / "www"
    folder.mkdir()
    (folder / "kettle.png").write_bytes(_png("red"))
    hits: list[str] = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the stdlib's name
            hits.append(self.path)
            super().do_GET()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/kettle.png", hits
    finally:
        server.shutdown()
        server.server_close()


def _image_urls(messages: list[dict]) -> list[str]:
    return [
        part["image_url"]["url"]
        for message in messages if isinstance(message.get("content"), list)
        for part in message["content"] if part.get("type") == "image_url"
    ]  # fmt: skip


@pytest.mark.parametrize("base_agent", ["agentoccam", "react"])
def test_the_first_policy_request_carries_the_task_images(
    sandbox, test_settings, image_server, tmp_path, base_agent
) -> None:
    url, hits = image_server
    inline = "data:image/png;base64," + base64.b64encode(_png("blue")).decode()
    task = {
        "sites": ["shopping"], "task_id": 1, "require_login": False, "storage_state": None,
        "start_url": "__SHOPPING__", "intent": "How much does the kettle in the picture cost?",
        "image": [url, inline], "require_reset": False,
        "eval": {"eval_types": ["string_match"], "reference_answers": {"exact_match": "$19.99"}},
    }  # fmt: skip
    configs = tmp_path / "configs"
    configs.mkdir()
    (configs / "pictures.json").write_text(json.dumps([task]))
    script = {"name": "agent", "rules": [{"contains": "kettle in the picture", "reply": action("stop [$19.99]")}]}
    with ScriptedServer(script) as server:
        code = main([
            "run", "--tasks", str(configs), "--policy", "base", "--set", f"agent.base_agent={base_agent}",
            "--out", str(tmp_path / "run"), "--no-progress",
            "--no-cache", "--policy-url", server.base_url, "--policy-model", "scripted-policy",
            "--set", "models.max_retries=0", "--set", f"paths.cache_dir={test_settings.paths.cache_dir}",
        ])  # fmt: skip
        requests = server.requests("/chat/completions")
    assert code == 0
    first = requests[0]["body"]["messages"]
    sent = _image_urls(first)
    # The two input images come first, then the screenshot of the page.
    assert sent[:2] == ["data:image/png;base64," + base64.b64encode(_png("red")).decode(), inline]
    assert len(sent) == 3 and sent[2].startswith("data:image/png;base64,")
    assert "INPUT IMAGES GIVEN WITH THE OBJECTIVE (2 of them" in json.dumps(first)
    folder = tmp_path / "run" / "tasks" / "pictures-1"
    record = json.loads((folder / "record.json").read_text())
    assert record["images"] == [url, inline] and record["answer"] == "$19.99"
    assert "input images given with the intent" in (folder / "report.html").read_text()
    # Downloaded once: a second load reads the cached copy.
    assert hits == ["/kettle.png"]
    assert load_task_images([url], test_settings.paths.cache_dir) == [_png("red")]
    assert hits == ["/kettle.png"]


def test_an_image_that_is_not_a_picture_names_the_source(tmp_path: Path) -> None:
    from foundation.errors import UserError

    bad = tmp_path / "notes.txt"
    bad.write_text("not an image")
    # a long path (a pytest-xdist worker's tmp folder is one) is shortened in its middle: the name stays
    with pytest.raises(UserError, match="task image .*notes.txt is not a picture"):
        load_task_images([str(bad)], tmp_path)
    with pytest.raises(UserError, match="task image .*missing.png not found"):
        load_task_images([str(tmp_path / "missing.png")], tmp_path)


def test_under_the_videowa_harness_the_policy_reads_set_of_marks_text(sandbox, test_settings, tmp_path) -> None:
    import re

    task = {
        "sites": ["shopping"], "task_id": 2, "require_login": False, "storage_state": None,
        "start_url": "__SHOPPING__", "intent": "Which store is this?", "require_reset": False,
        "eval": {"eval_types": ["string_match"], "reference_answers": {"must_include": ["One Stop Market"]}},
    }  # fmt: skip
    configs = tmp_path / "configs"
    configs.mkdir()
    (configs / "som.json").write_text(json.dumps([task]))
    script = {"name": "agent", "rules": [{"contains": POLICY, "reply": action("stop [One Stop Market]")}]}
    with ScriptedServer(script) as server:
        code = main([
            "run", "--harness", "videowa", "--set", "browser.wait_after_action_s=0.1",
            "--tasks", str(configs), "--policy", "base", "--out", str(tmp_path / "run"), "--no-progress",
            "--no-cache", "--policy-url", server.base_url, "--policy-model", "scripted-policy",
            "--set", "models.max_retries=0", "--set", f"paths.cache_dir={test_settings.paths.cache_dir}",
        ])  # fmt: skip
        (request,) = server.requests("/chat/completions")
    assert code == 0
    text = "\n".join(
        part["text"] for message in request["body"]["messages"] if isinstance(message["content"], list)
        for part in message["content"] if part.get("type") == "text"
    )  # fmt: skip
    assert "SET-OF-MARKS ELEMENTS OF THE PAGE IN VIEW:" in text and "ACCESSIBILITY TREE" not in text
    assert re.search(r"^\[\d+\] \[A\] \[.+\]$", text, re.M) and re.search(r"^\[\] \[StaticText\] \[", text, re.M)
