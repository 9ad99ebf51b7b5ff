"""Reports read at a glance, in Chromium at 1,280 px: the style sheet applies as written, wide tables and the
demonstration strip scroll inside their column (every column and frame reachable), the run index opens with its
result and its paired reports, a step's header names its element and says when it changed nothing, and the element's
recorded box is outlined on the screenshot before the step.

Pages are built from two small run folders (records and episodes written here), not from real runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from evaluation.reports.command import report
from evaluation.running.run_records import RUN_FILE, TASK_PAGE, task_folder
from foundation.json_files import write_json
from foundation.records.task_record import RECORD_FILE
from tests.evaluation.reports.test_task_page import _task

WIDTH = 1280
FRAMES = 9
UPVOTES = "[80] button 'Upvote'\n[81] button 'Upvote'\n[82] button 'Upvote'\n[83] button 'Upvote'"
TARGET_BOX = [40.0, 50.0, 80.0, 20.0]  # step 1's element on step_000.png (320 x 200 pixels)


def _manifest(folder: Path, policy: str, use_videos: bool) -> None:
    identity = {"policy": policy, "tasks": "set.json", "max_steps": 20,
                "agent": {"use_videos": use_videos, "trajectory_selection": True, "visual": True,
                          "transcript_only": False}}  # fmt: skip
    session = {"started_at": "2026-11-27T18:53:05+0000", "command": ["videodemo", "run", "--policy", policy],
               "git": {"revision": "173f8cb9c0f249b0e475cde15f24a6fe0309c670"}}  # fmt: skip
    write_json(folder / RUN_FILE, {"identity": identity, "sessions": [session]})


def _glance_episode(folder: Path) -> None:
    """set:1's episode made to show what the page must flag: a 9-frame demonstration, a step on the page it left
    (nothing changed), and a grounding on one of four equal "Upvote" buttons, with its box (step 2 has none)."""
    import json

    episode = json.loads((folder / "episode.json").read_text())
    first, second = episode["steps"]
    demo = first["extra"]["demonstration"]
    demo["actions"] = [f"click 'Item {n}'" for n in range(1, FRAMES + 1)]
    demo["keyframes"] = [f"frame_{n}.png" for n in range(1, FRAMES + 1)]
    for n in range(1, FRAMES + 1):
        Image.new("RGB", (160, 100), "gray").save(folder / f"frame_{n}.png")
    first["extra"]["demonstrated"] = {"step": FRAMES, "action": f"click 'Item {FRAMES}'"}
    episode["start_observation_text"] = UPVOTES
    first.update(action_text="click [80]", observation_text=UPVOTES, target_box=TARGET_BOX,
                 action={"kind": "click", "element_id": "80", "raw": "click [80]"})  # fmt: skip
    first["extra"]["replayed"] = {"action": "click [80]", "grounded": {
        "looked_for": "Upvote", "node": "[80] button 'Upvote'", "similarity": 1.0, "where": "in view",
        "next_best": [{"node": f"[{n}] button 'Upvote'", "similarity": 1.0} for n in (81, 82, 83)]}}  # fmt: skip
    second.update(action_text="click [81]", url_after=second["url_before"], observation_text=UPVOTES,
                  action={"kind": "click", "element_id": "81", "raw": "click [81]"})  # fmt: skip
    second["extra"].pop("replayed", None)
    (folder / "episode.json").write_text(json.dumps(episode))


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path, Path]:
    """Run 1 (base) fails set:1 with a full episode (and errs on set:11 and set:2); run 2 (no videos) passes set:1;
    the report pairs them."""
    root = tmp_path_factory.mktemp("glance")
    failed, passed = root / "failed", root / "passed"
    _glance_episode(_task(failed, "failed", with_episode=True))
    _task(passed, "passed", with_episode=False)
    for number in (11, 2):  # written out of order: the index lists them naturally
        write_json(task_folder(failed, f"set:{number}") / RECORD_FILE, {"task_key": f"set:{number}", "status": "error",
                                                                         "steps": 0, "verdicts": [], "intent": "old"})
    _manifest(failed, "video", True)
    _manifest(passed, "video", False)
    out = root / "report"
    report(failed, passed, out_dir=out)
    return failed, passed, out


@pytest.fixture(scope="module")
def browser_page(chromium):
    page = chromium.new_page(viewport={"width": WIDTH, "height": 900})
    yield page
    page.close()


def _reachable(page, selector: str) -> bool:
    """Scrolled into view (inside its scrolling box), the element lies within the window and its box."""
    return page.locator(selector).first.evaluate("""el => {
        el.scrollIntoView({block: 'center', inline: 'center'});
        const r = el.getBoundingClientRect();
        let box = el.parentElement;
        while (box && getComputedStyle(box).overflowX === 'visible') box = box.parentElement;
        if (!box || box === document.body || box === document.documentElement) return false;  // the page scrolled
        const b = box.getBoundingClientRect();
        return r.width > 0 && r.left >= Math.max(0, b.left) - 1 && r.right <= Math.min(innerWidth, b.right) + 1;
    }""")


def test_the_style_sheet_applies_as_written(runs, browser_page) -> None:
    failed, _, _ = runs
    browser_page.goto((task_folder(failed, "set:1") / TASK_PAGE).as_uri())
    assert "&gt;" not in browser_page.locator("style").first.text_content()
    cursor = browser_page.locator("details > summary").first.evaluate("s => getComputedStyle(s).cursor")
    assert cursor == "pointer"  # `details > summary { cursor: pointer }`: escaped, it never applied


def test_the_candidates_table_and_every_demonstration_frame_are_reachable_in_a_flipped_half(runs, browser_page):
    _, _, out = runs
    browser_page.goto((out / "flipped" / "run2-set-1.html").as_uri())
    browser_page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    assert browser_page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    total = "xpath=(//th[normalize-space()='total'])[1]"
    assert _reachable(browser_page, total)
    frames = browser_page.locator(".side-step .demo .strip figure")
    assert frames.count() >= FRAMES
    assert all(_reachable(browser_page, f".side-step .demo .strip figure >> nth={n}") for n in range(FRAMES))


def test_a_step_header_names_its_element_and_flags_a_tie_and_a_step_that_changed_nothing(runs, browser_page):
    failed, _, _ = runs
    browser_page.goto((task_folder(failed, "set:1") / TASK_PAGE).as_uri())
    first, second = browser_page.locator("#step-1 .story-head"), browser_page.locator("#step-2 .story-head")
    assert "click [80] button 'Upvote'" in first.inner_text()
    assert first.locator(".badge").inner_text() == "tie: 4 at similarity 1"
    assert "click [81] button 'Upvote'" in second.inner_text()
    assert second.locator(".badge").inner_text() == "no change"
    current = browser_page.locator("#step-1 .demo figure.current")
    assert current.count() == 1 and f"{FRAMES}. click 'Item {FRAMES}'" in current.inner_text()


def test_the_acted_on_element_is_outlined_where_its_box_lies_on_the_screenshot_before(runs, browser_page):
    failed, _, _ = runs
    browser_page.goto((task_folder(failed, "set:1") / TASK_PAGE).as_uri())
    first = browser_page.locator("#step-1 figure").first
    shot, outline = first.locator("img.shot").bounding_box(), first.locator(".target-box").bounding_box()
    scale = shot["width"] / 320  # the image is drawn at its column's width, the outline scales with it
    assert scale > 1
    found = [outline["x"] - shot["x"], outline["y"] - shot["y"], outline["width"], outline["height"]]
    assert found == pytest.approx([value * scale for value in TARGET_BOX], abs=1)
    assert "(outlined)" in first.locator("figcaption").inner_text()
    second = browser_page.locator("#step-2 figure").first  # a record without a box reads as before
    assert second.locator(".target-box").count() == 0
    assert "(no element box recorded to outline)" in second.locator("figcaption").inner_text()


def test_the_run_index_opens_with_its_result_and_its_paired_report(runs, browser_page) -> None:
    failed, _, out = runs
    browser_page.goto((failed / "index.html").as_uri())
    head = browser_page.locator("body > *:not(h1)").first
    text = head.inner_text()
    assert "0.0% passed (0/1 scored" in text and "2 of 3 tasks not scored" in text and "policy\tvideo" in text
    assert "agent.use_videos=True" in text and "173f8cb9c0f2" in text and "videodemo run --policy video" in text
    link = head.locator("a.paired")
    assert link.count() == 1 and (failed / link.get_attribute("href")).resolve() == (out / "index.html").resolve()
    assert "video vs video --no-videos" in link.inner_text()
    tasks = browser_page.locator("table.tasks tr td:first-child a").all_inner_texts()
    assert tasks == ["set:1", "set:2", "set:11"]
    headers = browser_page.locator("table.tasks th").all_inner_texts()
    assert "intermediate" not in headers and "lost at" in headers  # no task has an intermediate score
    assert "the records cannot decide" in browser_page.locator("table.lost-key").inner_text()


def test_per_template_figures_come_from_the_run_s_task_configs(tmp_path) -> None:
    from evaluation.reports.template_figures import template_of, template_rows
    from foundation.records.task_record import TaskRecord

    configs = tmp_path / "set.json"
    configs.write_text('[{"task_id": 1, "intent_template_id": 7}, {"task_id": 2, "intent_template_id": 7},'
                       ' {"task_id": 3, "intent_template_id": 12}]')
    records = [TaskRecord.from_dict({"task_key": f"set:{n}", "task_id": n, "source": "set", "status": status})
               for n, status in ((1, "passed"), (2, "failed"), (3, "error"))]  # fmt: skip
    rows = template_rows(records, template_of(configs))
    assert [(r["template"], r["passed"], r["scored"], r["rate"], r["tasks"]) for r in rows] == [
        ("7", 1, 2, "50%", ["set:1", "set:2"]), ("12", 0, 0, "-", ["set:3"])]
    assert template_of(tmp_path / "moved.json") == {}


def test_the_paired_report_opens_with_its_result_the_labels_and_the_settings_that_differ(runs, browser_page):
    _, _, out = runs
    browser_page.goto((out / "index.html").as_uri())
    head = browser_page.locator("#headline")
    assert head.locator("p.result").first.inner_text().startswith("video --no-videos vs video: +100.0 points, ")
    assert "McNemar p = 1 (1 paired tasks: 1 helped, 0 hurt)" in head.inner_text()
    differing = head.locator("table.differing").inner_text()
    assert "agent.use_videos\tTrue\tFalse" in differing and "max_steps" not in differing
    flip = head.locator("ul.flips li").first
    assert flip.locator("a.flip").get_attribute("href") == "flipped/run2-set-1.html"
    assert "unknown → passed" in flip.inner_text()
    assert browser_page.locator("table.tasks th").nth(1).inner_text() == "video: outcome"


def test_the_cost_table_counts_the_local_embedding_calls(tmp_path) -> None:
    from evaluation.reports.run_costs import task_cost
    from foundation.records.task_record import TaskRecord

    usage = {"policy": {"rows": [{"stage": "grounding", "role": "embedding", "calls": 12},
                                 {"stage": "policy", "role": "policy", "calls": 0}]}}  # fmt: skip
    cost = task_cost(TaskRecord.from_dict({"task_key": "set:1", "usage": usage}), {}, {}, {"embedding"})
    assert (cost["model_calls"], cost["local_calls"], cost["prompt_tokens"]) == (0, 12, 0)


def test_the_task_page_names_its_run_and_shows_what_the_evaluator_expected_and_read(runs, browser_page) -> None:
    failed, _, _ = runs
    browser_page.goto((task_folder(failed, "set:1") / TASK_PAGE).as_uri())
    assert "run failed (video)" in browser_page.locator("body > p.muted").first.inner_text()
    row = browser_page.locator("table.checked tr").nth(1).inner_text()
    assert "program_html entry 1" in row and "must_include 'Solid bass, comfy fit'" in row and "<html>xxx" in row
    assert browser_page.locator("table.checked").bounding_box()["y"] < 900  # at the top, seen without scrolling


def test_a_box_off_the_screenshot_is_said_rather_than_drawn(tmp_path) -> None:
    from evaluation.reports.step_marks import NO_BOX, target_outline

    shot = tmp_path / "step_000.png"
    Image.new("RGB", (320, 200)).save(shot)
    assert target_outline({"target_box": [10, 900, 50, 20]}, shot) == {
        "note": "its box lies outside this screenshot (it was scrolled into view to act on)"}  # fmt: skip
    assert target_outline({"target_box": [-10, 190, 50, 20]}, shot) == {
        "style": "left:0.000%;top:95.000%;width:12.500%;height:5.000%"}  # clipped to the image  # fmt: skip
    assert target_outline({}, shot) == {"note": NO_BOX}
