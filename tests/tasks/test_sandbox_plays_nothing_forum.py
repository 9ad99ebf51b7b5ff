"""Doing nothing fails every task of the sandbox forum (tests/tasks/sandbox_plays.py)."""

from __future__ import annotations

import pytest

from tests.tasks.sandbox_plays import FULL_RUN_TIMEOUT_S, check_doing_nothing_fails


@pytest.mark.timeout(FULL_RUN_TIMEOUT_S)
def test_doing_nothing_fails_every_forum_task(sandbox, tmp_path) -> None:
    check_doing_nothing_fails(sandbox, "reddit", tmp_path / "stop")
