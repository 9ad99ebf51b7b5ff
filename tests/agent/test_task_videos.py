"""Which videos a task can draw on, and what a run without any trajectory index tells the user."""

from __future__ import annotations

import copy
from types import SimpleNamespace

from agent.task_videos import open_index, task_videos


def test_a_missing_index_is_announced_once_and_each_task_record_says_why(test_settings, tmp_path, capsys):
    settings = copy.deepcopy(test_settings)  # the fixture is shared by the whole session
    settings.agent.index_dir = str(tmp_path / "no-index")
    assert open_index(settings) is None
    err = capsys.readouterr().err
    assert f"no trajectory index in {tmp_path / 'no-index'}" in err and "process-videos" in err

    found = task_videos(SimpleNamespace(videos=["shop_search_sort"]), None, tmp_path / "no-index")
    assert found.processed == []
    assert "shop_search_sort not processed: there is no trajectory index" in found.reason
