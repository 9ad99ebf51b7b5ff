"""Fixtures for retrieval: private settings, recorded YouTube API bodies, scripted models, a local video site.

The video site stands in for YouTube's pages: `/<id>.html` is an HTML page with a
`<video>` and an English `<track>`, which yt-dlp's generic extractor reads like any
web page with HTML5 media (the video and the subtitle file are both downloaded).
Ids listed in `missing` answer 404, like a removed video.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable

import pytest
from tests.processing.make_videos import BAR_HEIGHT, BUTTON_BOX, Script
from tests.retrieval.helpers import SUBTITLES

from model_access.scripted_server import ScriptedServer
from settings import Settings, load_settings


@pytest.fixture(scope="session")
def tutorial_video(tmp_path_factory) -> Path:
    """A 7-second screen recording: type into a search field, open a result."""
    script = Script(seed=3)
    script.idle(1.0).click_field().type("mouse").idle(0.5)
    script.move(BUTTON_BOX[0] + 40, BUTTON_BOX[1] + 18 + BAR_HEIGHT, 0.5).page(1).idle(1.5).scroll(300).idle(1.0)
    path = tmp_path_factory.mktemp("site") / "tutorial.mp4"
    script.render(path, preset="ultrafast")
    return path


@dataclass
class VideoSite:
    base_url: str
    missing: set[str] = field(default_factory=set)
    requests: list[str] = field(default_factory=list)

    @property
    def url_template(self) -> str:
        return self.base_url + "/{id}.html"


@pytest.fixture(scope="session")
def video_site(tutorial_video: Path):
    video_bytes = tutorial_video.read_bytes()
    site: VideoSite

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            site.requests.append(self.path)
            name = self.path.split("?")[0].lstrip("/")
            if name == "media/tutorial.mp4":
                self._send(200, "video/mp4", video_bytes)
            elif name == "media/tutorial.vtt":
                self._send(200, "text/vtt", SUBTITLES.encode())
            elif name.endswith(".html") and name[: -len(".html")] not in site.missing:
                video_id = name[: -len(".html")]
                page = (
                    f"<!doctype html><html><head><title>{video_id}</title></head><body>"
                    '<video controls width="1280" height="720"><source src="/media/tutorial.mp4" type="video/mp4">'
                    '<track kind="subtitles" srclang="en" label="English" src="/media/tutorial.vtt"></video>'
                    "</body></html>"
                )
                self._send(200, "text/html; charset=utf-8", page.encode())
            else:
                self._send(404, "text/plain", b"not found")

        def _send(self, status: int, content_type: str, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    site = VideoSite(f"http://127.0.0.1:{server.server_address[1]}")
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield site
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


@pytest.fixture
def settings(tmp_path: Path, video_site: VideoSite) -> Settings:
    """Private cache, short model backoff, downloads from the local video site."""
    settings = load_settings()
    settings.paths.cache_dir = tmp_path / "cache"
    settings.models.max_retries = 2
    settings.models.backoff_initial_s = 0.01
    settings.models.backoff_max_s = 0.05
    settings.retrieval.download_url_template = video_site.url_template
    settings.retrieval.api_retries = 0
    video_site.missing.clear()
    return settings


@pytest.fixture
def scripted(scripted_server) -> Callable[..., ScriptedServer]:
    """Start a scripted model server for a script and point the llm and vlm roles at it."""

    def start(script: Any, settings: Settings | None = None) -> ScriptedServer:
        server = scripted_server(script)
        if settings is not None:
            for role in ("llm", "vlm"):
                getattr(settings.models, role).base_url = server.base_url
                getattr(settings.models, role).model = "scripted-test"
        return server

    return start
