"""Every reference solution of the sandbox forum's tasks passes all its evaluators (tests/tasks/sandbox_plays.py)."""

from __future__ import annotations

import pytest

from tests.tasks.sandbox_plays import FULL_RUN_TIMEOUT_S, check_reference_solutions_pass


@pytest.mark.timeout(FULL_RUN_TIMEOUT_S)
def test_reference_solutions_pass_every_forum_task(sandbox, tmp_path) -> None:
    check_reference_solutions_pass(sandbox, "reddit", tmp_path / "scripted")
