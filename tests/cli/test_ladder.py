"""The oracle ladder's table (`videodemo demo --ladder`), from four run folders written as the runner writes them."""

from __future__ import annotations

from pathlib import Path

from statsmodels.stats.contingency_tables import mcnemar

from cli.demo_scores import RunResult
from cli.ladder import RUNGS, SELECTION_ON_LABELER, ladder_lines
from evaluation.running.run_records import RUN_FILE, task_folder
from foundation.json_files import write_json
from foundation.records.task_record import RECORD_FILE
from settings.schema import ReportSettings

# Which of six tasks each rung passes: labels gain one, selection gains three and loses one, grounding gains none,
# values gain one.
PASSED = [{1}, {1, 2}, {2, 3, 4, 5}, {2, 3, 4, 5}, {2, 3, 4, 5, 6}]


def write_rung(folder: Path, passed: set[int], oracles: tuple[str, ...]) -> Path:
    for task in range(1, 7):
        status = "passed" if task in passed else "failed"
        write_json(task_folder(folder, f"forum:{task}") / RECORD_FILE, {
            "task_key": f"forum:{task}", "task_id": task, "sites": ["reddit"], "kind": "skill", "status": status,
            "score": 1.0 if status == "passed" else 0.0, "eval_types": ["url_match"], "steps": 2,
        })  # fmt: skip
    identity = {"policy": "replay", "agent": {"use_videos": True, "trajectory_selection": True}}
    if oracles:
        identity["oracle"] = {name: True for name in oracles}
    write_json(folder / RUN_FILE, {"identity": identity, "sessions": []})
    return folder


def test_the_ladder_pairs_each_rung_with_the_one_below_and_names_the_stage_that_loses_most(tmp_path: Path) -> None:
    results = [
        RunResult(rung.label, write_rung(tmp_path / rung.folder, passed, rung.oracles), {}, 0.0)
        for rung, passed in zip(RUNGS, PASSED)
    ]
    side = RunResult(SELECTION_ON_LABELER.label, write_rung(tmp_path / "side", {1, 3}, ("selection",)), {}, 0.0)
    text = "\n".join(ladder_lines(results, ReportSettings(), side=side))
    rows = {line.split("  ")[0]: line for line in text.splitlines() if line.startswith(("replay", "+ oracle"))}
    assert "1/6 = 16.7%" in rows["replay baseline"]
    assert "+1 tasks (+16.7 points)" in rows["+ oracle labels"] and "<- most" not in rows["+ oracle labels"]
    selection = rows["+ oracle selection"]
    assert "4/6 = 66.7%" in selection and "+2 tasks (+33.3 points) <- most" in selection
    p = mcnemar([[1, 1], [3, 1]], exact=True).pvalue  # both pass forum:2; selection helps 3, hurts forum:1
    assert f"{p:.3g}" in selection and selection.rstrip().endswith("3     1")
    assert "+0 tasks (+0.0 points)" in rows["+ oracle grounding"]
    assert "The stage that loses the most tasks: selection (embeddings): its oracle gains +2 tasks" in text
    assert "+ oracle selection: helped forum:3, forum:4, forum:5; hurt forum:1" in text
    assert "+1 tasks (+16.7 points)" in rows["+ oracle values"]
    # Beside the ladder: the selection oracle on the labeler's labels, paired with the baseline (helps forum:3 only).
    assert "oracle selection, OCR labels (selection (embeddings), on the labeler's labels): 2/6, +1 tasks vs the " \
        "replay baseline (helped 1, hurt 0, McNemar p 1)" in text
