"""The oracle switches on one recorded sandbox tutorial (forum_browse_sort) and its tasks.

- `oracle.labels`: processing takes the tutorial's ground-truth action log as its labels,
  into processed and index folders of their own;
- `oracle.selection`: the replay policy follows the trajectory that covers the task's
  reference solution, and a model policy is shown it (no selection call);
- `oracle.grounding`: the replay policy acts on the reference solution's elements;
- each is in the run's identity, and each says in one line what is missing when it cannot work.
"""

from __future__ import annotations

import argparse
import copy
import json
from pathlib import Path

import pytest

from agent.oracles.progress import LiveProgress
from evaluation.running.runner import RunSpec, default_run_dir, run
from foundation.errors import UserError
from foundation.records.trajectory import LabeledAction, VideoRecord
from processing.artifacts import VideoArtifacts, read_json
from processing.index import TrajectoryIndex
from processing.labeling_accuracy import ground_truth_actions
from processing.oracle_labels import default_index_dir, processed_dir
from tasks.loading import SANDBOX_CONFIGS_DIR, load_task_set
from tasks.reference.coverage import covering
from tasks.reference.names import STANDING_IN, names_match
from tasks.reference.solutions import ReferenceSolutions
from tasks.reference.steps import reference_steps

TUTORIAL = "forum_browse_sort"
SCIENCE_TOP = "forum:36"  # Show me the top posts of all time in the science forum: Forums, science, Top


@pytest.fixture(scope="module")
def oracle_settings(sandbox):
    """The sandbox settings with the tutorial processed under oracle.labels (derived objectives, no model)."""
    from processing import sources
    from processing.pipeline import indexing_pipeline
    from tasks.sandbox.tutorials.recorder import record_tutorials

    (recording,) = record_tutorials(sandbox.settings, only=[TUTORIAL])
    settings = copy.deepcopy(sandbox.settings)
    settings.oracle.labels = True
    p = settings.processing
    p.labeler, p.objectives, p.trajectory_filtering, p.action_filtering = "ocr", "derived", False, False
    with indexing_pipeline(settings, default_index_dir(settings)) as pipeline:
        videos = [video for video in sources.from_sandbox(settings).videos if video.video_id == TUTORIAL]
        (outcome,) = pipeline.run(videos)
    assert outcome.ok, outcome.reason
    return settings, recording.files.actions


def tasks_by_key(settings) -> dict:
    return {task.key: task for task in load_task_set(SANDBOX_CONFIGS_DIR, settings=settings).tasks}


def play(settings, ids: str, out: Path) -> dict[str, dict]:
    spec = RunSpec(SANDBOX_CONFIGS_DIR, "replay", argparse.Namespace(), out_dir=out, ids=ids, progress=False)
    run_dir = run(spec, settings)
    records = {}
    for path in (run_dir / "tasks").glob("*/record.json"):
        record = json.loads(path.read_text())
        record["episode"] = json.loads((path.parent / "episode.json").read_text())
        records[record["task_key"]] = record
    return records


# ---- oracle.labels ----


def test_oracle_labels_are_the_tutorials_log_in_an_index_of_their_own(oracle_settings) -> None:
    settings, log = oracle_settings
    stored = read_json(VideoArtifacts(processed_dir(settings), TUTORIAL).stage_path("merging"))
    labels = [LabeledAction.from_dict(item) for item in stored["data"]]
    truth = ground_truth_actions(log)
    assert [(a.kind, a.target, a.text, a.start_s, a.end_s) for a in labels] == [
        (a.kind, a.target, a.text, a.start_s, a.end_s) for a in truth
    ]
    assert {a.labeler for a in labels} == {"ground_truth"}
    assert all(a.start_frame <= a.end_frame for a in labels)
    # Folders of their own: the labeler's processing and index are left as they are.
    off = copy.deepcopy(settings)
    off.oracle.labels = False
    assert processed_dir(settings) != processed_dir(off) and default_index_dir(settings) != default_index_dir(off)
    index = TrajectoryIndex.load(default_index_dir(settings), settings)
    whole = index.whole_video(TUTORIAL)
    assert whole is not None and [a.target for a in whole.actions] == [a.target for a in truth]


