"""What a llama.cpp server takes from its cache instead of reading, as issue 28's cost benchmark counts it:
one slot keeps only the previous prompt; with `prompt_cache_mib` (llama-cpp-python's state cache) a
prompt seen two requests ago is served again, as vLLM's prefix caching serves any earlier prompt."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from model_access.client import ModelClient
from model_access.local_servers import LocalServer
from model_access.local_servers.llama_cpp import llama_cpp_server
from model_access.local_servers.llama_cpp_log import prompt_reuse
from model_access.messages import user_message
from settings import load_settings
from tests.real_servers.conftest import _started, point

# Two unrelated openings of about 500 tokens each (34 a line), as two different calls of one step have.
SHOP_PAGE = "Product: Kestrel Wired Earbuds, price $24.99, rating 4 of 5, in stock, Add to Cart\n" * 15
FORUM_PAGE = "Post: Which trail is best in autumn? 12 comments, submitted by hiker_jo to /f/outdoors\n" * 15


@pytest.fixture(scope="module")
def cached_server(server_logs) -> Iterator[LocalServer]:
    yield from _started(lambda: llama_cpp_server(server_logs, context=2048, prompt_cache_mib=256))


def _reuse_of_third_prompt(server: LocalServer, tmp_path: Path) -> tuple[int, int]:
    """Ask shop, forum, shop again (a new question); return (reused, prompt tokens) of the third request."""
    settings = load_settings()
    settings.paths.cache_dir = tmp_path / "cache"
    point(settings, "llm", server, max_tokens=2)
    before = len(prompt_reuse(Path(server.log_path).read_text(errors="replace")))
    with ModelClient(settings) as client:
        for text in (SHOP_PAGE + "Which product is this?", FORUM_PAGE + "Which forum?", SHOP_PAGE + "Its price?"):
            last = client.chat("llm", [user_message(text)], stage="check", use_cache=False)
    answered = prompt_reuse(Path(server.log_path).read_text(errors="replace"))[before:]
    assert len(answered) == 3, "the server's log should show the three answered requests"
    return answered[2].reused_of(last.prompt_tokens), last.prompt_tokens


def test_one_slot_reads_an_opening_again_after_another_prompt(llama_server, tmp_path):
    reused, prompt = _reuse_of_third_prompt(llama_server, tmp_path)
    assert prompt > 400
    assert reused < 50  # only the chat template's first tokens match the forum prompt in the slot


def test_the_prompt_cache_serves_an_opening_seen_two_requests_ago(cached_server, tmp_path):
    reused, prompt = _reuse_of_third_prompt(cached_server, tmp_path)
    assert reused > 0.8 * prompt  # the whole shop page came from the cache; only the new question was read
