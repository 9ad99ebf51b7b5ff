"""`videodemo rescore DIR`: judge a finished run again from its saved evidence, without the sites.

string_match and url_match are scored again in full (after a fix to a matcher or a
config, or with a judge configured now); program_html is judged again on the page
contents read during the run, as long as its entries still ask for the same pages
(otherwise it needs the live site: run the task again), with the reference quirks that
`evaluation.reference_quirks` names now; page_image_query keeps its
recorded verdict, because the images were not saved. Tasks that never reached their
evaluators (config problems, episode errors) keep their records.
"""

from __future__ import annotations

from pathlib import Path

from foundation.errors import UserError
from evaluation.evaluate import Verdict, rescore_from_evidence
from evaluation.judge import Judge
from evaluation.reference_quirks import quirk_set
from evaluation.run_manifest import now, read_identity
from evaluation.run_records import EVIDENCE_FILE, RECORD_FILE, TASKS_DIR, iter_records, read_json, write_json
from settings import Settings


def rescore_run(
    run_dir: Path, settings: Settings, tasks_path: Path | None = None, judge: Judge | None = None
) -> list[str]:
    """Score every record again; returns "key: old -> new" for each task whose status changed."""
    from evaluation.report import write_run_outputs, write_task_page
    from tasks.loading import load_tasks

    run_dir = Path(run_dir)
    quirks = quirk_set(settings.evaluation.reference_quirks)  # as the settings name them now
    identity = read_identity(run_dir)
    if tasks_path is None:
        if not identity or not identity.get("tasks"):
            raise UserError(f"{run_dir} has no readable run.json naming its tasks; pass --tasks PATH")
        tasks_path = Path(identity["tasks"])
    tasks = {task.key: task for task in load_tasks(tasks_path, settings=settings)}
    changes = []
    for record in iter_records(run_dir):
        folder = run_dir / TASKS_DIR / record.pop("_folder")
        task = tasks.get(record["task_key"])
        evidence = read_json(folder / EVIDENCE_FILE)
        ran = [verdict for verdict in record.get("verdicts", []) if verdict["eval_type"] not in ("config", "episode")]
        if task is None or not isinstance(evidence, dict) or not ran:
            continue
        previous = [Verdict.from_dict(verdict) for verdict in ran]
        evaluation = rescore_from_evidence(task, evidence, previous, judge, quirks)
        old_status = record.get("status")
        record.update(evaluation.to_dict(), rescored_at=now())
        write_task_page(folder, record)
        write_json(folder / RECORD_FILE, record)
        if old_status != record["status"]:
            changes.append(f"{record['task_key']}: {old_status} -> {record['status']}")
    write_run_outputs(run_dir, settings.report)
    return changes


__all__ = ["rescore_run"]