def test_oracle_labels_say_in_one_line_when_a_video_has_no_log(tmp_path, test_settings) -> None:
    from processing.oracle_labels import OracleLabeler

    video = VideoRecord("talk", str(tmp_path / "talk.mp4"), "dir")
    missing = r"oracle.labels is on but video talk has no ground-truth action log .*talk\.actions\.json"
    with pytest.raises(UserError, match=missing):
        OracleLabeler(test_settings).label(video, [], None)


# ---- oracle.selection ----


def test_the_reference_walked_through_the_tutorial_names_its_covering_trajectories(oracle_settings) -> None:
    from tasks.reference.coverage import cover_chain

    settings, _ = oracle_settings
    tasks = tasks_by_key(settings)
    trajectories = TrajectoryIndex.load(default_index_dir(settings), settings).trajectories(TUTORIAL)
    references = ReferenceSolutions(settings)

    def walk(steps, intent: str) -> tuple[list, list[str]]:
        chain, uncovered = cover_chain(trajectories, steps, intent)
        return chain, [step.text for step in uncovered]

    # Forums, a forum standing in for science, Top: every step is shown, by trajectories of the tutorial, in order.
    task = tasks[SCIENCE_TOP]
    chain, uncovered = walk(references.steps(task, "test"), task.intent)
    assert uncovered == [] and chain and all(c.trajectory.video_id == TUTORIAL for c in chain)
    assert sum(c.matched for c in chain) == 3
    # "List the posts of the DIY forum with the most commented ones first": the tutorial now sorts books that way.
    assert walk(references.steps(tasks["forum:39"], "test"), tasks["forum:39"].intent)[1] == []
    # A step the tutorial never shows is named, and the walk goes on after it.
    steps = reference_steps(["click [link 'Forums']", "click [link 'Log out']", "click [link 'history']", "stop []"])
    chain, uncovered = walk(steps, task.intent)
    assert uncovered == ["click [link 'Log out']"] and sum(c.matched for c in chain) == 2


def test_a_tutorials_value_stands_in_for_the_tasks_but_a_pages_own_label_does_not() -> None:
    from tasks.reference.names import EXACT, STANDING_IN, names_match

    science = "Show me the top posts of all time in the science forum."
    assert names_match("My Acount", "My Account", science) == EXACT  # a letter lost to OCR
    assert names_match("history", "science", science) == STANDING_IN  # the tutorial's forum where the task has its own
    assert names_match("Alphabetical", "science", science) == 0  # a tab of the page, not a forum
    review = "Write a 5-star review of the Nestwell Electric Kettle with the summary 'Boils fast'"
    assert names_match("4 stars", "5 stars", review) == STANDING_IN
    headlamp = "Add the Summitry LED Headlamp 2-Pack to my wish list."
    product = "Summitry LED Headlamp 2-Pack, Rechargeable, 1200 Lumens, Motion Sensor"
    assert names_match("Velocore Yoga Mat 6mm, Non-Slip, with Carrying Strap", product, headlamp) == STANDING_IN
    assert names_match("Add to Cart", "My Wish List", headlamp) == 0  # labels of the page never stand in
    coffee = "What is the price of the cheapest product in the Coffee & Tea category?"
    assert names_match("Office Furniture (7 items )", "Coffee & Tea (7 items )", coffee) == STANDING_IN  # a category
    assert names_match("Add to Cart", "Coffee & Tea", coffee) == 0  # not every word capitalised: the page's
    diy = "List the posts of the DIY forum with the most commented ones first."
    assert names_match("Subscribers", "DIY", diy) == 0  # a page's one-word label is no forum
    cheapest = "Open the page of the most expensive product in the Jewelry & Accessories category."
    watch = "Lunelle Stainless Steel Minimalist Watch, Mesh Band, Japanese Quartz"
    assert names_match("Fernway Hammock, Cotton Rope, Two Person", watch, cheapest) == STANDING_IN  # found by the ask
    assert names_match("18 comments", "1 comment", cheapest) == STANDING_IN  # another post's comments link
    assert names_match("4 stars", "5 stars", cheapest) == 0  # a rating the task does not name stands for nothing


