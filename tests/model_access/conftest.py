"""Fixtures for model access: private settings and scripted OpenAI-compatible servers."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from model_access.scripted_server import ScriptedServer
from settings import Settings, load_settings


@pytest.fixture
def model_settings(tmp_path: Path) -> Settings:
    """Settings with a private model cache and backoff short enough for tests."""
    settings = load_settings()
    settings.paths.cache_dir = tmp_path / "cache"
    settings.models.max_retries = 3
    settings.models.backoff_initial_s = 0.01
    settings.models.backoff_max_s = 0.05
    return settings


@pytest.fixture
def scripted(scripted_server) -> Callable[..., ScriptedServer]:
    """Start a scripted server (on a free port) for a script; every server is stopped after the test."""
    return scripted_server


@pytest.fixture
def point_role() -> Callable[..., None]:
    """point_role(settings, "vlm", server): aim a role at a scripted server."""

    def point(settings: Settings, role: str, server: ScriptedServer, model: str = "test-model") -> None:
        role_settings = getattr(settings.models, role)
        role_settings.base_url = server.base_url
        role_settings.model = model

    return point
