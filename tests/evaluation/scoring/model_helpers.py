"""A judge whose model is the scripted OpenAI-compatible server, reached through the real client stack."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from evaluation.scoring.judge import ModelJudge, judge_from_client
from model_access.client import ModelClient
from model_access.scripted_server import ScriptedServer
from settings import load_settings


@contextmanager
def scripted_judge(replies: list[str], cache_dir: Path) -> Iterator[tuple[ModelJudge, ScriptedServer]]:
    """(judge, server): the judge role points at a server answering `replies` in order; the cache is
    private and unused, so every question reaches the server."""
    settings = load_settings()
    settings.paths.cache_dir = Path(cache_dir)
    settings.models.use_cache = False
    settings.models.max_retries = 1
    with ScriptedServer(replies) as server:
        settings.models.judge.base_url = server.base_url
        settings.models.judge.model = "judge-under-test"
        with ModelClient(settings) as client:
            judge = judge_from_client(client)
            assert judge is not None
            yield judge, server


def user_prompts(server: ScriptedServer) -> list[str]:
    """The user message of every chat request the server received, in order."""
    prompts = []
    for entry in server.requests("/chat/completions"):
        messages = entry["body"]["messages"]
        prompts.append(user_text(next(m["content"] for m in messages if m["role"] == "user")))
    return prompts


def user_text(content) -> str:
    if isinstance(content, str):
        return content
    return " ".join(part.get("text", "") for part in content if part.get("type") == "text")
