"""The `--no-trajectory-selection` choice: the most relevant video by embeddings, then its longest trajectory."""

from __future__ import annotations

from agent.candidates import CandidateSource
from agent.whole_video import choose_whole_video
from model_access.scripted_server import ScriptedServer
from processing.index import TrajectoryIndex
from settings import load_settings
from tests.agent.world import FORUM_VIDEO, SEARCH_VIDEO, embedding_settings


def test_the_closest_video_gives_its_longest_trajectory(agent_index, tmp_path) -> None:
    with ScriptedServer({"default": "unused"}) as server:
        settings = embedding_settings(load_settings(), server.base_url)
        settings.paths.cache_dir = tmp_path
        source = CandidateSource(TrajectoryIndex.load(agent_index, settings), pool_per_video=40)
        titles = {SEARCH_VIDEO: "Finding the cheapest headphones", FORUM_VIDEO: "Browsing and sorting forums"}
        videos = [FORUM_VIDEO, SEARCH_VIDEO]
        chosen, record = choose_whole_video(source, "Sort the headphones by price", videos, titles)
        assert chosen.trajectory_id == f"{SEARCH_VIDEO}/0-4" and chosen.length == 5
        scores = record["video_scores"]
        assert record["video"] == SEARCH_VIDEO and scores[SEARCH_VIDEO] > scores[FORUM_VIDEO]
        chosen, record = choose_whole_video(source, "Open the history forum", videos, titles)
        assert chosen.trajectory_id == f"{FORUM_VIDEO}/0-1" and record["video_trajectories"] == 2
