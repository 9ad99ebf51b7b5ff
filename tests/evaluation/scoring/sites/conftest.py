"""The local stand-ins of the real sites, each a small Flask app on a free port in a thread."""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass

import pytest
from werkzeug.serving import make_server

from tests.evaluation.scoring.sites import gitlab, magento, osclass, postmill, public  # noqa: I001 (this folder's apps)


@dataclass(frozen=True)
class StandIns:
    urls: dict[str, str]  # VideoWA site -> base URL, as its environment variable would hold it
    env: dict[str, str]  # the variables to export

    def __getitem__(self, site: str) -> str:
        return self.urls[site]


def _serve(app) -> tuple[str, object]:
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}", server


@pytest.fixture(scope="session")
def standins():
    servers = []
    urls: dict[str, str] = {}
    for site, app in (
        ("shopping", magento.create_app()),
        ("reddit", postmill.create_app()),
        ("gitlab", gitlab.create_app()),
        ("classifieds", osclass.create_app()),
        ("map", public.create_app("OpenStreetMap")),
        ("wikipedia", public.create_app("Wikipedia (en) — Kiwix")),
    ):
        urls[site], server = _serve(app)
        servers.append(server)
    urls["shopping_admin"] = urls["shopping"] + "/admin"  # Magento's admin lives under /admin of its host
    env = {site.upper(): url for site, url in urls.items()}
    yield StandIns(urls, env)
    for server in servers:
        server.shutdown()


@pytest.fixture
def site_env(standins, monkeypatch):
    """Every site variable pointing at its stand-in (the sandbox's SHOPPING/REDDIT included)."""
    for name, url in standins.env.items():
        monkeypatch.setenv(name, url)
    return standins


@pytest.fixture
def site_settings(test_settings, tmp_path):
    """Settings with a private auth folder for each test."""
    settings = copy.deepcopy(test_settings)
    settings.paths.cache_dir = tmp_path
    return settings
