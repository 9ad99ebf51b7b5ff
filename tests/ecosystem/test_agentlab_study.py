"""An AgentLab study (AgentLab's own runner) of two sandbox tasks with our agent; its results read back by
AgentLab's own result reader (`inspect_results.load_result_df`, inside ecosystem.browsergym.study). The scripted
policy calls no model: every step keeps an empty chat and every stats key at 0, in AgentLab's summed columns."""

from __future__ import annotations

import json
from pathlib import Path

from ecosystem.browsergym.model_calls import STAT_KEYS


def test_an_agentlab_study_of_two_sandbox_tasks_finishes_and_its_results_load(bridge, tmp_path) -> None:
    tasks = ["videodemo.forum.37", "videodemo.shop.1"]
    outcome = bridge("study", *tasks, "--policy", "scripted", "--out", str(tmp_path))

    assert outcome["agent"] == "videodemo-scripted"
    assert [row["task_name"] for row in outcome["results"]] == tasks
    for row in outcome["results"]:
        assert row["cum_reward"] == 1.0 and row["err_msg"] is None and row["n_steps"] >= 2, row
        assert row["stats"] == dict.fromkeys(STAT_KEYS, 0.0), row  # stats.cum_<key>: present, and 0
        assert row["chat_messages"] == [0] * row["n_steps"], row  # an empty list each step, not None
    # AgentLab's own layout on disk: the pickled study and one folder per experiment with its summary.
    study = Path(outcome["study_dir"])
    assert (study / "study.pkl.gz").is_file()
    summaries = [json.loads(path.read_text()) for path in study.glob("*/summary_info.json")]
    assert sorted(summary["cum_reward"] for summary in summaries) == [1.0, 1.0]
