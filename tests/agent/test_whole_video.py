"""The `--no-trajectory-selection` choice: the model names one video, whose whole action sequence is then shown."""

from __future__ import annotations

from agent.videos.candidates import CandidateSource
from agent.method.whole_video import choose_whole_video
from model_access.client import ModelClient
from model_access.scripted_server import ScriptedServer
from processing.index import TrajectoryIndex
from settings import load_settings
from tests.agent.world import FORUM_ACTIONS, FORUM_VIDEO, SEARCH_VIDEO, embedding_settings

TITLES = {SEARCH_VIDEO: "Finding the cheapest headphones", FORUM_VIDEO: "Browsing and sorting forums"}


def _choose(agent_index, tmp_path, reply: str):
    script = {"rules": [{"contains": "Choose the video most relevant", "reply": reply}], "default": "unused"}
    with ScriptedServer(script) as server:
        settings = embedding_settings(load_settings(), server.base_url)
        settings.paths.cache_dir = tmp_path
        settings.models.policy.base_url = server.base_url
        settings.models.policy.model = "scripted-policy"
        settings.models.max_retries = 0
        source = CandidateSource(TrajectoryIndex.load(agent_index, settings), pool_per_video=40)
        with ModelClient(settings) as client:
            result = choose_whole_video(
                client, "policy", source, "Open the history forum", [SEARCH_VIDEO, FORUM_VIDEO], TITLES
            )
        asked = [entry["body"]["messages"][0]["content"] for entry in server.requests("/chat/completions")]
    return result, asked


def test_the_model_names_the_video_and_its_whole_action_sequence_is_shown(agent_index, tmp_path) -> None:
    reply = 'The task is about forums.\n```json\n{"video": 2, "reason": "it opens forums"}\n```'
    (chosen, record, note), asked = _choose(agent_index, tmp_path, reply)
    assert note is None and len(asked) == 1
    assert 'Video 1: "Finding the cheapest headphones"' in asked[0] and "- Open the history forum" in asked[0]
    assert chosen.trajectory_id == f"{FORUM_VIDEO}/whole" and chosen.actions == FORUM_ACTIONS
    assert len(chosen.step_keyframes) == len(FORUM_ACTIONS)
    assert record == {"video": FORUM_VIDEO, "asked": "yes", "reason": "it opens forums",
                      "trajectory_id": f"{FORUM_VIDEO}/whole", "actions": 2}  # fmt: skip


def test_an_unreadable_choice_means_no_demonstration_and_says_why(agent_index, tmp_path) -> None:
    (chosen, record, note), _ = _choose(agent_index, tmp_path, "The second one, probably.")
    assert chosen is None and "could not be read" in note and "video number between 1 and 2" in record["error"]


def test_the_replay_baseline_still_takes_the_closest_videos_longest_trajectory(agent_index, tmp_path) -> None:
    from agent.replay.whole_video_by_embeddings import choose_by_embeddings

    with ScriptedServer({"default": "unused"}) as server:
        settings = embedding_settings(load_settings(), server.base_url)
        settings.paths.cache_dir = tmp_path
        source = CandidateSource(TrajectoryIndex.load(agent_index, settings), pool_per_video=40)
        videos = [FORUM_VIDEO, SEARCH_VIDEO]
        chosen, record = choose_by_embeddings(source, "Sort the headphones by price", videos, TITLES)
        assert chosen.trajectory_id == f"{SEARCH_VIDEO}/0-4" and chosen.length == 5
        scores = record["video_scores"]
        assert record["video"] == SEARCH_VIDEO and scores[SEARCH_VIDEO] > scores[FORUM_VIDEO]
        chosen, record = choose_by_embeddings(source, "Open the history forum", videos, TITLES)
        assert chosen.trajectory_id == f"{FORUM_VIDEO}/0-1" and record["video_trajectories"] == 2
