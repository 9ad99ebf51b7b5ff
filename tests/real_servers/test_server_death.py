"""A llama.cpp server killed mid-run is named, with its signal and log, by the next request (issue 59).

The session's llama.cpp servers serve other tests, so this one starts its own (a small context: it loads in
seconds), has it answer once, kills it with SIGKILL and asks again through the model client.
"""

from __future__ import annotations

import os
import signal

import pytest

from model_access.client import ModelClient
from model_access.health import EndpointDown
from model_access.local_servers.llama_cpp import llama_cpp_server
from model_access.messages import user_message
from settings import load_settings
from tests.real_servers.conftest import _started, point


@pytest.fixture
def own_llama_server(tmp_path):
    yield from _started(lambda: llama_cpp_server(tmp_path / "logs", context=512))


def test_a_killed_llama_server_is_named_with_its_signal_not_connection_refused(own_llama_server, tmp_path):
    settings = load_settings()
    settings.paths.cache_dir = tmp_path / "cache"
    settings.models.max_retries = 2
    settings.models.backoff_initial_s = 0.05
    point(settings, "llm", own_llama_server, max_tokens=4)
    process = own_llama_server.process
    assert process is not None
    with ModelClient(settings) as client:
        assert client.chat("llm", [user_message("Say hi.")], stage="check", use_cache=False).completion_tokens > 0
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        with pytest.raises(EndpointDown) as down:
            client.chat("llm", [user_message("Say hi again.")], stage="check", use_cache=False)
    message = str(down.value)
    assert f"llama.cpp server (pid {process.pid}) died with SIGKILL" in message, message
    assert str(own_llama_server.log_path) in message
    assert "Connection refused" not in message
