"""`videodemo verified-scores`: a run's WebArena tasks scored by WebArena-Verified's own evaluator, beside ours."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from cli.main import main
from evaluation.running.run_records import task_folder
from foundation.json_files import write_json
from settings import PROJECT_ROOT

SHOP_TASKS = PROJECT_ROOT / "tasks" / "sandbox" / "configs" / "shop.json"

# Two real tasks of the package's dataset: a retrieve task its response evaluator alone scores (one expected item),
# and one with network-event checks; plus WebArena's original config of the first, for mapping by intent.
PICK = """
import importlib.resources as r, json
files = r.files("webarena_verified").joinpath("assets/dataset")
verified = json.loads(files.joinpath("webarena-verified.json").read_text())
originals = {c["task_id"]: c for c in json.loads(files.joinpath("test.raw.json").read_text())}
def only_response(t):
    e = t["eval"]
    return len(e) == 1 and e[0]["expected"]["status"] == "SUCCESS" and len(e[0]["expected"]["retrieved_data"]) == 1 \\
        and isinstance(e[0]["expected"]["retrieved_data"][0], str) and set(t["sites"]) <= {"shopping", "shopping_admin"}
first = next(t for t in verified if only_response(t))
network = next(t for t in verified if len(t["eval"]) > 1 and set(t["sites"]) <= {"shopping", "shopping_admin"})
print(json.dumps({"task": first["task_id"], "answer": first["eval"][0]["expected"]["retrieved_data"][0],
                  "original": originals[first["task_id"]], "network": network["task_id"]}))
"""


def test_verified_scores_right_wrong_and_unscorable(verified_python, tmp_path, monkeypatch, capsys):
    picked = json.loads(subprocess.run([str(verified_python), "-c", PICK], capture_output=True, text=True,
                                       check=True, timeout=60).stdout)  # fmt: skip
    original = picked["original"]
    configs = [
        # matched by intent, sites and start URL (VideoWA's configs number tasks afresh)
        {**{k: original[k] for k in ("intent", "sites", "start_url")}, "task_id": 0},
        {"task_id": 1, "webarena_task_id": picked["task"], "intent": "x", "sites": original["sites"]},
        {"task_id": 2, "webarena_task_id": picked["network"], "intent": "y", "sites": original["sites"]},
        {"task_id": 3, "original_task_id": 5, "intent": "z", "sites": ["classifieds"]},
    ]
    (tmp_path / "videowa.json").write_text(json.dumps(configs))
    answers = {0: picked["answer"], 1: "certainly not " + picked["answer"], 2: "", 3: "red"}
    run = tmp_path / "run"
    for task_id, answer in answers.items():
        key = f"videowa:{task_id}"
        write_json(task_folder(run, key) / "record.json", {"task_key": key, "score": float(task_id == 0),
                   "answer": answer, "eval_types": ["string_match"], "status": "done"})  # fmt: skip
    monkeypatch.setenv("SHOPPING", "http://localhost:7770")
    monkeypatch.setenv("SHOPPING_ADMIN", "http://localhost:7780/admin")
    monkeypatch.setenv("VIDEODEMO_SERVERS", str(verified_python.parents[2]))

    assert main(["verified-scores", str(run), "--tasks-path", str(tmp_path / "videowa.json"), "--json"]) == 0
    rows = {row["key"]: row for row in json.loads(capsys.readouterr().out.strip().splitlines()[-1])}

    right, wrong, network, visual = (rows[f"videowa:{i}"] for i in range(4))
    assert right["webarena"] == f"webarena.{picked['task']}" and right["verified"] == 1.0 and right["ours"] == 1.0
    assert right["browsergym"].startswith("webarena_verified.") and right["browsergym"].split(".")[2] == str(
        picked["task"])
    assert "wrapped as RETRIEVE" in right["how"]
    assert right["browsergym_reward"] == 1.0 and wrong["browsergym_reward"] == 0.0
    assert wrong["verified"] == 0.0 and "Expected" in wrong["why"]  # Verified's own reason for the mismatch
    assert network["verified"] is None and "network trace" in network["why"]
    assert visual["verified"] is None and "VisualWebArena" in visual["why"]


READ_TRACE = """
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from worker import recorded_trace
trace = recorded_trace(Path(sys.argv[2]))
print(json.dumps({"navigations": [event.url for event in trace.evaluation_events if event.is_navigation_event],
                  "posts": [[event.url, event.post_data] for event in trace.evaluation_events
                            if event.http_method == "POST"]}))
"""


def test_run_record_network_keeps_the_requests_verified_reads(verified_python, sandbox, test_settings, tmp_path):
    """`run.record_network`: the episode's requests land in the task folder, in a form Verified's reader loads with
    the forms the agent posted."""
    out = tmp_path / "run"
    command = [sys.executable, "-m", "cli.main", "run", "--tasks", str(SHOP_TASKS), "--ids", "7", "--policy",
               "scripted", "--out", str(out), "--no-progress", "--set", "sandbox.reset_token=test-reset-token",
               "--set", "run.record_network=true"]  # fmt: skip
    env = dict(os.environ, VIDEODEMO_CACHE=str(test_settings.paths.cache_dir))
    done = subprocess.run(command, env=env, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    folder = task_folder(out, "shop:7")
    record = json.loads((folder / "record.json").read_text())
    assert record["score"] == 1.0 and record["network_trace"] == "network_trace.zip"

    worker_folder = str(PROJECT_ROOT / "ecosystem" / "webarena_verified")
    read = subprocess.run([str(verified_python), "-c", READ_TRACE, worker_folder, str(folder / "network_trace.zip")],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert read.returncode == 0, read.stderr[-2000:]
    trace = json.loads(read.stdout)
    assert trace["navigations"][0].startswith(sandbox.shop_url)  # the start page
    assert any("q=yoga" in url for url in trace["navigations"])  # the search the agent made
    # the add-to-cart form, with the quantity the agent chose (Playwright keeps it outside the entry)
    assert any(url.endswith("/checkout/cart/add/") and data.get("qty") == "1" for url, data in trace["posts"])
