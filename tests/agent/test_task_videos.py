"""Which videos a task can draw on, and what a run without any trajectory index tells the user."""

from __future__ import annotations

import copy
from types import SimpleNamespace

from agent.videos.task_videos import open_index, task_videos


def test_a_missing_index_is_announced_once_and_each_task_record_says_why(test_settings, tmp_path, capsys):
    settings = copy.deepcopy(test_settings)  # the fixture is shared by the whole session
    settings.agent.index_dir = str(tmp_path / "no-index")
    assert open_index(settings) is None
    err = capsys.readouterr().err
    assert f"no trajectory index in {tmp_path / 'no-index'}" in err and "process-videos" in err

    found = task_videos(SimpleNamespace(videos=["shop_search_sort"]), None, tmp_path / "no-index")
    assert found.processed == []
    assert "shop_search_sort not processed: there is no trajectory index" in found.reason


def test_videos_per_task_keeps_the_first_processed_ones_and_says_which_were_left_out(agent_index, tmp_path):
    from model_access.scripted_server import ScriptedServer
    from processing.index import TrajectoryIndex
    from settings import load_settings
    from tests.agent.world import FORUM_VIDEO, SEARCH_VIDEO, embedding_settings

    with ScriptedServer({"default": "unused"}) as server:
        settings = embedding_settings(load_settings(), server.base_url)
        settings.paths.cache_dir = tmp_path
        index = TrajectoryIndex.load(agent_index, settings)
        task = SimpleNamespace(videos=["never_processed", FORUM_VIDEO, SEARCH_VIDEO])
        every = task_videos(task, index, agent_index)
        one = task_videos(task, index, agent_index, limit=1)
    assert every.processed == [FORUM_VIDEO, SEARCH_VIDEO]
    assert one.processed == [FORUM_VIDEO] and one.reason is None
    assert one.not_processed[SEARCH_VIDEO] == f"video {SEARCH_VIDEO} left out: agent.videos_per_task is 1"
    assert "never_processed" in one.not_processed


def test_videos_per_task_flag_sets_the_setting_and_refuses_a_negative_count():
    import argparse

    import pytest

    from agent.run_flags import add_agent_arguments, apply_agent_arguments
    from foundation.errors import UserError
    from settings import load_settings

    parser = argparse.ArgumentParser()
    add_agent_arguments(parser)
    settings = load_settings()
    apply_agent_arguments(parser.parse_args(["--videos-per-task", "1"]), settings)
    assert settings.agent.videos_per_task == 1
    with pytest.raises(UserError, match="--videos-per-task is -1"):
        apply_agent_arguments(parser.parse_args(["--videos-per-task", "-1"]), settings)
