"""Objectives judged (processing/objective_grades.py): the judge's grade read from a scripted judge's reply."""

from __future__ import annotations

import copy
import json

import pytest

from benchmarks.objective_grades import main
from foundation.records.trajectory import LabeledAction, Trajectory
from model_access.client import ModelClient
from processing.objective_grades import NO_JUDGE, grade_objectives, parse_grade, script_subtasks

VIDEO = "shop_search_sort"  # a sandbox tutorial script (tasks/sandbox/tutorials/scripts)


def _trajectory(objective: str, start_s: float, source: str = "vlm") -> Trajectory:
    steps = [LabeledAction("type", "Search", "headphones", point=(400, 150))]
    span = (int(start_s), int(start_s))
    return Trajectory(f"{VIDEO}/{span[0]}-{span[1]}", VIDEO, objective, steps, ["k.jpg"], "a.jpg", "b.jpg",
                      start_s, start_s + 2, span, objective_source=source)  # fmt: skip


def _processed(folder, kept: list[Trajectory]):
    stage = folder / VIDEO / "trajectory_filtering.json"
    stage.parent.mkdir(parents=True)
    data = {"kept": [t.to_dict() for t in kept], "dropped": []}
    stage.write_text(json.dumps({"key": "k", "stage": "trajectory_filtering", "data": data, "stats": {}}))
    return folder


def test_the_ground_truth_is_the_scripts_description_and_action_steps():
    truth = script_subtasks(VIDEO)
    assert truth is not None and truth.description.startswith("Search One Stop Market for headphones")
    # The opening wander and the background told while idling are no steps; the first action is.
    assert truth.steps[0].startswith("Let's start with a search. I click into the search box")
    assert script_subtasks("no_such_tutorial") is None


@pytest.mark.parametrize(
    ("reply", "grade"),
    [
        ("[comment]: Right goal and query.\n[score]: 4", 4),
        ("<think>maybe 2</think>\n[comment]: exact.\n[score]: **5**", 5),
        ("Comment: wrong site.\nScore: 0", 0),
        ("[comment]: fine\n[score]: 7", None),
        ("It looks reasonable to me.", None),
    ],
)
def test_the_grade_is_read_from_the_reply(reply, grade):
    found, reason = parse_grade(reply)
    assert found == grade
    if grade is None:
        assert reason.startswith("the judge's reply gives no grade")


def test_each_kept_objective_is_graded_in_time_order_through_the_judge_role(test_settings, scripted_server, tmp_path):
    server = scripted_server({"name": "judge", "rules": [
        {"contains": "Objective: Sort the headphones by price",
         "reply": "[comment]: Right, the option too.\n[score]: 5"},
        {"contains": "Objective: Search for headphones", "reply": "[comment]: Right goal.\n[score]: 4"},
        {"contains": "Objective: Open the cart", "reply": "I would rather not say."},
    ]})  # fmt: skip
    settings = copy.deepcopy(test_settings)  # the session's settings stay without a judge
    settings.models.judge.base_url = server.base_url
    settings.models.judge.model = "scripted-judge"
    kept = [_trajectory("Sort the headphones by price", 20.0), _trajectory("Open the cart", 30.0, "derived"),
            _trajectory("Search for headphones", 10.0)]  # fmt: skip
    processed = _processed(tmp_path / "processed", kept)
    with ModelClient(settings) as client:
        report = grade_objectives(settings, client, [VIDEO, "no_such_tutorial"], processed)
    assert [(g.objective, g.grade) for g in report.grades] == [
        ("Search for headphones", 4), ("Sort the headphones by price", 5), ("Open the cart", None)]
    assert report.grades[0].reason == "Right goal." and "gives no grade" in report.grades[2].reason
    assert report.mean("vlm") == 4.5 and report.mean("derived") is None
    lines = "\n".join(report.lines())
    assert "mean 4.50 over 2 objectives" in lines and "1 replies gave no grade" in lines
    assert "no_such_tutorial: no sandbox tutorial script" in lines
    prompt = server.requests("/chat/completions")[0]["body"]["messages"][0]["content"]
    text = prompt if isinstance(prompt, str) else " ".join(part.get("text", "") for part in prompt)
    assert "Purpose: Search One Stop Market for headphones" in text and 'type "headphones" into "Search"' in text


def test_with_no_judge_it_says_so_in_one_line_and_grades_nothing(test_settings, tmp_path, capsys, monkeypatch):
    assert not test_settings.models.judge.base_url
    with ModelClient(test_settings) as client:
        assert grade_objectives(test_settings, client, [VIDEO], tmp_path) is None
    monkeypatch.setenv("VIDEODEMO_CACHE", str(tmp_path / "cache"))
    assert main(["--processed", str(tmp_path), "--set", "models.judge.base_url="]) == 0
    assert capsys.readouterr().out.strip() == NO_JUDGE
