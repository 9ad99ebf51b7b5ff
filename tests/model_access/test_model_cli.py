"""`videodemo models ...` and the model options shared by other commands."""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time

import openai

from cli.main import main
from model_access.cli import add_model_arguments, apply_model_arguments
from settings import PROJECT_ROOT, load_settings


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_shared_model_options_set_roles_and_cache():
    parser = argparse.ArgumentParser()
    add_model_arguments(parser)
    args = parser.parse_args(
        ["--no-cache", "--vlm-url", "http://gpu:8000/v1", "--vlm-model", "qwen-vl", "--judge-model", "j"]
    )
    settings = load_settings()
    apply_model_arguments(args, settings)
    assert settings.models.use_cache is False
    assert (settings.models.vlm.base_url, settings.models.vlm.model) == ("http://gpu:8000/v1", "qwen-vl")
    assert settings.models.judge.model == "j" and settings.models.llm.base_url == ""

    untouched = load_settings()
    apply_model_arguments(parser.parse_args([]), untouched)
    assert untouched.models.use_cache is True


# A model that answers the check's question (role_check.QUESTION) and says OK to the rest.
ANSWERS = {"rules": [{"contains": "2 plus 3", "reply": "5"}], "default": "OK"}


def test_models_check_reports_each_role(scripted, tmp_path, capsys):
    server = scripted({"name": "demo", **ANSWERS})
    dead = f"http://127.0.0.1:{_free_port()}/v1"
    code = main(
        [
            "models",
            "check",
            "--vlm-url", server.base_url, "--vlm-model", "qwen-vl",
            "--judge-url", dead, "--judge-model", "judge-model",
            "--set", f"paths.cache_dir={tmp_path}",
            "--set", "models.max_retries=1",
            "--set", "models.backoff_initial_s=0.01",
            "--set", "models.embedding.backend=openai",
            "--set", f"models.embedding.base_url={server.base_url}",
            "--set", "models.embedding.model=emb",
        ]
    )  # fmt: skip
    blocks = _blocks(capsys.readouterr().out)
    assert code == 1  # the judge's endpoint is down
    assert blocks["vlm"].startswith("vlm       ok") and "SCRIPTED (not a model result)" in blocks["vlm"]
    assert "scripted/demo answered" in blocks["vlm"] and "accepted an image" in blocks["vlm"]
    assert "not configured" in blocks["llm"] and "--set models.llm.base_url=" in blocks["llm"]
    assert "FAILED" in blocks["judge"] and dead in blocks["judge"] and "judge-model" in blocks["judge"]
    # A role failed: the embedding model is not loaded for a check that fails already.
    assert "not checked" in blocks["embedding"] and not server.requests("/v1/embeddings")
    reply_check = server.requests()[0]
    assert reply_check["body"]["model"] == "qwen-vl"
    with_image = [r for r in server.requests() if isinstance(r["body"]["messages"][0]["content"], list)]
    assert with_image and with_image[0]["body"]["messages"][0]["content"][1]["type"] == "image_url"


def _blocks(out: str) -> dict[str, str]:
    """The lines `models check` printed per role (a role's line and its indented findings)."""
    blocks: dict[str, str] = {}
    current = ""
    for line in out.splitlines():
        if line and not line.startswith(" "):
            current = line.split()[0]
            blocks[current] = line
        elif current:
            blocks[current] += "\n" + line
    return blocks


def _scripted_embeddings(server, tmp_path) -> list[str]:
    return ["--set", f"paths.cache_dir={tmp_path}", "--set", "models.embedding.backend=openai",
            "--set", f"models.embedding.base_url={server.base_url}", "--set", "models.embedding.model=emb"]  # fmt: skip


def test_models_check_names_a_model_the_server_does_not_serve(scripted, tmp_path, capsys):
    server = scripted({"serves": ["smollm2-135m-instruct"], "default": "OK"})
    code = main(["models", "check", "--llm-url", server.base_url, "--llm-model", "smollm2",
                 *_scripted_embeddings(server, tmp_path)])  # fmt: skip
    blocks = _blocks(capsys.readouterr().out)
    assert code == 1
    assert "FAILED" in blocks["llm"] and "does not serve 'smollm2'" in blocks["llm"]
    assert "it serves: smollm2-135m-instruct" in blocks["llm"]
    assert not server.requests()  # nothing was generated for a name the server does not serve


