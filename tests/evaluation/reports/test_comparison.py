"""Comparing configurations: paired outcomes and their statistics, samples, errored tasks, cost and the CSV.

Run folders are written as the runner writes them (run.json + tasks/*/record.json).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from statsmodels.stats.contingency_tables import mcnemar

from cli.main import main
from evaluation.reports.comparison import compare
from evaluation.reports.command import report
from evaluation.reports.run_groups import group_configurations
from evaluation.running.run_records import RUN_FILE, task_folder
from foundation.json_files import write_json
from foundation.records.task_record import RECORD_FILE
from settings.schema import ReportSettings


def record(task_id: int, status: str, **fields) -> dict:
    return {
        "task_key": f"set:{task_id}", "task_id": task_id, "sites": ["shopping"], "kind": "skill",
        "status": status, "score": {"passed": 1.0, "failed": 0.0}.get(status), "eval_types": ["string_match"],
        "verdicts": [{"eval_type": "string_match", "status": status}], "steps": 2, "stop_reason": "stop",
        "intent": f"task {task_id}", **fields,
    }  # fmt: skip


def write_run(folder: Path, records: list[dict], policy: str = "video", sample: int | None = None,
              models: dict | None = None, **agent) -> Path:  # fmt: skip
    for item in records:
        write_json(task_folder(folder, item["task_key"]) / RECORD_FILE, item)
    identity = {"policy": policy, "agent": {"use_videos": True, "trajectory_selection": True, **agent}}
    if sample is not None:
        identity["sample"] = sample
    sessions = [{"settings": {"models": models}}] if models else []
    write_json(folder / RUN_FILE, {"identity": identity, "sessions": sessions})
    return folder


# 20 tasks: both pass 6, only the method passes 5, only the base passes 1, neither 8.
OUTCOMES = [("passed", "passed")] * 6 + [("failed", "passed")] * 5 + [("passed", "failed")] + [("failed", "failed")] * 8


@pytest.fixture
def two_runs(tmp_path: Path) -> tuple[Path, Path]:
    base = write_run(tmp_path / "base", [record(i, a) for i, (a, _) in enumerate(OUTCOMES, 1)], "agentoccam")
    method = write_run(tmp_path / "method", [record(i, b) for i, (_, b) in enumerate(OUTCOMES, 1)])
    return base, method


def test_paired_outcomes_mcnemar_and_bootstrap_interval(two_runs, tmp_path: Path) -> None:
    settings = ReportSettings()
    comparison = compare(group_configurations(list(two_runs)), settings, {})
    (pair,) = comparison.pairs
    assert pair.helped == ["set:7", "set:8", "set:9", "set:10", "set:11"] and pair.hurt == ["set:12"]
    assert (len(pair.both), len(pair.neither)) == (6, 8)
    assert pair.mcnemar_p == pytest.approx(mcnemar([[6, 1], [5, 8]], exact=True).pvalue)
    true_difference = (11 - 7) / 20
    assert pair.difference == pytest.approx(true_difference)
    assert pair.interval.low < true_difference < pair.interval.high and pair.interval.high - pair.interval.low < 0.6
    again = compare(group_configurations(list(two_runs)), settings, {}).pairs[0].interval
    assert (again.low, again.high) == (pair.interval.low, pair.interval.high)  # the seed is fixed

    text = report(*two_runs, out_dir=tmp_path / "out")
    assert "helped (run 2 passes, run 1 fails) 5: set:7, set:8, set:9, set:10, set:11" in text
    assert "hurt (run 2 fails, run 1 passes) 1: set:12" in text
    assert f"exact McNemar p = {pair.mcnemar_p:.4g}" in text and "difference +20.0 points" in text


def test_folders_of_one_configuration_are_its_samples(tmp_path: Path, capsys) -> None:
    a1 = write_run(tmp_path / "a", [record(1, "passed"), record(2, "passed"), record(3, "failed")])
    a2 = write_run(tmp_path / "a-sample2", [record(1, "passed"), record(2, "failed"), record(3, "failed")], sample=2)
    b = write_run(tmp_path / "b", [record(1, "failed"), record(2, "failed"), record(3, "failed")], "agentoccam")
    configurations = group_configurations([a1, b, a2])
    assert [len(c.samples) for c in configurations] == [2, 1]
    assert [s.number for s in configurations[0].samples] == [1, 2]

    comparison = compare(configurations, ReportSettings(), {})
    first = comparison.results[0]
    assert first.rates == pytest.approx([2 / 3, 1 / 3]) and first.mean_rate == pytest.approx(0.5)
    assert first.interval.low < 0.5 < first.interval.high  # a t interval over two samples
    assert first.frequencies == {"set:1": (2, 2), "set:2": (1, 2), "set:3": (0, 2)}
    # By majority set:2 (1 of 2) does not pass, so run 2 (b) only hurts on set:1.
    assert comparison.pairs[0].hurt == ["set:1"] and comparison.pairs[0].helped == []

    assert main(["report", str(a1), str(b), str(a2), "--labels", "method,base", "--out", str(tmp_path / "r")]) == 0
    out = capsys.readouterr().out
    assert "run 1: method  (2 samples:" in out and "set:2: 1/2 passed | failed" in out
    assert main(["report", str(a1), str(b), str(a2), "--labels", "x,y,z"]) == 2
    assert "3 run folders were given (2 configurations" in capsys.readouterr().err


def test_errored_tasks_are_listed_and_counted_by_the_chosen_rule(tmp_path: Path, capsys) -> None:
    records = [
        record(1, "passed"), record(2, "failed"), record(3, "error", score=None),
        record(4, "failed", stop_reason="context_overflow"),
    ]  # fmt: skip
    run = write_run(tmp_path / "run", records)
    rates = {}
    for rule in ("recorded", "fail", "exclude"):
        comparison = compare(group_configurations([run]), ReportSettings(errors=rule), {})
        rates[rule] = comparison.results[0].rates[0]
        assert [(key, why) for _, key, why in comparison.results[0].errored] == [
            ("set:3", "error"), ("set:4", "context overflow")
        ]
    assert rates == pytest.approx({"recorded": 1 / 3, "fail": 1 / 4, "exclude": 1 / 2})

    assert main(["report", str(run), "--errors", "exclude", "--out", str(tmp_path / "r")]) == 0
    out = capsys.readouterr().out
    assert "errored tasks (2): set:3 (error), set:4 (context overflow)" in out and "--errors exclude" in out
    overall = next(line for line in out.splitlines() if line.startswith("all "))
    assert "50.0%" in overall
    assert main(["report", str(run), "--harness", "videowa", "--out", str(tmp_path / "v")]) == 0
    assert "--errors exclude" in capsys.readouterr().out  # the reference's rule is the videowa preset's
    assert main(["report", str(run), "--set", "report.bootstrap_method=bca", "--out", str(tmp_path / "v")]) == 2
    assert "use one of percentile, basic, BCa" in capsys.readouterr().err
    table = pd.read_csv(tmp_path / "r" / "tasks.csv")
    assert table.set_index("task_key").loc["set:4", ["outcome", "recorded_status", "errored", "counted"]].tolist() == [
        "error", "failed", "context overflow", False
    ]


def usage(role: str, prompt: int, cached: int, output: int, calls: int = 2, latency: float = 3.0, **more) -> dict:
    row = {"stage": "policy", "role": role, "calls": calls, "cache_hits": 0, "failures": 0, "prompt_tokens": prompt,
           "cached_prompt_tokens": cached, "completion_tokens": output, "latency_s": latency, **more}  # fmt: skip
    return {"rows": [row], "totals": row}


def test_cost_beside_success_with_prices_and_n_a_when_a_server_reports_no_usage(tmp_path: Path, capsys) -> None:
    models = {"policy": {"model": "small-vlm"}, "judge": {"model": "judge-llm"}}
    priced = write_run(tmp_path / "priced", [
        record(1, "passed", usage={"policy": usage("policy", 1000, 400, 100)},
               timings={"episode_s": 10.0, "total_s": 12.0}),
        record(2, "failed", usage={"policy": usage("policy", 3000, 0, 300, shared_cache_hits=1),
                                   "evaluation": usage("judge", 50, 0, 5, calls=1, latency=0.5)},
               timings={"episode_s": 20.0, "total_s": 24.0}),
    ], models=models)  # fmt: skip
    silent = write_run(tmp_path / "silent", [
        record(1, "passed", usage={"policy": usage("policy", 0, 0, 0)}, timings={"episode_s": 5.0, "total_s": 6.0}),
        record(2, "passed", usage={"policy": usage("policy", 0, 0, 0, scripted=2)},
               timings={"episode_s": 5.0, "total_s": 6.0}),
    ], "agentoccam", models=models)  # fmt: skip
    prices = tmp_path / "prices.yaml"
    prices.write_text("small-vlm: {input: 1.0, cached_input: 0.1, output: 4.0}\n")

    out_dir = tmp_path / "r"
    assert main(["report", str(priced), str(silent), "--prices", str(prices), "--out", str(out_dir)]) == 0
    out = capsys.readouterr().out
    assert "no price for judge-llm" in out and "server reports no usage (policy)" in out
    assert "shared: calls served from another sample's cache entry" in out
    # A run answered by the scripted test server says so beside its name; the model's run does not.
    run_lines = [line for line in out.splitlines() if line.startswith("run 1:") or line.startswith("run 2:")]
    assert "SCRIPTED" not in run_lines[0] and "[2 call(s) SCRIPTED (not a model result)]" in run_lines[1]

    table = pd.read_csv(out_dir / "tasks.csv").set_index(["run", "task_key"])
    first = table.loc[(1, "set:1")]
    assert first["cost_usd"] == pytest.approx((600 * 1.0 + 400 * 0.1 + 100 * 4.0) / 1e6)
    assert (first["prompt_tokens"], first["cached_prompt_tokens"], first["completion_tokens"]) == (1000, 400, 100)
    assert first["browser_s"] == pytest.approx(10.0 - 3.0) and first["model_s"] == pytest.approx(3.0)
    assert pd.isna(table.loc[(1, "set:2"), "cost_usd"])  # the judge's model has no price
    assert table.loc[(1, "set:2"), "shared_cache_hits"] == 1
    assert table.loc[(2, "set:2"), "scripted_calls"] == 2 and table.loc[(1, "set:1"), "scripted_calls"] == 0
    assert pd.isna(table.loc[(2, "set:1"), "prompt_tokens"]) and pd.isna(table.loc[(2, "set:1"), "cost_usd"])
    cost_lines = out.split("cost per run")[1].splitlines()
    silent_line = next(line for line in cost_lines if line.startswith("run 2"))
    assert silent_line.split()[5:8] == ["n/a", "n/a", "n/a"]  # tokens, never 0

    write_json(tmp_path / "bad.yaml", {"small-vlm": {"input": 1.0}})
    assert main(["report", str(priced), "--prices", str(tmp_path / "bad.yaml"), "--out", str(out_dir)]) == 2
    assert "must give input, cached_input, output" in capsys.readouterr().err


def test_model_health_and_usage_side_by_side_in_text_page_and_csv(tmp_path: Path, capsys) -> None:
    models = {"policy": {"model": "small-vlm"}}
    replies = write_run(tmp_path / "replies", [
        record(1, "passed", model_health={"unparseable_steps": 2, "cut_streams": 1, "retries": 3},
               usage={"policy": usage("policy", 1000, 0, 100, calls=3, failures=1)}),
        record(2, "failed", model_health={"unparseable_steps": 1, "timeouts": 1},
               usage={"policy": usage("policy", 3000, 0, 300, calls=2)}),
    ], models=models)  # fmt: skip
    silent = write_run(tmp_path / "silent", [
        record(1, "passed", model_health={"unreadable_selections": 4},
               usage={"policy": usage("policy", 0, 0, 0, calls=4)}),
        record(2, "passed", model_health={}, usage={"policy": usage("policy", 0, 0, 0, calls=4)}),
    ], "agentoccam", models=models)  # fmt: skip
    prices = tmp_path / "prices.yaml"
    prices.write_text("small-vlm: {input: 1.0, cached_input: 0.1, output: 4.0}\n")

    out_dir = tmp_path / "r"
    assert main(["report", str(replies), str(silent), "--prices", str(prices), "--out", str(out_dir)]) == 0
    table = capsys.readouterr().out.split("model health and usage")[1].split("\n\n")[0]

    def cells(label: str) -> list[str]:
        line = next(line for line in table.splitlines() if line.startswith(label + "  "))
        return line[len(label):].split()

    # Each figure holds both runs' values: count (tasks with it); 4 steps each (2 tasks of 2 steps).
    assert cells("steps") == ["4", "4"]
    assert cells("steps with no readable action") == ["3", "(2)", "0", "(0)"]
    assert cells("selection replies unreadable") == ["0", "(0)", "4", "(1)"]
    assert cells("streams cut by the server (retried)") == ["1", "(1)", "0", "(0)"]
    assert cells("calls timed out") == ["1", "(1)", "0", "(0)"] and cells("retries") == ["3", "(1)", "0", "(0)"]
    assert cells("model calls") == ["5", "8"] and cells("failed calls (after retries)") == ["1", "0"]
    # The silent server reported no tokens: n/a, never 0, and so are its dollars.
    assert cells("prompt tokens") == ["4,000", "n/a"] and cells("output tokens per step") == ["100", "n/a"]
    dollars = (4000 * 1.0 + 400 * 4.0) / 1e6
    assert cells("cost $") == [f"{dollars:.4f}", "n/a"] and cells("calls per step") == ["1.25", "2.00"]
    assert "run 2: n/a because server reports no usage (policy)" in table

    page = (out_dir / "index.html").read_text(encoding="utf-8")
    assert "<td>steps with no readable action</td><td>3 (2)</td><td>0 (0)</td>" in page
    assert "<td>prompt tokens</td><td>4,000</td><td>n/a</td>" in page
    csv = pd.read_csv(out_dir / "tasks.csv").set_index(["run", "task_key"])
    assert csv.loc[(1, "set:1"), ["unparseable_steps", "cut_streams", "retries", "failed_calls"]].tolist() == [
        2, 1, 3, 1
    ]
    assert csv.loc[(2, "set:1"), "unreadable_selections"] == 4 and pd.isna(csv.loc[(2, "set:1"), "prompt_tokens"])


@pytest.mark.parametrize(("passed", "scored", "confidence"), [(0, 45, 0.95), (11, 45, 0.95), (45, 45, 0.95),
                                                              (33, 135, 0.9), (1, 1, 0.99), (0, 3, 0.95)])  # fmt: skip
def test_a_runs_success_interval_is_statsmodels_wilson_interval(passed, scored, confidence) -> None:
    """The summary's interval (scipy's Wilson) is the one statsmodels gives, at the edges too."""
    from statsmodels.stats.proportion import proportion_confint

    from evaluation.reports.paired_stats import proportion_interval

    interval = proportion_interval(passed, scored, confidence)
    low, high = proportion_confint(passed, scored, alpha=1 - confidence, method="wilson")
    assert interval is not None and "Wilson" in interval.how
    assert interval.low == pytest.approx(low, abs=1e-12) and interval.high == pytest.approx(high, abs=1e-12)
    assert proportion_interval(0, 0, confidence) is None
