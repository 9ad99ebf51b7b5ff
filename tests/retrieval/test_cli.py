"""`videodemo retrieve`: the key check, the dry run, and a re-run answered entirely from the caches."""

from __future__ import annotations

import json

from tests.retrieval.helpers import api_mock, write_tasks

from cli.main import main
from model_access.client import ModelClient
from retrieval.applications import RetrievalTask
from retrieval.download import Downloader
from retrieval.pipeline import Retriever
from retrieval.youtube import YouTubeApi

SCRIPT = {
    "rules": [
        {"contains": "Write one YouTube search query", "reply": '{"query": "Postmill forum tutorial"}'},
        {"contains": "most likely to show", "reply": '[{"id": "redd0000001", "reason": "forum basics"}]'},
        {"contains": "Content check", "reply": '{"answer": "yes", "reason": "the forum is used on screen"}'},
    ]
}


def cli_args(settings, *args: str, roles: tuple[str, ...] = ("llm", "vlm")) -> list[str]:
    """The command line for these settings: private cache, local video site, model roles at the scripted server."""
    line = ["retrieve", *args, "--set", f"paths.cache_dir={settings.paths.cache_dir}"]
    line += ["--set", f"retrieval.download_url_template={settings.retrieval.download_url_template}"]
    for role in roles:
        url = getattr(settings.models, role).base_url or "http://127.0.0.1:9/v1"
        line += [f"--{role}-url", url, f"--{role}-model", "scripted-test"]
    return line


def test_a_missing_api_key_is_one_line_naming_the_variable(settings, tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("YOUTUBE_API_KEY", raising=False)
    tasks = write_tasks(tmp_path / "tasks.json", [(1, ["reddit"], "Post a question in the books forum")])

    code = main(cli_args(settings, "--tasks", str(tasks)))

    error = capsys.readouterr().err.strip()
    assert code == 2 and len(error.splitlines()) == 1
    assert "YOUTUBE_API_KEY" in error and "retrieval.api_key_env" in error


def test_an_unconfigured_model_role_stops_before_any_work(settings, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("YOUTUBE_API_KEY", "test-key")
    tasks = write_tasks(tmp_path / "tasks.json", [(1, ["reddit"], "Post a question in the books forum")])

    code = main(cli_args(settings, "--tasks", str(tasks), roles=("llm",)))

    assert code == 2 and "models.vlm" in capsys.readouterr().err
    assert not (settings.paths.cache_dir / "retrieval").exists()


def test_dry_run_lists_one_query_per_task_and_calls_nothing(settings, tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("YOUTUBE_API_KEY", raising=False)
    tasks = write_tasks(
        tmp_path / "tasks.json",
        [
            (1, ["shopping"], "Add a mouse to the wish list"),
            (2, ["shopping"], "Reorder my last order"),
            (3, ["reddit"], "Post in the books forum"),
        ],
    )
    code = main(cli_args(settings, "--tasks", str(tasks), "--dry-run"))

    out = capsys.readouterr().out
    assert code == 0
    assert "3 task(s), one query each" in out
    assert out.count("'an online store built on Magento 2") == 2 and "'a Reddit-style discussion forum" in out
    assert "303 YouTube API units" in out  # three tasks x (one search page + one details call)
    assert not (settings.paths.cache_dir / "retrieval").exists()


def test_a_second_run_from_the_command_line_spends_nothing(
    settings, tmp_path, scripted, video_site, monkeypatch, capsys
):
    server = scripted(SCRIPT, settings)
    tasks_file = write_tasks(tmp_path / "tasks.json", [(7, ["reddit"], "Post a question in the books forum")])
    typed = RetrievalTask.from_text("Edit my profile on the forum", "reddit")
    # The first run, with the YouTube API answered by recorded bodies.
    with ModelClient(settings) as client:
        youtube = YouTubeApi(settings, api_key="test-key", http=api_mock("search_reddit", "videos_reddit"))
        retriever = Retriever(settings, client, youtube, Downloader(settings))
        first = retriever.run([RetrievalTask("tasks:7", "Post a question in the books forum", ("reddit",)), typed])
    model_requests, site_requests = len(server.log), len(video_site.requests)
    assert model_requests > 0 and all(outcome.manifest.complete for outcome in first)

    # The same tasks from the command line: a real client and key, but every answer is in the caches.
    monkeypatch.setenv("YOUTUBE_API_KEY", "not-a-real-key")
    code_tasks = main(cli_args(settings, "--tasks", str(tasks_file)))
    out_tasks = capsys.readouterr().out
    code_text = main(cli_args(settings, "--task", typed.intent, "--site", "reddit"))
    out_text = capsys.readouterr().out

    assert code_tasks == 0 and code_text == 0
    for out in (out_tasks, out_text):
        assert "YouTube API: 0 request(s) sent (0 units), 2 answered from the cache" in out
        assert "downloads: 0 fetched" in out
        assert "1 verified of 1 picked" in out and "Postmill forum tutorial" in out
    assert "tasks:7" in out_tasks and typed.key in out_text
    assert len(server.log) == model_requests and len(video_site.requests) == site_requests
    manifest = json.loads(first[0].path.read_text())
    assert manifest["videos"][0]["video_id"] == "yt-redd0000001"
