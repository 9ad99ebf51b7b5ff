"""Fixtures of the evaluator tests that read live pages: site addresses and scripted model roles."""

from __future__ import annotations

import copy
from typing import Callable

import pytest

from model_access.client import ModelClient
from model_access.scripted_server import ScriptedServer


@pytest.fixture
def base_url(sandbox) -> Callable[[str], str]:
    """Site name -> the sandbox address standing for it (what helpers get as `base_url`)."""
    urls = {"shopping": sandbox.shop_url, "reddit": sandbox.forum_url}
    return lambda site: urls[site]


@pytest.fixture
def model_client(test_settings, tmp_path) -> Callable[..., ModelClient]:
    """model_client(role=server, ...): a ModelClient whose roles point at scripted servers (private cache)."""
    clients: list[ModelClient] = []

    def build(**roles: ScriptedServer) -> ModelClient:
        settings = copy.deepcopy(test_settings)
        settings.paths.cache_dir = tmp_path / "model-cache"
        settings.models.max_retries = 1
        settings.models.backoff_initial_s = 0.01
        for role, server in roles.items():
            getattr(settings.models, role).base_url = server.base_url
            getattr(settings.models, role).model = "test-model"
        client = ModelClient(settings)
        clients.append(client)
        return client

    yield build
    for client in clients:
        client.close()
