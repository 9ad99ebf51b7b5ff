"""`videodemo rescore RUN --rules agentoccam` with a stand-in of AgentOccam's task file that corrects two of the run's
tasks (matched by intent and start page, as VideoWA renumbers WebArena's): each is scored against the corrected block,
and the tasks whose status moved are listed with the reason. The run is the committed fixture of
test_old_run_folder.py; no site or model is needed."""

from __future__ import annotations

import json

from cli.main import main
from evaluation.running.task_record import iter_records
from tests.evaluation.running.test_rescore_rules import old_run_folder
from tests.evaluation.running.test_runner import by_id

# Written here in WebArena's format: task 1's street spelled out (the run answered "2145 Maple Grove Ave"), task 7's
# fuzzy reference made an exact one (its answer "One Stop Market" still passes, with no judge to ask).
CORRECTED = [
    {"task_id": 501, "sites": ["shopping"], "intent": "What is the street of my default address?",
     "start_url": "__SHOPPING__/customer/address/",
     "eval": {"eval_types": ["string_match"], "reference_answers": {"must_include": ["2145 Maple Grove Avenue"]}}},
    {"task_id": 507, "sites": ["shopping"], "intent": "What is the name of this store?", "start_url": "__SHOPPING__",
     "eval": {"eval_types": ["string_match"], "reference_answers": {"exact_match": "One Stop Market"}}},
]  # fmt: skip


def test_rescore_under_agentoccam_scores_its_corrected_blocks_and_lists_the_moved_tasks(
    tmp_path, monkeypatch, capsys
) -> None:
    old_run_folder(tmp_path, monkeypatch)
    theirs = tmp_path / "test.raw.json"
    theirs.write_text(json.dumps(CORRECTED))
    run, copy = tmp_path / "run", tmp_path / "as-agentoccam"
    assert main(["rescore", str(run), "--rules", "agentoccam", "--out", str(copy),
                 "--set", f"evaluation.agentoccam_task_file={theirs}"]) == 0  # fmt: skip
    shown = capsys.readouterr().out
    records = by_id(copy)
    assert records[1]["status"] == "failed" and "its task 501" in records[1]["reference_block"]
    assert records[7]["status"] == "passed" and "its task 507" in records[7]["reference_block"]
    assert "reference_block" not in records[6]  # no task of the file has its intent
    moved = shown[shown.index("tasks whose status changed"):].splitlines()
    assert any(line.strip().startswith("runner_tasks:1: passed -> failed (scored against AgentOccam's eval block "
                                       "(its task 501") for line in moved), moved  # fmt: skip
    assert not any("runner_tasks:7:" in line for line in moved)  # its verdict did not move

    # Scored back under VideoWA's rules, the note goes with the block it described.
    assert main(["rescore", str(copy), "--rules", "videowa"]) == 0
    assert all(not record.has("reference_block") for record in iter_records(copy))
