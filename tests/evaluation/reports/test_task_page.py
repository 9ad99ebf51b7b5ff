"""The task page and the flipped-task page as a researcher reads them in Chromium at 1,280 px: the verdict with its
failing check and the stage the account blames at the top, each step's screens before and after, the observation
the policy was handed, the messages sent to the model and its reply, the demonstration and why it was chosen; and
nothing wider than the window, whatever the tables hold (long URLs and locators, a wide candidates table)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image

from evaluation.reports.command import report
from evaluation.reports.report import write_run_outputs
from evaluation.running.run_records import TASK_PAGE, task_folder
from foundation.json_files import write_json
from foundation.records.task_record import RECORD_FILE

WIDTH = 1280
LONG_URL = "http://127.0.0.1:7770/" + "tidewave-wireless-over-ear-headphones-active-noise-cancelling-40h-playtime" * 2
LOCATOR = "func:shopping_get_latest_order_url() + " + "document.querySelector('.order-details-items .product')" * 3
OBSERVATIONS = ["[31] link 'My Account'\n[33] link 'My Wish List'", "[1383] link 'My Orders'\n[1390] table ''"]
SYSTEM = "You are a web agent on a shopping site."
# What the account (evaluation/reports/loss_run.py) decides for the failed task when the reports are written: its task
# set has no reference solutions, so the stage is unknown, and the page says why.
LOST = "lost at: unknown — "


def _objective(words: int) -> str:
    return " ".join(f"click 'Page {n}' then view order" for n in range(words))


def _episode_step(index: int, reply: str) -> dict:
    candidates = [
        {"trajectory_id": f"shop_order_history/{n}-5", "video": "shop_order_history", "objective": _objective(8),
         "first_step": f"[31] link 'My Account', similarity 1.00, in view, url {LONG_URL}", "score": 0.378,
         "stage1": 0.528, "verification": "unverified", "grounding": 1.0, "total": 1.028}
        for n in range(3)
    ]  # fmt: skip
    return {
        "index": index, "action_text": reply, "ok": True, "error": None, "url_before": LONG_URL, "url_after": LONG_URL,
        "observation_text": OBSERVATIONS[index - 1], "screenshot": f"step_{index:03d}.png", "action": None,
        "extra": {
            "selection": {"candidates": candidates, "decision": "reselected", "chosen": "shop_order_history/0-5",
                          "stage2": {"choice": "shop_order_history/0-5", "reason": "its first step grounds best"}},
            "demonstration": {"objective": "Open my orders", "actions": ["click 'My Account'", "click 'My Orders'"],
                              "trajectory_id": "shop_order_history/0-5"},
        },
        "model_usage": {"calls": 1, "prompt_tokens": 40, "completion_tokens": 9},
        "model_calls": [{
            "stage": "policy", "role": "policy", "model": "scripted/demo", "cached": False, "scripted": True,
            "prompt_tokens": 40, "completion_tokens": 9, "finish_reason": "stop", "reply": reply,
            "messages": [{"role": "system", "content": [{"type": "text", "text": SYSTEM}]},
                         {"role": "user", "content": [{"type": "text", "text": f"PAGE\n{OBSERVATIONS[index - 1]}"},
                                                      {"type": "image", "digest": "sha256:" + "ab" * 32}]}],
        }],
    }  # fmt: skip


def _task(run: Path, status: str, *, with_episode: bool) -> Path:
    folder = task_folder(run, "set:1")
    folder.mkdir(parents=True, exist_ok=True)
    entry = {"index": 0, "url": LONG_URL, "visited_url": LONG_URL, "locator": LOCATOR, "key": "must_include",
             "content": "<html>" + "x" * 3000, "passed": status == "passed", "note": "",
             "checks": [{"key": "must_include", "reference": "Solid bass, comfy fit", "passed": status == "passed",
                         "note": "found" if status == "passed" else "not found"}]}  # fmt: skip
    record = {
        "task_key": "set:1", "task_id": 1, "sites": ["shopping"], "kind": "skill", "status": status,
        "score": 1.0 if status == "passed" else 0.0, "eval_types": ["program_html"], "intent": "Review the headphones",
        "verdicts": [{"eval_type": "program_html", "status": status, "message": "", "details": [entry]}],
        "steps": 2 if with_episode else 0, "answer": "", "final_url": LONG_URL, "policy": "video",
    }  # fmt: skip
    if with_episode:
        for index in range(3):
            Image.new("RGB", (320, 200), ("white", "navy", "teal")[index]).save(folder / f"step_{index:03d}.png")
        steps = [_episode_step(1, "```\nclick [31]\n```"), _episode_step(2, "```\nclick [1383]\n```")]
        write_json(folder / "episode.json", {"start_urls": [LONG_URL], "start_screenshot": "step_000.png",
                                             "start_observation_text": OBSERVATIONS[0].upper(),
                                             "model_calls_kept": True, "steps": steps})  # fmt: skip
    write_json(folder / RECORD_FILE, record)
    return folder


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path]:
    """Run 1 fails set:1 (a full episode; the account gives it a lost_at), run 2 passes it (no episode); and set:2 in
    run 1, a task whose record was written before task pages existed (no report.html)."""
    root = tmp_path_factory.mktemp("runs")
    failed, passed = root / "failed", root / "passed"
    _task(failed, "failed", with_episode=True)
    _task(passed, "passed", with_episode=False)
    write_json(task_folder(failed, "set:2") / RECORD_FILE, {"task_key": "set:2", "status": "error", "steps": 0,
                                                            "verdicts": [], "intent": "an old record"})  # fmt: skip
    return failed, passed


def _open(chromium, path: Path):
    page = chromium.new_page(viewport={"width": WIDTH, "height": 900})
    page.goto(path.as_uri())
    return page


def _document_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def test_every_task_in_the_run_index_links_to_its_page(runs) -> None:
    failed, _ = runs
    write_run_outputs(failed)
    links = re.findall(r'<a href="([^"]+)">', (failed / "index.html").read_text())
    assert len(links) == 2 and all((failed / link).is_file() for link in links), links


def test_the_task_page_tells_the_episode_and_fits_1280_px(runs, chromium) -> None:
    failed, _ = runs
    write_run_outputs(failed)
    page = _open(chromium, task_folder(failed, "set:1") / TASK_PAGE)
    try:
        top = page.locator(".verdict-box").first
        text = top.inner_text()
        assert "entry 1 (" in text and "locator func:shopping_get_latest_order_url()" in text
        assert "must_include 'Solid bass, comfy fit' — not found" in text
        assert LOST in text and "no reference solution" in text
        box = top.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH and box["y"] < 900  # seen without scrolling

        second = page.locator("#step-2")
        shots = second.locator("img.shot")
        assert [shots.nth(i).get_attribute("src") for i in range(2)] == ["step_001.png", "step_002.png"]
        first_shot = page.locator("#step-1 img.shot").first.get_attribute("src")
        assert first_shot == "step_000.png"  # step 1 starts on the start page
        # The observation step 2 acted on is the one recorded after step 1; step 1's is the start's.
        assert OBSERVATIONS[0] in second.locator("details.observation pre").text_content()
        assert OBSERVATIONS[0].upper() in page.locator("#step-1 details.observation pre").text_content()
        call = second.locator("details.call")
        assert "policy (policy, scripted/demo)" in call.locator("summary").inner_text()
        assert SYSTEM in call.text_content() and OBSERVATIONS[1] in call.text_content()
        assert "click [1383]" in call.locator(".reply pre").text_content()
        assert "Open my orders" in second.locator(".demo").inner_text()
        assert "reselected (shop_order_history/0-5): its first step grounds best" in second.locator(".why").inner_text()
        assert LOST in page.locator("#verdict ~ .verdict-box").inner_text()

        assert _document_width(page) <= WIDTH
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        assert _document_width(page) <= WIDTH  # with every observation, call and table open
        # The candidates' objectives read as lines of text, not a word a line.
        assert min(page.locator("td.long").evaluate_all("cells => cells.map(c => c.offsetWidth)")) >= 200
    finally:
        page.close()


def test_the_flipped_task_page_says_why_the_failing_side_failed_and_keeps_each_column_in_its_half(
    runs, chromium, tmp_path
) -> None:
    failed, passed = runs
    out = tmp_path / "report"
    report(failed, passed, out_dir=out)
    index = (out / "index.html").read_text()
    rows = re.findall(r'<tr><td><a class="task" href="([^"]+)">(set:\d)</a>', index)
    assert [key for _, key in rows] == ["set:1", "set:2"] and all((out / href).is_file() for href, _ in rows)

    page = _open(chromium, out / "flipped" / "run2-set-1.html")
    try:
        left, right = page.locator(".side-head").nth(0), page.locator(".side-head").nth(1)
        assert "must_include 'Solid bass, comfy fit' — not found" in left.locator(".verdict-box").inner_text()
        assert LOST in left.inner_text()
        assert "passed" in right.locator(".verdict-box").inner_text()
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        assert _document_width(page) <= WIDTH
        # Nothing spills out of its column: the candidates table scrolls inside its own box.
        spills = page.locator(".sides > div").evaluate_all(
            "cells => cells.filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.className)"
        )
        assert spills == []
    finally:
        page.close()


def test_a_long_objective_in_a_demonstration_is_text_not_a_file_to_look_up(tmp_path) -> None:
    """The demo's forum:42 page failed: an objective of 280 characters, one path component too long to stat."""
    from evaluation.reports.task_story import rebased

    objective = 'Submit, enter "What are you reading this month?" as Title, ' * 4 + "and create the submission"
    (tmp_path / "step_001.png").write_bytes(b"png")
    shown = rebased({"objective": objective, "keyframes": ["step_001.png"]}, tmp_path, tmp_path / "pages")
    assert shown == {"objective": objective, "keyframes": ["../step_001.png"]}
