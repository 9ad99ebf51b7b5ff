"""Reports from run folders: the task page shows what the policy chose to show, the tables count
what could not be scored beside the success rate, and several runs are compared side by side."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from PIL import Image

from cli.main import main
from evaluation.browser_env.step_extras import prepare_extra
from evaluation.reports.command import report
from evaluation.reports.report import summarize
from evaluation.reports.summary_table import format_table
from evaluation.reports.task_story import write_task_page
from evaluation.running.run_records import RUN_FILE, task_folder
from foundation.json_files import write_json
from foundation.records.task_record import RECORD_FILE, TaskRecord


def record(task_id: int, status: str, *, sites=("shopping",), kind="skill", difficulty=None, verdicts=None,
           intermediate_score=None, eval_types=("string_match",)) -> dict:  # fmt: skip
    score = {"passed": 1.0, "failed": 0.0}.get(status)
    return {
        "task_key": f"set:{task_id}", "task_id": task_id, "sites": list(sites), "kind": kind,
        "difficulty": difficulty, "status": status, "score": score, "eval_types": list(eval_types),
        "verdicts": verdicts if verdicts is not None else [{"eval_type": t, "status": status} for t in eval_types],
        "intermediate_score": intermediate_score, "intent": f"task {task_id}", "steps": 1,
    }  # fmt: skip


def write_run(folder: Path, records: list[dict]) -> Path:
    for item in records:
        write_json(task_folder(folder, item["task_key"]) / RECORD_FILE, item)
    return folder


def row(summary: dict, group: str, value: str) -> dict:
    return next(r for r in summary["rows"] if (r["group"], r["value"]) == (group, value))


def test_success_rate_counts_only_scored_tasks_and_lists_the_others() -> None:
    records = [
        record(1, "passed"), record(2, "failed"), record(3, "passed", sites=("shopping", "reddit")),
        record(4, "unscorable"), record(5, "config_error", eval_types=("url_match", "program_html"),
                                        verdicts=[{"eval_type": "config", "status": "config_error"}]),
        record(6, "error", kind="factual", difficulty="hard"),
        record(7, "passed", kind="factual", difficulty="hard", intermediate_score=0.0),
        record(8, "failed", kind="factual", difficulty="hard", intermediate_score=1.0),
    ]  # fmt: skip
    summary = summarize([TaskRecord.from_dict(item) for item in records])
    overall = row(summary, "all", "all")
    assert (overall["tasks"], overall["scored"], overall["passed"]) == (8, 5, 3)
    assert overall["success_rate"] == 3 / 5
    assert (overall["unscorable"], overall["config_error"], overall["error"]) == (1, 1, 1)
    assert row(summary, "site", "reddit+shopping")["passed"] == 1
    hard = row(summary, "difficulty", "hard")
    assert (hard["scored"], hard["error"], hard["intermediate_scored"], hard["intermediate_rate"]) == (2, 1, 2, 0.5)
    # A task that never reached its evaluators counts under each eval type it lists, as a config error.
    assert row(summary, "eval_type", "program_html")["config_error"] == 1
    assert row(summary, "eval_type", "string_match")["scored"] == 5
    table = format_table(summary)
    assert "60.0%" in table.splitlines()[2] and "1/2" in table


def write_manifest(folder: Path, policy: str, **agent_flags) -> None:
    agent = {"use_videos": True, "trajectory_selection": True, "visual": True, "transcript_only": False}
    write_json(folder / RUN_FILE, {"identity": {"policy": policy, "agent": {**agent, **agent_flags}}, "sessions": []})


def test_runs_side_by_side_with_differences_to_the_first_and_the_tasks_that_differ(tmp_path: Path) -> None:
    base = write_run(tmp_path / "base", [record(1, "passed"), record(2, "failed"), record(3, "unscorable"),
                                         record(4, "failed", kind="factual", intermediate_score=0.0)])  # fmt: skip
    transcript = write_run(tmp_path / "transcript", [record(1, "failed"), record(2, "failed"), record(3, "passed"),
                                                     record(4, "passed", kind="factual", intermediate_score=1.0)])  # fmt: skip
    method = write_run(tmp_path / "method", [record(1, "passed"), record(2, "passed"), record(3, "passed")])
    write_manifest(base, "agentoccam")
    write_manifest(transcript, "video", transcript_only=True)
    write_manifest(method, "video")

    text = report(base, transcript, method)

    assert "run 1: agentoccam" in text and "run 2: video --transcript-only" in text and "run 3: video " in text
    overall = next(line for line in text.splitlines() if line.startswith("all "))
    # base 1/3 scored; transcript 2/4 (+16.7 points); method 3/3 (+66.7 points).
    assert "33.3% (1/3)" in overall and "50.0% (2/4) +16.7" in overall and "100.0% (3/3) +66.7" in overall
    intermediate = text.split("intermediate score")[1]
    factual = next(line for line in intermediate.splitlines() if line.startswith("kind") and "factual" in line)
    assert "0.0% (0/1)" in factual and "100.0% (1/1) +100.0" in factual
    assert "set:1: passed | failed | passed" in text and "set:3: unscorable | passed | passed" in text
    assert "set:2: failed | failed | passed" in text
    assert "1 tasks are not in every run" in text  # set:4 is missing from the method's run
    assert (method / "index.html").is_file() and json.loads((method / "summary.json").read_text())["tasks"] == 3


def test_report_command_takes_any_number_of_runs_and_labels(tmp_path: Path, capsys) -> None:
    runs = [write_run(tmp_path / name, [record(1, status)]) for name, status in
            (("a", "failed"), ("b", "passed"), ("c", "passed"), ("d", "failed"))]  # fmt: skip
    assert main(["report", *map(str, runs), "--labels", "base,+transcript,+frames,+method"]) == 0
    out = capsys.readouterr().out
    assert "run 2: +transcript" in out and "run 4: +method" in out
    assert "set:1: failed | passed | passed | failed" in out
    assert main(["report", *map(str, runs[:2]), "--labels", "only-one"]) == 2
    assert "--labels names 1 runs but 2 run folders" in capsys.readouterr().err


def test_task_page_shows_each_step_and_what_the_policy_chose_to_show(tmp_path: Path) -> None:
    folder = tmp_path / "tasks" / "set-1"
    folder.mkdir(parents=True)
    Image.new("RGB", (40, 30), "white").save(folder / "step_001.png")
    keyframe = tmp_path / "keyframe.png"
    Image.new("RGB", (40, 30), "navy").save(keyframe)
    info = {
        "reasoning": "The cart link is at the top.",
        "demonstration": {
            "objective": "Open the cart",
            "actions": ["click [cart]"],
            "keyframes": [str(keyframe), np.zeros((8, 8, 3), dtype=np.uint8)],
        },
    }
    extra = prepare_extra(info, folder, 1)
    assert extra["demonstration"]["keyframes"][1] == "extra/step_001_01.png"
    assert (folder / "extra" / "step_001_01.png").is_file()
    episode = {"start_urls": ["http://shop/"], "start_screenshot": None, "steps": [{
        "index": 1, "action_text": "click [12]", "ok": False, "error": "there is no element [12]",
        "url_before": "http://shop/", "url_after": "http://shop/", "screenshot": "step_001.png", "extra": extra,
    }]}  # fmt: skip
    (folder / "episode.json").write_text(json.dumps(episode))
    failed = TaskRecord.from_dict({**record(1, "failed"), "errors": ["step 1: there is no element [12]"]})
    page = write_task_page(folder, failed).read_text()
    assert '<img class="shot" src="step_001.png"' in page
    assert f'src="{keyframe.as_uri()}"' in page and 'src="extra/step_001_01.png"' in page
    assert "The cart link is at the top." in page and "Open the cart" in page
    assert "there is no element [12]" in page
    scripted = TaskRecord.from_dict({**record(1, "failed"), "intent": "<script>x</script>"})
    assert "<script" not in write_task_page(folder, scripted).read_text()


def test_the_task_page_usage_table_is_narrow_and_says_n_a_for_unreported_tokens(tmp_path) -> None:
    import re

    from model_access.accounting import UsageLedger

    policy, evaluation = UsageLedger(), UsageLedger()
    policy.record("policy", "policy", calls=3, no_usage=3, latency_s=41.5, retries=1, cut_streams=1)
    evaluation.record("judge", "judge", calls=1, prompt_tokens=900, completion_tokens=12, latency_s=2.0)
    folder = tmp_path / "task"
    folder.mkdir()
    usage = {"policy": policy.to_dict(), "evaluation": evaluation.to_dict()}
    page = write_task_page(folder, TaskRecord.from_dict({**record(1, "failed"), "usage": usage})).read_text()
    table = page.split("<h2>Model usage</h2>", 1)[1].split("</table>", 1)[0]
    assert table.lstrip().startswith('<div class="wide">')  # scrolls inside the page rather than widening it
    header = re.findall(r"<th>(.*?)</th>", table)
    assert len(header) <= 12 and "prompt tok" in header
    rows = [re.findall(r"<td>(.*?)</td>", row) for row in table.split("<tr>")[2:]]
    by_stage = {cells[1]: dict(zip(header, cells)) for cells in rows}
    assert by_stage["policy"]["prompt tok"] == "n/a" and by_stage["policy"]["calls"] == "3"
    assert by_stage["judge"]["prompt tok"] == "900"
