"""What a new user's first mistakes get: one line naming the value, the choices and the fix, exit code 2, no
usage dump and no file written; `--help` still prints everything; every `--no-X` has its `--X`."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest
from tests.evaluation.reports.test_comparison import record, write_run
from tests.processing.pipeline_helpers import run_cli

from cli.main import build_parser, main


def run_parser(capsys, *args: str) -> tuple[int, str, str]:
    """`videodemo ARGS...` where the parser itself may exit: (exit code, stdout, stderr)."""
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    "args, names",
    [
        (["process-videos", "--source", "nosuch"], ["'nosuch'", "sandbox", "manifest", "process-videos --help"]),
        (["run", "--kind", "nosuch"], ["'nosuch'", "skill", "factual", "videodemo run --help"]),
        (["report", "--errors", "nosuch"], ["'nosuch'", "recorded", "exclude", "videodemo report --help"]),
        (["report"], ["missing DIR", "run folders", "videodemo report --help"]),
        (["process-videos"], ["missing --source", "videowa_tutorials", "manifest"]),
        (["sandbox"], ["missing ACTION", "serve", "record"]),
        (["run", "--no-such-flag"], ["unrecognized arguments: --no-such-flag", "videodemo run --help"]),
    ],
)
def test_a_wrong_or_missing_argument_is_one_line_with_the_choices_and_the_fix(capsys, args, names) -> None:
    code, out, err = run_parser(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: videodemo"), err
    assert "usage:" not in err
    for name in names:
        assert name in err, (name, err)


def test_help_still_prints_the_usage(capsys) -> None:
    code, out, _ = run_parser(capsys, "process-videos", "--help")
    assert code == 0 and out.startswith("usage: videodemo process-videos")
    assert "--trajectory-filtering" in out and "--replace-empty-index" in out


@pytest.mark.parametrize("command, words", [("run", "Play each task"), ("rescore", "Score every task")])
def test_run_and_rescore_help_say_what_the_command_does(capsys, command, words) -> None:
    _, out, _ = run_parser(capsys, command, "--help")
    assert words in " ".join(out.split())


def _parsers(parser: argparse.ArgumentParser):
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):  # aliases name one parser twice
                yield from _parsers(sub)


def test_every_no_switch_has_its_positive_switch() -> None:
    parsers = list(_parsers(build_parser()))
    assert len(parsers) > 10
    missing = []
    for parser in parsers:
        options = {option for action in parser._actions for option in action.option_strings}
        for option in options:
            if option.startswith("--no-") and "--" + option[len("--no-"):] not in options:
                missing.append(f"{parser.prog}: {option}")
    assert missing == []


def test_the_positive_switch_undoes_a_setting_turned_off(tmp_path) -> None:
    """--trajectory-filtering after a --set that turned it off (the issue's "unrecognized arguments")."""
    from processing.cli import _settings

    parser = build_parser()
    args = parser.parse_args(["process-videos", "--source", "dir", "--set", "processing.trajectory_filtering=false",
                              "--trajectory-filtering", "--no-cache"])  # fmt: skip
    settings = _settings(args)
    assert settings.processing.trajectory_filtering is True and settings.models.use_cache is False
    args = parser.parse_args(["process-videos", "--source", "dir"])
    assert _settings(args).processing.trajectory_filtering is True  # neither given: the setting's default


def _mtimes(folder: Path) -> dict[str, int]:
    return {str(path): os.stat(path).st_mtime_ns for path in sorted(folder.rglob("*"))}


@pytest.mark.parametrize(
    "extra, words",
    [
        (["--labels", "a,b,c"], "--labels names 3 runs"),
        (["--prices", "/nonexistent.yaml"], "--prices /nonexistent.yaml"),
    ],
)
def test_a_bad_report_argument_rewrites_no_page_of_either_run(tmp_path, extra, words) -> None:
    first = write_run(tmp_path / "base", [record(1, "passed"), record(2, "failed")], "agentoccam")
    second = write_run(tmp_path / "method", [record(1, "failed"), record(2, "passed")])
    before = _mtimes(tmp_path)
    code, out, err = run_cli("report", str(first), str(second), *extra)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and words in err, err
    assert _mtimes(tmp_path) == before
