"""`videodemo rescore RUN --rules agentoccam --out COPY`: a finished sandbox run (the committed fixture of
test_old_run_folder.py) scored again under AgentOccam's rules in a copy, reported beside the run, and the copy scored
back under VisualWebArena's rules. No site is needed: rescoring reads the saved evidence."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from cli.main import main
from evaluation.running.run_manifest import read_identity
from evaluation.running.task_record import iter_records
from foundation.records.task_record import RECORD_FILE, TaskRecord
from model_access.scripted_server import ScriptedServer
from tests.evaluation.running.task_set import EXPECTED
from tests.evaluation.running.test_old_run_folder import FIXTURE
from tests.evaluation.running.test_runner import JUDGE_SCRIPT, by_id

SHOP = "http://127.0.0.1:7770"  # where the copied run says its shop was; nothing needs to answer there

# Task 2 (url_note EXACT), 4 (required_values), 8 (page_image_query) use rules AgentOccam's evaluator raises on,
# which its environment scores 0; task 5 never ran (its url_note is empty). Its tally counts all four as failures.
UNDER_AGENTOCCAM = {1: "passed", 2: "config_error", 3: "passed", 4: "config_error", 5: "config_error",
                    6: "passed", 7: "passed", 8: "config_error"}  # fmt: skip


def old_run_folder(tmp_path: Path, monkeypatch) -> None:
    """The committed old run folder copied into `tmp_path` (`run/` and its task configs), its placeholders filled,
    with the sites' variables it names and a cache of its own."""
    monkeypatch.setenv("VIDEODEMO_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("SHOPPING", SHOP)
    monkeypatch.setenv("REDDIT", "http://127.0.0.1:9999")
    shutil.copytree(FIXTURE, tmp_path, dirs_exist_ok=True)
    for path in tmp_path.rglob("*.json"):
        path.write_text(path.read_text().replace("@FIXTURE@", str(tmp_path)).replace("@SHOP@", SHOP))


def statuses(run: Path) -> dict[int, str]:
    return {task_id: record["status"] for task_id, record in by_id(run).items()}


def test_a_finished_run_is_rescored_under_both_rule_sets(tmp_path, monkeypatch, capsys) -> None:
    old_run_folder(tmp_path, monkeypatch)
    run, copy = tmp_path / "run", tmp_path / "as-agentoccam"
    before = statuses(run)
    assert before == {task_id: status for task_id, status in EXPECTED.items() if task_id <= 8}

    # Task 2 is scored by url_match, whose alternatives AgentOccam keeps in its task file: one line says so.
    assert main(["rescore", str(run), "--rules", "agentoccam", "--out", str(copy)]) == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and "evaluation.agentoccam_task_file=" in error[0], error
    shutil.rmtree(copy)

    theirs = tmp_path / "test.raw.json"  # a task file in AgentOccam's format (its "or" list), ours, for the sandbox
    theirs.write_text(json.dumps([{"task_id": 1, "sites": ["shopping"], "intent": "Open the cart.",
                                   "start_url": "__SHOPPING__", "eval": {"eval_types": ["url_match"],
                                   "reference_url": "__SHOPPING__/checkout/cart", "or": [
                                       {"reference_url": "__SHOPPING__/checkout"}]}}]))  # fmt: skip
    with ScriptedServer(JUDGE_SCRIPT) as judge:
        judged = ["--judge-url", judge.base_url, "--judge-model", "judge"]
        assert main(["rescore", str(run), "--rules", "agentoccam", "--out", str(copy),
                     "--set", f"evaluation.agentoccam_task_file={theirs}", *judged]) == 0  # fmt: skip
        shown = capsys.readouterr().out
        assert statuses(run) == before  # the run itself is left as it was
        assert statuses(copy) == UNDER_AGENTOCCAM
        assert {record["rules"] for record in by_id(copy).values()} == {"agentoccam"}
        assert read_identity(copy)["harness"]["evaluation.rules"] == "agentoccam"
        assert "harness" not in read_identity(run)

        # The report sets the two side by side: 6 of 6 scored pass under videowa, 4 of 8 under agentoccam.
        assert "scored under the agentoccam rules" in shown
        overall = next(line for line in shown.splitlines() if line.startswith("all "))
        assert overall.split()[2:] == ["100.0%", "(6/6)", "50.0%", "(4/8)", "-50.0"], overall
        # Paired on the 6 tasks scored in both: AgentOccam's rules fail the EXACT url and the required_values page.
        assert "hurt (run 2 fails, run 1 passes) 2: runner_tasks:2, runner_tasks:4" in shown

        # Scored back under VisualWebArena's rules, in place: the run's own statuses again.
        assert main(["rescore", str(copy), "--rules", "videowa", *judged]) == 0
    assert statuses(copy) == before
    assert "harness" not in read_identity(copy)
    summary = json.loads((copy / "summary.json").read_text())
    assert summary["rules"] == ["videowa"] and summary["counted_as_failed"] == []


def test_the_run_made_before_the_move_rescores_and_reports_as_it_did(tmp_path, monkeypatch, capsys) -> None:
    """Rescored under the rules it was made with (the default), the old run keeps every status, score and
    verdict, the task that never reached its evaluators keeps its record byte for byte, and the report reads
    the same."""
    old_run_folder(tmp_path, monkeypatch)
    run = tmp_path / "run"

    def judged(record: TaskRecord) -> tuple:
        return (record.status, record.score, record.intermediate_score, record.quirks,
                [(verdict.eval_type, verdict.status) for verdict in record.verdicts],
                record.intermediate.status if record.intermediate else None)  # fmt: skip

    before = {record.task_key: judged(record) for record in iter_records(run)}
    never_scored = (run / "tasks" / "runner_tasks-5" / RECORD_FILE).read_bytes()
    assert main(["report", str(run)]) == 0
    report_before = capsys.readouterr().out
    with ScriptedServer(JUDGE_SCRIPT) as judge:
        assert main(["rescore", str(run), "--judge-url", judge.base_url, "--judge-model", "judge"]) == 0
    capsys.readouterr()
    assert {record.task_key: judged(record) for record in iter_records(run)} == before
    assert sum(record.has("rescored_at") for record in iter_records(run)) == 7  # all but task 5 were judged again
    assert (run / "tasks" / "runner_tasks-5" / RECORD_FILE).read_bytes() == never_scored
    assert main(["report", str(run)]) == 0
    assert capsys.readouterr().out == report_before
