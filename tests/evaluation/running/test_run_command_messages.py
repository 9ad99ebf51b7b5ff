"""What `videodemo run`, `report` and `rescore` tell a new user: the report's help names the paired comparison,
a mistyped run folder is said to be missing, and a sample out of range is one line, without argparse's usage."""

from __future__ import annotations

import pytest

from tests.processing.pipeline_helpers import run_cli

from cli.main import main


def test_report_help_says_what_the_comparison_against_the_first_run_gives(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
    assert "Two or more runs" in text and "paired with the first" in text
    assert "helped (it passes, the first fails) and hurt" in text
    assert "exact McNemar test's p-value" in text
    assert "success-rate difference from the first in points, with a paired bootstrap interval" in text
    assert "95%," in text  # the % reaches the help as one


@pytest.mark.parametrize("command", ["report", "rescore"])
def test_a_run_folder_that_does_not_exist_is_said_to_be_missing(command, tmp_path) -> None:
    missing = tmp_path / "runs" / "typo"
    code, out, err = run_cli(command, str(missing))
    assert code == 2 and out == ""
    assert err == f"error: {missing} does not exist; pass the run folder `videodemo run` printed\n"


@pytest.mark.parametrize("command", ["report", "rescore"])
def test_a_folder_that_is_not_a_run_is_still_said_to_be_no_run_folder(command, tmp_path) -> None:
    code, _, err = run_cli(command, str(tmp_path))
    assert code == 2 and len(err.splitlines()) == 1
    assert f"{tmp_path} is not a run folder (no tasks/ inside)" in err


def test_a_sample_beyond_samples_is_one_line_with_the_fix(tmp_path) -> None:
    out = tmp_path / "run"
    code, stdout, stderr = run_cli("run", "--samples", "2", "--sample", "3", "--out", str(out), "--no-progress")
    assert code == 2 and stdout == ""
    assert stderr == (
        "error: --sample 3 is out of range: --samples 2 plays samples 1..2; "
        "to play sample 3 too, pass --samples 3 (finished samples are kept)\n"
    )
    assert not out.exists()


def test_a_sample_within_samples_plays_that_sample_in_its_samples_folder(monkeypatch, tmp_path) -> None:
    from evaluation.running import runner

    played = []
    monkeypatch.setattr(
        runner, "run", lambda spec, settings: played.append((spec.out_dir, settings.run.sample)) or spec.out_dir
    )
    out = tmp_path / "run"
    code, _, stderr = run_cli("run", "--samples", "3", "--sample", "2", "--out", str(out), "--no-progress")
    assert code == 0, stderr
    assert played == [(tmp_path / "run-sample2", 2)]