def test_models_check_warns_on_a_reply_that_ignores_the_instruction(scripted, tmp_path, capsys):
    server = scripted({"serves": ["tiny"], "default": "Sure! Here is a poem about the sea."})
    code = main(["models", "check", "--llm-url", server.base_url, "--llm-model", "tiny",
                 *_scripted_embeddings(server, tmp_path)])  # fmt: skip
    blocks = _blocks(capsys.readouterr().out)
    assert code == 0  # a warning, not a failure
    assert "WARN" in blocks["llm"] and "does not answer" in blocks["llm"]
    assert "64 dimensions" in blocks["embedding"]


def test_models_check_fails_a_server_that_echoes_the_prompt(scripted, tmp_path, capsys):
    """An echo used to pass ("Reply with the single word OK." holds OK): the question's answer is not in it."""
    from model_access.role_check import QUESTION

    server = scripted({"serves": ["echo"], "rules": [{"contains": "2 plus 3", "reply": QUESTION}], "default": "OK"})
    code = main(["models", "check", "--llm-url", server.base_url, "--llm-model", "echo",
                 *_scripted_embeddings(server, tmp_path)])  # fmt: skip
    blocks = _blocks(capsys.readouterr().out)
    assert code == 1
    assert "FAILED" in blocks["llm"] and "echoes the prompt back" in blocks["llm"]


def test_models_check_passes_a_model_that_answers_and_is_quiet_about_its_own_length_probe(
    scripted, tmp_path, capsys, caplog, monkeypatch
):
    """The check's own 5-token probe is cut on purpose: nothing alarming is printed for it. The local embedding
    model is loaded once for all roles, and not at all when a role failed."""
    import logging

    from model_access import embeddings

    loads: list[str] = []

    class Model:
        def encode(self, texts, **_):
            import numpy as np

            return np.ones((len(texts), 8), dtype="float32")

    def load(name: str = embeddings.PACKAGED_MODEL):
        loads.append(name)
        return Model()

    monkeypatch.setattr(embeddings, "load_local_model", load)
    long_reply = {"contains": "Count from 1 to 200", "reply": "one, two, three, four, five, six, seven, eight"}
    server = scripted({"serves": ["tiny"], "rules": [long_reply, *ANSWERS["rules"]], "default": "OK"})
    roles = ["--llm-url", server.base_url, "--llm-model", "tiny",
             "--judge-url", server.base_url, "--judge-model", "tiny"]  # fmt: skip
    local = ["--set", f"paths.cache_dir={tmp_path}", "--set", "models.embedding.backend=local"]
    with caplog.at_level(logging.INFO):
        code = main(["models", "check", *roles, *local])
    out = capsys.readouterr()
    blocks = _blocks(out.out)
    assert code == 0, out.out
    assert blocks["llm"].startswith("llm       ok") and blocks["judge"].startswith("judge     ok")
    assert "'5'" in blocks["llm"]
    length_probe = [r for r in server.requests() if "Count from 1" in str(r["body"]["messages"])]
    assert length_probe[0]["body"]["max_tokens"] == 5  # the 8-word reply is cut there, as a server cuts it
    assert "length limit" not in out.out + out.err + caplog.text
    assert "8 dimensions" in blocks["embedding"] and len(loads) == 1

    loads.clear()
    dead = f"http://127.0.0.1:{_free_port()}/v1"
    code = main(["models", "check", *roles, "--policy-url", dead, "--policy-model", "p", *local,
                 "--set", "models.max_retries=1", "--set", "models.backoff_initial_s=0.01"])  # fmt: skip
    assert code == 1 and loads == []


def test_scripted_server_command_serves_a_script_file(tmp_path):
    script = tmp_path / "script.yaml"
    script.write_text("name: cli-demo\nreplies: ['from the file']\n")
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "models", "scripted-server", "--script", str(script), "--port", str(port)],
        cwd=PROJECT_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        # Ctrl-C is how a user stops it; a test run from a background job would hand it an ignored SIGINT.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        client = openai.OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key="x", max_retries=0)
        deadline = time.monotonic() + 120  # a loaded 2-core machine takes a while to import the CLI
        while True:
            try:
                reply = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
                break
            except openai.APIConnectionError:
                assert time.monotonic() < deadline, "the scripted server did not start"
                time.sleep(0.2)
        assert reply.choices[0].message.content == "from the file"
        assert reply.model == "scripted/cli-demo"
    finally:
        process.send_signal(signal.SIGINT)
        try:
            output, _ = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()  # never leave a server behind, whatever failed
            process.communicate()
            raise
    assert process.returncode == 0
    assert "SCRIPTED OpenAI-compatible server" in output and "not from a model" in output
    assert "[scripted] #1 POST /v1/chat/completions -> 200 (reply 1)" in output