def test_the_selection_oracle_follows_the_trajectories_covering_the_reference(oracle_settings, tmp_path) -> None:
    settings = copy.deepcopy(oracle_settings[0])
    settings.oracle.selection = True
    record = play(settings, SCIENCE_TOP, tmp_path / "run")[SCIENCE_TOP]
    steps = [step["extra"] for step in record["episode"]["steps"]]
    selections = [step["selection"] for step in steps]
    assert all(s["oracle"].startswith("selection oracle") for s in selections)
    # Each choice is a best cover, by the shared coverage function, of the reference's steps left; the choice is kept
    # while it covers the next step; the solution's stop ends it.
    task = tasks_by_key(settings)[SCIENCE_TOP]
    reference = ReferenceSolutions(settings).steps(task, "test")
    trajectories = TrajectoryIndex.load(default_index_dir(settings), settings).trajectories(TUTORIAL)
    *acting, last = selections
    assert acting[0]["decision"] == "reselected" and acting[0]["reference_step"] == "click [link 'Forums']"
    for position, selection in enumerate(acting):
        if selection["decision"] == "reselected":
            covers = covering(trajectories, reference[position:], task.intent)
            assert selection["chosen"] in [c.trajectory.trajectory_id for c in covers if c.matched == covers[0].matched]
        else:
            assert selection["decision"] == "continued" and selection["chosen"] == acting[position - 1]["chosen"]
    assert len({s["chosen"] for s in acting}) < len(acting)  # a choice covering two steps was followed, not redone
    assert last["decision"] == "none" and "its stop" in last["reason"]
    assert [s.get("reference_done") for s in steps[1:]] == [
        ["click [link 'Forums']"], ["click [link 'science']"], ["click [link 'Top']"]
    ]
    assert record["status"] == "passed", record["episode"]["steps"][-1]["extra"]


def test_the_oracles_say_in_one_line_what_they_cannot_do(test_settings) -> None:
    from agent.oracles.switches import check_mode, check_policy
    from agent.videos.modes import Mode

    settings = copy.deepcopy(test_settings)
    settings.oracle.selection = True
    settings.oracle.solutions = str(SANDBOX_CONFIGS_DIR.parent / "solutions" / "shop.json")
    missing = r"oracle.selection is on but task forum:36 has no reference solution in .*shop\.json"
    with pytest.raises(UserError, match=missing):
        ReferenceSolutions(settings).steps(tasks_by_key(settings)[SCIENCE_TOP], "oracle.selection")
    with pytest.raises(UserError, match="oracle.selection stands in for trajectory selection"):
        check_mode(settings, Mode.WHOLE_VIDEO, "replay")
    settings.oracle.selection, settings.oracle.grounding = False, True
    with pytest.raises(UserError, match="oracle.grounding is read by --policy replay only, not video"):
        check_policy("video", settings)


def test_each_oracle_is_part_of_the_runs_identity(test_settings) -> None:
    spec = RunSpec(SANDBOX_CONFIGS_DIR, "replay", argparse.Namespace(), kind="skill")
    folders = set()
    settings = copy.deepcopy(test_settings)
    assert "oracle" not in spec.identity(settings)  # none on: older run folders keep their identity
    folders.add(default_run_dir(settings, spec))
    for name in ("labels", "selection", "grounding", "values"):
        setattr(settings.oracle, name, True)
        assert name in spec.identity(settings)["oracle"]
        folders.add(default_run_dir(settings, spec))
    assert len(folders) == 5


