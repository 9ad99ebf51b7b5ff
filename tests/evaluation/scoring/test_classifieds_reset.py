"""The Classifieds reset: a form POST with the token from CLASSIFIEDS_RESET_TOKEN to the site's reset endpoint.

No Classifieds site runs in the tests, so a small HTTP server stands at its address and
accepts only the right token at the right path, as OSClass's reset page does.
"""

from __future__ import annotations

import http.server
import threading
from urllib.parse import parse_qs

import pytest

from foundation.errors import UserError
from evaluation.scoring.site_resets import reset_classifieds
from evaluation.scoring.site_state import reset_sites


@pytest.fixture
def reset_endpoint():
    posts: list[tuple[str, dict]] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - the stdlib's name
            body = parse_qs(self.rfile.read(int(self.headers["Content-Length"])).decode())
            posts.append((self.path, body))
            ok = self.path == "/index.php?page=reset" and body.get("token") == ["s3cret"]
            self.send_response(200 if ok else 403)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", posts
    finally:
        server.shutdown()
        server.server_close()


def test_reset_posts_the_token_from_the_environment(reset_endpoint, monkeypatch) -> None:
    url, posts = reset_endpoint
    monkeypatch.setenv("CLASSIFIEDS_RESET_TOKEN", "s3cret")
    assert "reset" in reset_classifieds(url + "/")
    assert posts == [("/index.php?page=reset", {"token": ["s3cret"]})]


def test_a_wrong_or_missing_token_is_one_line_with_the_fix(reset_endpoint, monkeypatch) -> None:
    url, _ = reset_endpoint
    monkeypatch.setenv("CLASSIFIEDS_RESET_TOKEN", "wrong")
    with pytest.raises(UserError, match="answered HTTP 403; check CLASSIFIEDS_RESET_TOKEN"):
        reset_classifieds(url)
    monkeypatch.delenv("CLASSIFIEDS_RESET_TOKEN")
    with pytest.raises(UserError, match="export CLASSIFIEDS_RESET_TOKEN"):
        reset_classifieds(url)


def test_reset_sites_resets_classifieds_and_reports_a_failure(reset_endpoint, monkeypatch, test_settings) -> None:
    url, posts = reset_endpoint
    monkeypatch.setenv("CLASSIFIEDS", url)
    monkeypatch.setenv("CLASSIFIEDS_RESET_TOKEN", "s3cret")
    outcome = reset_sites(["classifieds", "wikipedia"], test_settings)
    assert len(posts) == 1 and outcome.not_resettable == ["wikipedia"] and not outcome.failed
    monkeypatch.setenv("CLASSIFIEDS_RESET_TOKEN", "wrong")
    outcome = reset_sites(["classifieds"], test_settings)
    assert outcome.reset == [] and "HTTP 403" in outcome.failed[0]
