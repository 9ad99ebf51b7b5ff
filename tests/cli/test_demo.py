"""`videodemo demo --quick`: the main job end to end on one recorded tutorial and its tasks, with no model."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from processing.plugins import LABELERS
from tests.processing.pipeline_helpers import config_file, run_cli

pytestmark = [
    pytest.mark.skipif("ocr" not in LABELERS, reason="the OCR labeler is not registered yet"),
    # The quick demo records, labels and replays twice, then compares: a few minutes when the machine is shared,
    # so the first test's setup gets more room than the suite's default.
    pytest.mark.timeout(1200),
]


@pytest.fixture(scope="module")
def demo_runs(sandbox, tmp_path_factory):
    settings = copy.deepcopy(sandbox.settings)
    settings.paths.cache_dir = tmp_path_factory.mktemp("demo-cache")
    config = str(config_file(settings))
    # One worker: four tasks do not repay starting two processes (the worker path has tests of its own).
    first = run_cli("demo", "--quick", "--workers", "1", "--config", config)
    second = run_cli("demo", "--quick", "--workers", "1", "--config", config)
    return settings, first, second


def test_the_quick_demo_reports_the_labeler_and_both_success_rates(demo_runs) -> None:
    settings, (code, out, err), _ = demo_runs
    assert code == 0, out[-3000:] + err[-3000:]
    assert "MODEL-FREE BASELINE" in out and "not the VLM method" in out
    assert re.search(r"action kind\s+F1 \d\.\d\d", out) and re.search(r"kind \+ target name\s+F1 \d\.\d\d", out)
    for label in ("two-stage embedding selection", "--no-trajectory-selection (whole video)"):
        row = re.search(rf"{re.escape(label)}\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+)", out)
        assert row is not None, out[-2000:]
        tasks, scored, passed = (int(row.group(n)) for n in (1, 2, 3))
        assert tasks == 4 and scored == 4 and 0 <= passed <= 4  # the skill tasks of forum_browse_sort
    for folder in ("demo-replay-selection-quick", "demo-replay-whole-video-quick"):
        records = list((settings.paths.runs_dir / folder / "tasks").glob("*/record.json"))
        assert len(records) == 4
    for phase in ("tutorial recording", "processing", "run: two-stage embedding selection", "total"):
        assert re.search(rf"{re.escape(phase)}\s+\d+\.\d s", out), phase
    assert "videodemo demo --labelers" in out  # where the other styles' accuracy went


def test_the_demo_ends_with_the_paired_comparison_of_its_two_runs(demo_runs) -> None:
    settings, (code, out, err), _ = demo_runs
    assert code == 0, out[-3000:] + err[-3000:]
    comparison = out[out.index("Paired comparison, task by task") :]
    helped = re.search(r"helped \(run 2 passes, run 1 fails\) (\d+)", comparison)
    hurt = re.search(r"hurt \(run 2 fails, run 1 passes\) (\d+)", comparison)
    assert helped and hurt, comparison
    assert re.search(r"exact McNemar p = [\d.e-]+", comparison)
    assert re.search(r"difference [+-]\d+\.\d points, 95% interval", comparison)
    page = re.search(r"report with charts and flipped tasks: (\S+)", comparison)
    assert page and Path(page.group(1)).is_file()
    # the numbers agree with the two runs' records: helped/hurt are the tasks whose outcome differs
    passed = {}
    for folder in ("demo-replay-whole-video-quick", "demo-replay-selection-quick"):
        records = [json.loads(f.read_text()) for f in (settings.paths.runs_dir / folder / "tasks").glob("*/record.json")]
        passed[folder] = {r["task_key"] for r in records if r["status"] == "passed"}
    whole, selection = passed.values()
    assert (int(helped.group(1)), int(hurt.group(1))) == (len(selection - whole), len(whole - selection))
    assert out.rstrip().splitlines()[-1].startswith("one row per (run, sample, task):")  # it ends with it


def test_the_ladders_oracles_and_the_loss_account_blame_the_same_stage_on_the_demos_runs(demo_runs) -> None:
    from tests.evaluation.reports.same_blame import blame_pairs

    settings, (code, out, err), _ = demo_runs
    assert code == 0, out[-3000:] + err[-3000:]
    pairs = [pair for folder in ("demo-replay-selection-quick", "demo-replay-whole-video-quick")
             for pair in blame_pairs(settings.paths.runs_dir / folder)]  # fmt: skip
    assert [pair for pair in pairs if not pair.agrees] == []


def test_a_second_demo_reuses_the_recording_the_processing_and_the_finished_tasks(demo_runs) -> None:
    _, (_, first, _), (code, out, err) = demo_runs
    assert code == 0, out[-3000:] + err[-3000:]
    assert "0 recorded, 1 up to date" in out
    assert "labeling: stored" in out and "index: stored" in out
    assert "4 task(s) already finished" in err
    rates = lambda text: re.findall(r"(\d+\.\d%)\n", text)  # noqa: E731
    assert rates(out) == rates(first)  # the same numbers, read back from the same records
