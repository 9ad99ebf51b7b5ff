"""A task's record.json read into a TaskRecord and saved again is the same file, byte for byte: run folders
made by earlier versions keep resuming, rescoring and reporting, and nothing the user sees on disk moves."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from foundation.json_files import write_json
from foundation.records.task_record import RECORD_FILE, TaskRecord
from evaluation.running.task_record import iter_records, record_summary

TESTS = Path(__file__).parents[2]
# Every record.json committed under tests/ (the run made before the house move among them).
COMMITTED = sorted(TESTS.rglob(RECORD_FILE))


def test_there_are_committed_records_to_check() -> None:
    assert len([path for path in COMMITTED if "run_before_the_move" in path.parts]) == 8


@pytest.mark.parametrize("path", COMMITTED, ids=lambda path: str(path.relative_to(TESTS)))
def test_a_committed_record_loads_and_saves_byte_for_byte(path: Path, tmp_path: Path) -> None:
    record = TaskRecord.load(path.parent)
    assert record is not None and record.task_key and record.folder == path.parent.name
    record.save(tmp_path)
    assert (tmp_path / RECORD_FILE).read_bytes() == path.read_bytes()


def test_a_config_error_record_keeps_its_keys_absent(tmp_path: Path) -> None:
    """A config-error record was never played: no answer, state, usage, ... on disk, before or after."""
    written = {
        "task_key": "set:5", "task_id": 5, "problems": ["url_match: no reference_url"], "rules": "videowa",
        "status": "config_error", "score": None, "verdicts": [{"eval_type": "config", "status": "config_error"}],
        "intermediate": None, "intermediate_score": None, "steps": 0, "actions": [], "errors": [],
        "timings": {"total_s": 0.01}, "finished_at": "2026-11-27T10:00:00", "complete": True,
    }  # fmt: skip
    write_json(tmp_path / RECORD_FILE, written)
    record = TaskRecord.load(tmp_path)
    assert record.status == "config_error" and record.steps == 0
    assert not record.has("answer") and record.answer is None and record.final_url == ""  # read as a missing key
    record.save(tmp_path / "again")
    assert (tmp_path / "again" / RECORD_FILE).read_bytes() == (tmp_path / RECORD_FILE).read_bytes()
    assert list(json.loads((tmp_path / "again" / RECORD_FILE).read_text())) == list(written)


def test_keys_this_version_does_not_know_stay_in_their_place(tmp_path: Path) -> None:
    written = {"task_key": "set:1", "judge_seed": 7, "status": "failed", "score": 0.0, "_folder": "kept as read"}
    write_json(tmp_path / RECORD_FILE, written)
    record = TaskRecord.load(tmp_path)
    assert record.extra == {"judge_seed": 7, "_folder": "kept as read"}
    record.score = 1.0  # a known field changed in place
    record.rescored_at = "2026-11-27T11:00:00"  # a new one goes last, as in the dict
    record.save(tmp_path)
    assert json.loads((tmp_path / RECORD_FILE).read_text()) == {
        "task_key": "set:1", "judge_seed": 7, "status": "failed", "score": 1.0, "_folder": "kept as read",
        "rescored_at": "2026-11-27T11:00:00",
    }  # fmt: skip
    assert list(json.loads((tmp_path / RECORD_FILE).read_text()))[-1] == "rescored_at"


def test_a_dropped_key_leaves_the_disk_and_the_folder_is_never_written(tmp_path: Path) -> None:
    run = tmp_path / "run"
    written = {"task_key": "set:1", "status": "failed", "lost_at": {"stage": "x"}, "judge_seed": 7}
    write_json(run / "tasks" / "set-1" / RECORD_FILE, written)
    [record] = iter_records(run)
    assert record.folder == "set-1" and record.lost_at == {"stage": "x"}
    record.drop("lost_at")
    record.drop("judge_seed")  # a key with no field goes as well
    record.save(run / "tasks" / "set-1")
    assert json.loads((run / "tasks" / "set-1" / RECORD_FILE).read_text()) == {"task_key": "set:1", "status": "failed"}


def test_a_worker_summary_crosses_processes_with_only_its_keys() -> None:
    record = TaskRecord(task_key="set:1", status="passed", score=1.0, steps=2, answer="$10", timings={"total_s": 1.0})
    summary = pickle.loads(pickle.dumps(record_summary(record)))
    assert summary.to_dict() == {"task_key": "set:1", "status": "passed", "score": 1.0, "steps": 2,
                                 "timings": {"total_s": 1.0}}  # fmt: skip
    with pytest.raises(TypeError, match="no field 'stauts'"):
        TaskRecord(stauts="passed")


def test_a_record_written_now_reads_back_identically(tmp_path: Path) -> None:
    """A record as the task runner writes it (evaluation/running/task_runner.py): its verdicts typed in memory,
    plain JSON on disk, and the same record, field for field, once read back."""
    from evaluation.scoring.evaluate import TaskEvaluation
    from foundation.records.verdict import Verdict

    quirked = Verdict("program_html", "passed", "reference quirk", [{"index": 0, "passed": True}],
                      ["empty_program_html"], "config_error")  # fmt: skip
    evaluation = TaskEvaluation(
        [Verdict("string_match", "failed", details=[{"key": "must_include", "passed": False}]), quirked],
        Verdict("intermediate", "passed"),
    )
    record = TaskRecord(task_key="set:3", task_id=3, eval_types=["string_match", "program_html"], rules="videowa")
    record.set_evaluation(evaluation.to_dict())
    record.answer, record.steps, record.complete = "blue", 2, True
    assert all(isinstance(verdict, Verdict) for verdict in record.verdicts) and record.verdicts[1] == quirked
    record.save(tmp_path)
    again = TaskRecord.load(tmp_path)
    assert again.to_dict() == record.to_dict() == json.loads((tmp_path / RECORD_FILE).read_text())
    assert again.verdicts == record.verdicts and again.intermediate == Verdict("intermediate", "passed")
    assert (again.status, again.score, again.quirks) == ("failed", 0.0, ["empty_program_html"])
    again.save(tmp_path / "again")
    assert (tmp_path / "again" / RECORD_FILE).read_bytes() == (tmp_path / RECORD_FILE).read_bytes()
