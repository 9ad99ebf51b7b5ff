"""The `openai` package is imported when the model client first uses it, not by every command's process."""

from __future__ import annotations

import subprocess
import sys

from settings import PROJECT_ROOT


def test_the_run_and_report_commands_start_without_importing_openai() -> None:
    # A scripted run, a rescore or a report calls no model: the package's second of CPU is not paid.
    code = (
        "import sys, cli.main, evaluation.running.runner, evaluation.running.task_runner, evaluation.running.rescore, "
        "evaluation.reports.command, model_access.client, model_access.retry, model_access.health, "
        "model_access.role_check; print('openai' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False", done.stderr


def test_the_names_used_are_the_packages_own() -> None:
    import openai as package

    from model_access.openai_sdk import openai

    assert openai.APIStatusError is package.APIStatusError and openai.OpenAI is package.OpenAI
