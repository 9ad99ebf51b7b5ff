"""The HTML report of two real sandbox runs, opened in Chromium: charts, and a flipped task's two runs side by side.

The runs are the replay baseline (the model-free policy) on two order questions, with the
tutorial's trajectories and with `--no-videos` (it stops at once); the index is built from the
recorded tutorial's ground-truth actions (tests/agent/replay_helpers.py).
"""

from __future__ import annotations

import argparse
import copy
from pathlib import Path
from urllib.parse import urlparse

import pytest
from tests.agent.replay_helpers import replay_settings_for

from evaluation.reports.command import report
from evaluation.running.runner import RunSpec, run
from tasks.loading import SANDBOX_CONFIGS_DIR

TUTORIAL = "shop_order_history"
TASKS = "shop:20,shop:21"


@pytest.fixture(scope="module")
def replay_runs(sandbox, tmp_path_factory):
    settings = replay_settings_for(sandbox.settings, tmp_path_factory.mktemp("replay-index"), TUTORIAL)
    folders = tmp_path_factory.mktemp("runs")
    runs = []
    for name, use_videos in (("no-videos", False), ("replay", True)):
        play = copy.deepcopy(settings)
        play.agent.use_videos = use_videos
        spec = RunSpec(SANDBOX_CONFIGS_DIR, "replay", argparse.Namespace(), out_dir=folders / name, ids=TASKS,
                       progress=False)  # fmt: skip
        runs.append(run(spec, play))
    return runs


def test_report_page_shows_charts_and_a_flipped_task_side_by_side(replay_runs, chromium, tmp_path) -> None:
    out = tmp_path / "report"
    text = report(*replay_runs, out_dir=out)
    assert "helped (run 2 passes, run 1 fails) 2: shop:20, shop:21" in text

    page = chromium.new_page(viewport={"width": 1280, "height": 900})
    width = "document.documentElement.scrollWidth"
    try:
        page.goto((out / "index.html").as_uri())
        assert page.evaluate(width) <= 1280
        # Every task row links to a page that exists (its flipped-task page, else run 1's task page).
        tasks = page.locator("table.tasks a.task").evaluate_all("links => links.map(a => a.href)")
        assert len(tasks) == 2 and all(Path(urlparse(href).path).is_file() for href in tasks)
        charts = page.locator("img.chart")
        assert charts.count() == 2
        for i in range(2):  # each chart decoded to a real picture
            assert charts.nth(i).evaluate("img => img.complete && img.naturalWidth > 200")
        flips = page.locator("a.flip")
        assert flips.count() == 2 and flips.first.inner_text() == "shop:20"
        row = page.locator("table.tasks tr", has_text="shop:20").inner_text().split()
        assert row[:2] == ["shop:20", "failed"] and "passed" in row  # each run's outcome beside its cost

        flips.first.click()
        page.wait_for_load_state()
        heads = page.locator(".side-head h2")
        assert heads.nth(0).inner_text() == "run 1: replay --no-videos" and heads.nth(1).inner_text() == "run 2: replay"
        steps = page.locator(".side-step")
        assert steps.count() % 2 == 0 and steps.count() >= 4  # two columns, row by row
        left, right = steps.nth(0), steps.nth(1)
        assert "stop" in left.locator("pre").first.inner_text() and "no demonstration" in left.inner_text()
        assert right.locator(".demo").count() == 1 and "demonstration:" in right.locator(".demo").inner_text()
        for side in (left, right):  # screenshots load from the run folders
            assert side.locator("img.shot").evaluate("img => img.complete && img.naturalWidth > 0")
        # Why the failing side failed, at the top of its column; nothing wider than the window, details open.
        assert "must_include '106.97' — not found" in page.locator(".side-head .verdict-box").first.inner_text()
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        assert page.evaluate(width) <= 1280
        page.screenshot(path=str(tmp_path / "flipped.png"), full_page=True)

        # The replay run's task page: each step's screens before and after and the tree it acted on; fits 1,280 px.
        page.goto(page.locator(".side-head").nth(1).locator("a").evaluate("a => a.href"))
        first = page.locator("#step-1")
        assert first.locator("img.shot").count() == 2
        assert "RootWebArea" in first.locator(".observation pre").text_content()
        assert "passed" in page.locator(".verdict-box").first.inner_text()
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        assert page.evaluate(width) <= 1280
    finally:
        page.close()
