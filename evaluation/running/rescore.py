"""`videodemo rescore DIR`: judge a finished run again from its saved evidence, without the sites.

string_match and url_match are scored again in full (after a fix to a matcher or a
config, or with a judge configured now); program_html is judged again on the page
contents read during the run, as long as its entries still ask for the same pages
(otherwise it needs the live site: run the task again), with the reference quirks that
`evaluation.reference_quirks` names now; page_image_query keeps its
recorded verdict, because the images were not saved. Tasks that never reached their
evaluators (config problems, episode errors) keep their verdicts.

The rule set is the one `evaluation.rules` names now (`--rules NAME`): every record then
says so (`rules`), and run.json's identity takes the new scoring settings, so the folder is
not resumed, or compared, as the run it was. `copy_run` first copies the folder, so that the
run can be set beside itself scored under another rule set (`videodemo rescore RUN --rules
agentoccam --out COPY`, then `videodemo report RUN COPY`).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from foundation.errors import UserError
from foundation.folder_lock import LOCK_NAME
from evaluation.scoring.evaluate import rescore_from_evidence
from evaluation.scoring.judge import Judge
from evaluation.scoring.reference_quirks import quirk_set
from evaluation.running.run_manifest import now, read_identity
from evaluation.running.run_records import EVIDENCE_FILE, RUN_FILE, TASKS_DIR
from foundation.json_files import read_json, write_json
from evaluation.running.task_record import iter_records
from evaluation.scoring.scoring_rules import record_rules, scoring_rules
from settings import Settings

REFERENCE_BLOCK = "reference_block"  # TaskEvaluation.to_dict(): scored against AgentOccam's corrected block


def rescore_run(
    run_dir: Path, settings: Settings, tasks_path: Path | None = None, judge: Judge | None = None
) -> list[str]:
    """Score every record again; returns "key: old -> new" for each task whose status changed (with why, when it
    was scored against AgentOccam's corrected eval block)."""
    from tasks.loading import load_tasks

    run_dir = Path(run_dir)
    quirks = quirk_set(settings.evaluation.reference_quirks)  # as the settings name them now
    identity = read_identity(run_dir)
    if tasks_path is None:
        if not identity or not identity.get("tasks"):
            raise UserError(f"{run_dir} has no readable run.json naming its tasks; pass --tasks PATH")
        tasks_path = Path(identity["tasks"])
    tasks = {task.key: task for task in load_tasks(tasks_path, settings=settings)}
    records = iter_records(run_dir)
    rules = scoring_rules(settings, [tasks[r.task_key] for r in records if r.task_key in tasks])
    changes = []
    for record in records:
        folder = run_dir / TASKS_DIR / str(record.folder)
        task = tasks.get(record.task_key)
        evidence = read_json(folder / EVIDENCE_FILE)
        ran = [verdict for verdict in record.verdicts if verdict.eval_type not in ("config", "episode")]
        old_status, old_rules = record.status, record_rules(record)
        if task is not None and isinstance(evidence, dict) and ran:
            evaluation = rescore_from_evidence(task, evidence, ran, judge, quirks, rules)
            record.drop(REFERENCE_BLOCK)  # an earlier rescore's note, gone when this one scores the task's own block
            record.set_evaluation(evaluation.to_dict())
            record.rescored_at = now()
        elif old_rules == rules.name:
            continue
        record.rules = rules.name  # a task that never reached its evaluators is counted by the new set's tally
        record.save(folder)
        if old_status != record.status:
            why = record.extra.get(REFERENCE_BLOCK)
            changes.append(f"{record.task_key}: {old_status} -> {record.status}" + (f" ({why})" if why else ""))
    _rescored_identity(run_dir, settings)
    return changes


def _rescored_identity(run_dir: Path, settings: Settings) -> None:
    from evaluation.running.run_identity import rescored_identity

    manifest = read_json(run_dir / RUN_FILE)
    if isinstance(manifest, dict) and isinstance(manifest.get("identity"), dict):
        manifest["identity"] = rescored_identity(manifest["identity"], settings)
        write_json(run_dir / RUN_FILE, manifest)


def copy_run(run_dir: Path, out: Path) -> Path:
    """The run folder copied to `out` (which must not hold anything), its reports and lock left behind."""
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise UserError(f"{out} is not empty; give --out a new folder for the rescored copy")
    if out.resolve() == Path(run_dir).resolve():
        raise UserError("--out names the run folder itself; leave --out out to rescore in place")
    shutil.copytree(run_dir, out, dirs_exist_ok=True, ignore=shutil.ignore_patterns(LOCK_NAME, "reports"))
    return out


__all__ = ["copy_run", "rescore_run"]