# ---- oracle.grounding ----


def test_the_grounding_oracle_acts_on_the_reference_solutions_elements(oracle_settings, tmp_path) -> None:
    settings = copy.deepcopy(oracle_settings[0])
    settings.oracle.selection = settings.oracle.grounding = True
    record = play(settings, SCIENCE_TOP, tmp_path / "run")[SCIENCE_TOP]
    steps = [step["extra"] for step in record["episode"]["steps"]]
    grounded = [step["replayed"]["grounded"] for step in steps if "replayed" in step]
    assert [g["node"].split(" ", 1)[1] for g in grounded] == ["link 'Forums'", "link 'science'", "link 'Top'"]
    task = tasks_by_key(settings)[SCIENCE_TOP]
    # The tutorial's own forum, grounded on the task's.
    assert names_match(grounded[1]["looked_for"], "science", task.intent) == STANDING_IN
    assert all(g["similarity"] == 1.0 and "grounding oracle" in g["next_best"][0]["note"] for g in grounded)
    assert record["status"] == "passed"


# ---- oracle.values ----

GAMING_TOP = "forum:38"  # the most upvoted post of all time in the gaming forum: Forums, gaming, Top, its title


def test_the_values_oracle_answers_with_the_reference_once_every_step_before_it_is_done(oracle_settings, tmp_path):
    from agent.replay.oracle_values import reference_answer

    settings = copy.deepcopy(oracle_settings[0])
    settings.oracle.selection = settings.oracle.grounding = settings.oracle.values = True
    record = play(settings, GAMING_TOP, tmp_path / "run")[GAMING_TOP]
    last = record["episode"]["steps"][-1]
    assert last["extra"]["answer"]["rule"].startswith("values oracle")
    assert last["action_text"] == "stop [Indie gems from 2022 that flew under the radar?]"
    assert record["status"] == "passed"
    # Before the steps are done there is no answer to give: the oracle never stands in for reaching the page.
    progress = LiveProgress(ReferenceSolutions(settings).steps(tasks_by_key(settings)[GAMING_TOP], "test"))
    assert reference_answer(progress) is None


# ---- oracle.selection with a model policy ----

SUBSCRIBERS = "Which forum has the most subscribers?"  # task 37: Forums, Subscribers, stop [travel]


def test_the_selection_oracle_shows_a_model_the_covering_demonstration_without_asking(run_agent, sandbox) -> None:
    from tests.agent.world import DEMONSTRATION, FORUM_SPANS, FORUM_VIDEO, POLICY, action, record, rules_for, steps

    rules = rules_for(SUBSCRIBERS, POLICY, [action("scroll [down]"), action("stop [travel]")])
    agent_run = run_agent(rules, "37", "--max-steps", "3", "--set", "oracle.selection=true")
    assert agent_run.exit_code == 0, agent_run.stdout
    assert [request.kind for request in agent_run.requests] == ["policy", "policy"]  # no selection call
    selections = [step["extra"]["selection"] for step in steps(agent_run.out, 37)]
    # Both forum trajectories cover the first reference step (Forums; history is no stand-in for the page's own
    # Subscribers tab): the shorter is shown, and kept while the model has not clicked Forums.
    forums = f"{FORUM_VIDEO}/0-0"
    assert [(s["decision"], s["chosen"]) for s in selections] == [("reselected", forums), ("continued", forums)]
    assert selections[0]["reference_step"] == "click [link 'Forums']"
    assert [c["covers"] for c in selections[0]["candidates"]] == [1, 1]
    assert DEMONSTRATION in agent_run.requests[0].text and FORUM_SPANS[0][2] in agent_run.requests[0].text
    assert record(agent_run.out, 37)["status"] == "passed"
