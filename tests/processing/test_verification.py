"""`process-videos --verify`: trajectories carried out on the live sandbox shop, verdicts kept, a killed run resumed."""

from __future__ import annotations

import socket

import pytest

from foundation.errors import UserError

from processing.index import TrajectoryIndex
from foundation.records.trajectory import LabeledAction, Trajectory, VideoRecord
from agent.verification.stage import verify_index
from tasks.loading import SANDBOX_CONFIGS_DIR, load_tasks

VIDEO = "shop_search_sort"  # a sandbox task names this video, so its site and start page are known


def trajectory(span: tuple[int, int], actions: list[LabeledAction]) -> Trajectory:
    return Trajectory(
        trajectory_id=f"{VIDEO}/{span[0]}-{span[1]}", video_id=VIDEO, objective="search the store",
        actions=actions, step_keyframes=["" for _ in actions], first_frame="", last_frame="",
        start_s=0.0, end_s=1.0, span=span, objective_source="derived",
    )  # fmt: skip


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Killed(Exception):
    """Stands for the command being killed right after a trajectory's verdict was kept."""


def test_a_trajectory_that_executes_is_verified_one_whose_target_is_missing_is_not_and_a_killed_run_resumes(
    fresh_sandbox, test_settings, tmp_path, monkeypatch
) -> None:
    searches = trajectory((0, 1), [LabeledAction("type", "Search", "yoga mat"), LabeledAction("press", "", "Enter")])
    missing = trajectory((2, 3), [LabeledAction("click", "Launch the rocket"), LabeledAction("click", "Checkout")])
    # A menu whose label names no option (the labeler saw the menu, not the choice): found, so carried out.
    sorts = trajectory((5, 7), [LabeledAction("type", "Search", "yoga mat"), LabeledAction("press", "", "Enter"),
                                LabeledAction("select", "Sort By", "")])  # fmt: skip
    index = TrajectoryIndex.open(tmp_path / "index", test_settings)
    video = VideoRecord(video_id=VIDEO, path=str(tmp_path / "absent.mp4"), source="sandbox", title=VIDEO)
    index.add_video(VIDEO, [searches, missing, sorts], source_key="test", video=video)
    tasks = load_tasks(SANDBOX_CONFIGS_DIR, settings=test_settings)

    def killed_after_first(line: str) -> None:
        if line.startswith("[1/"):
            raise Killed(line)

    with pytest.raises(Killed):
        verify_index(index, test_settings, tasks, report=killed_after_first)
    lines: list[str] = []
    run = verify_index(index, test_settings, tasks, report=lines.append)
    assert run.stored == 1 and run.checked == 2  # the finished trajectory was not tried again
    assert sum(line.startswith("[") for line in lines) == 2

    by_id = {t.trajectory_id: t.checks["verification"] for t in index.trajectories(VIDEO)}
    done, rejected = by_id[searches.trajectory_id], by_id[missing.trajectory_id]
    assert (done["verdict"], done["carried_out"], done["steps"]) == ("verified", 2, 2)
    assert "q=yoga" in done["final_url"]  # the search really ran on the shop
    assert done["start_page"]["source"] == "task start url"  # no frame to read, no recorded video: the task's page
    assert (rejected["verdict"], rejected["carried_out"]) == ("not", 0)
    assert "not found" in rejected["reason"] and "Launch the rocket" in rejected["reason"]
    assert rejected["step_records"][0]["status"] == "failed"
    sorted_ = by_id[sorts.trajectory_id]
    assert (sorted_["verdict"], sorted_["carried_out"]) == ("verified", 3)
    assert "names no option" in sorted_["step_records"][2]["why"]

    # The shop down (a port nothing listens on): the run stops with the fix and keeps no verdict for what it
    # could not try, so a resumed run tries it once the site is back.
    later = trajectory((4, 4), [LabeledAction("click", "Checkout")])
    index.add_video(VIDEO, [searches, missing, sorts, later], source_key="test", video=video)
    monkeypatch.setenv("SHOPPING", f"http://127.0.0.1:{free_port()}")
    with pytest.raises(UserError, match="start the site and run the command again"):
        verify_index(index, test_settings, load_tasks(SANDBOX_CONFIGS_DIR, settings=test_settings),
                     report=lambda line: None)
    assert later.trajectory_id not in index.verdicts() and len(index.verdicts()) == 3


def test_selection_keeps_or_puts_first_the_verified_demonstrations(test_settings, tmp_path) -> None:
    from agent.videos.candidates import CandidateSource

    spans = [trajectory((n, n), [LabeledAction("click", f"Button {n}")]) for n in range(4)]
    index = TrajectoryIndex.open(tmp_path / "index", test_settings)
    index.add_video(VIDEO, spans, source_key="test")
    for span, verdict in zip(spans, ["not", "verified", "partly"]):  # the fourth stays unverified
        index.set_verdict(span, {"verdict": verdict, "carried_out": int(verdict == "verified"), "steps": 1,
                                 "reason": f"{verdict} for the test"})  # fmt: skip

    def listed(mode: str) -> list[tuple[str, str]]:
        pool = CandidateSource(index, 40, demonstrations=mode).pool([VIDEO], "click a button")
        return [(c.trajectory.trajectory_id, c.to_dict()["verification"].split(" ")[0]) for c in pool.candidates]

    assert [v for _, v in listed("all")] == ["not", "verified", "partly", "unverified"]  # the video's order
    assert [v for _, v in listed("verified_first")] == ["verified", "partly", "unverified", "not"]
    assert listed("verified_only") == [(f"{VIDEO}/1-1", "verified")]
    spans[1].actions[0].target = "Relabeled"  # a verdict holds only for the actions it was made with
    index.add_video(VIDEO, spans, source_key="test")
    assert listed("verified_only") == []
