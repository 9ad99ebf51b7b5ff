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


def test_models_check_reports_each_role(scripted, tmp_path, capsys):
    server = scripted({"name": "demo", "default": "OK"})
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
    out = capsys.readouterr().out.splitlines()
    lines = {line.split()[0]: line for line in out}
    assert code == 1  # the judge's endpoint is down
    assert "scripted/demo answered (with an image)" in lines["vlm"] and "SCRIPTED (not a model result)" in lines["vlm"]
    assert "not configured" in lines["llm"] and "--set models.llm.base_url=" in lines["llm"]
    assert "FAILED" in lines["judge"] and dead in lines["judge"] and "judge-model" in lines["judge"]
    assert "64 dimensions" in lines["embedding"]
    (vlm_request,) = server.requests()
    assert vlm_request["body"]["model"] == "qwen-vl"
    assert vlm_request["body"]["messages"][0]["content"][1]["type"] == "image_url"


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
    )
    try:
        client = openai.OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key="x", max_retries=0)
        deadline = time.monotonic() + 30
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
        output, _ = process.communicate(timeout=10)
    assert process.returncode == 0
    assert "SCRIPTED OpenAI-compatible server" in output and "not from a model" in output
    assert "[scripted] #1 POST /v1/chat/completions -> 200 (reply 1)" in output
