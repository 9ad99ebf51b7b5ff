"""An AgentLab study (AgentLab's own runner) of two sandbox tasks with our agent; its results read back by
AgentLab's own result reader (`inspect_results.load_result_df`, inside ecosystem.browsergym.study) and stepped
through with AgentLab's XRay (agentlab.analyze.agent_xray, imported as its UI imports it). The scripted policy
calls no model: every step keeps an empty chat and every stats key at 0, in AgentLab's summed columns."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from ecosystem.browsergym.model_calls import STAT_KEYS

from tests.ecosystem.conftest import PROJECT_ROOT

# Run in the BrowserGym environment: what XRay's tabs show of each experiment's first step (its screenshot, AXTree
# and action, read by XRay's own functions through its global `info`), and how its chat tab renders a message in
# the form our bridge hands AgentLab (ecosystem/browsergym/model_calls.py, xray_message).
XRAY = """
import json, sys
from pathlib import Path
import agentlab.analyze.agent_xray as xray
from browsergym.experiments.loop import ExpResult
from ecosystem.browsergym.model_calls import xray_message
shown = []
for exp_dir in sorted(path.parent for path in Path(sys.argv[1]).glob("*/summary_info.json")):
    xray.info = xray.Info()
    xray.info.exp_result, xray.info.step = ExpResult(exp_dir), 0
    image, _ = xray.get_screenshot(xray.info, 0)
    shown.append({"steps": len(xray.info.exp_result.steps_info), "screenshot": image.size if image else None,
                  "axtree": xray.update_axtree(), "action": xray.info.exp_result.steps_info[0].action})
sent = {"role": "user", "content": [{"type": "text", "text": "OBJECTIVE: buy tea"},
                                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo"}}]}
print(json.dumps({"episodes": shown, "chat": xray.format_chat_message(xray_message(sent))}))
"""


def test_an_agentlab_study_of_two_sandbox_tasks_finishes_its_results_load_and_xray_shows_them(
    bridge, browsergym_python, tmp_path
) -> None:
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

    # XRay imports (AgentLab 0.4.2 needs anthropic < 1.0: scripts/servers/browsergym.sh pins it) and steps through
    # both experiments: the first step's screenshot, tree and action, as its tabs show them.
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    done = subprocess.run([str(browsergym_python), "-c", XRAY, str(study)], capture_output=True, text=True,
                          timeout=300, env=env, cwd=PROJECT_ROOT)  # fmt: skip
    assert done.returncode == 0, f"XRay failed (rerun bash scripts/servers/browsergym.sh):\n{done.stderr[-3000:]}"
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    # XRay's steps: each one acted on, and the last observation.
    assert sorted(e["steps"] for e in shown["episodes"]) == sorted(r["n_steps"] + 1 for r in outcome["results"])
    for episode in shown["episodes"]:
        assert episode["screenshot"] and min(episode["screenshot"]) > 100, episode
        assert "RootWebArea" in episode["axtree"] and episode["action"], episode
    assert "OBJECTIVE: buy tea" in shown["chat"] and "![Image](data:image/png;base64,iVBORw0KGgo)" in shown["chat"]
