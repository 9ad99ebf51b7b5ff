"""Recorded YouTube API answers (tests/retrieval/data) served through googleapiclient's HttpMockSequence,
and small builders shared by the retrieval tests."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from googleapiclient.http import HttpMockSequence

DATA = Path(__file__).resolve().parent / "data"

SUBTITLES = """WEBVTT
Kind: captions
Language: en

00:00:00.500 --> 00:00:02.000
In this tutorial we search the store for a wireless mouse

00:00:02.000 --> 00:00:04.000
then we open the product page and add it to the cart
"""


def api_body(name: str) -> str:
    return (DATA / f"{name}.json").read_text(encoding="utf-8")


def api_mock(*names: str) -> HttpMockSequence:
    """The YouTube API's answers, in order: a body name from tests/retrieval/data, or "quota" for a 403."""
    answers = []
    for name in names:
        if name == "quota":
            answers.append(({"status": "403", "content-type": "application/json"}, api_body("quota_exceeded")))
        else:
            answers.append(({"status": "200", "content-type": "application/json"}, api_body(name)))
    return HttpMockSequence(answers)


def sent_requests(http: HttpMockSequence) -> list[tuple[str, dict[str, str]]]:
    """(method path, query parameters) of every request the client sent through the mock."""
    sent = []
    for uri, *_ in http.request_sequence:
        parts = urlsplit(uri)
        sent.append((parts.path.rsplit("/", 1)[-1], dict(parse_qsl(parts.query))))
    return sent


def write_tasks(path: Path, tasks: list[tuple[int, list[str], str]]) -> Path:
    """A VideoWA-style config file holding (task_id, sites, intent) tasks."""
    configs = [
        {
            "task_id": task_id,
            "sites": sites,
            "intent": intent,
            "start_url": "http://127.0.0.1:1/",
            "eval": {"eval_types": ["url_match"], "reference_url": "http://127.0.0.1:1/"},
        }
        for task_id, sites, intent in tasks
    ]
    path.write_text(json.dumps(configs, indent=1))
    return path
