"""The trajectory index: FAISS over objective embeddings plus SQLite records, replaced per video."""

from __future__ import annotations

import pytest

from foundation.errors import UserError
from processing.index import FAISS_NAME, IndexMismatchError, TrajectoryIndex
from foundation.records.trajectory import LabeledAction, Trajectory, VideoRecord
from settings import load_settings


def _trajectory(video_id: str, i: int, objective: str) -> Trajectory:
    action = LabeledAction("click", f"button {i}", start_frame=i, end_frame=i + 1, start_s=i * 1.0, end_s=i + 0.5)
    return Trajectory(
        trajectory_id=f"{video_id}/{i}-{i}",
        video_id=video_id,
        objective=objective,
        actions=[action],
        step_keyframes=[f"/frames/{video_id}/{i}.jpg"],
        first_frame=f"/frames/{video_id}/{i}.jpg",
        last_frame=f"/frames/{video_id}/{i + 1}.jpg",
        start_s=action.start_s,
        end_s=action.end_s,
        span=(i, i),
    )


SHOP = ["Sort the search results by price", "Add a wireless mouse to the cart", "Change the shipping address"]
FORUM = ["Reply to the first comment of a post", "Subscribe to the books forum"]


@pytest.fixture
def settings(tmp_path, scripted_model):
    """Embeddings from the SCRIPTED server (hashed bags of words): same words, close vectors."""
    server = scripted_model()
    settings = load_settings()
    settings.paths.cache_dir = tmp_path / "cache"
    settings.models.embedding.backend = "openai"
    settings.models.embedding.base_url = server.base_url
    settings.models.embedding.model = "scripted-embedding"
    return settings


@pytest.fixture
def filled(settings, tmp_path):
    index = TrajectoryIndex.open(tmp_path / "index", settings)
    index.add_video("shop", [_trajectory("shop", i, o) for i, o in enumerate(SHOP)], source_key="k1",
                    video=VideoRecord("shop", "/videos/shop.mp4", "dir", title="Shop basics"))  # fmt: skip
    index.add_video("forum", [_trajectory("forum", i, o) for i, o in enumerate(FORUM)], source_key="k2")
    return index


def test_each_objective_finds_its_own_trajectory_first(filled):
    for objective in SHOP + FORUM:
        found, score = filled.search(objective, k=3)[0]
        assert found.objective == objective and score == pytest.approx(1.0, abs=1e-4)
    results = filled.search("Sort the search results by price", k=10)
    assert len(results) == 5 and [s for _, s in results] == sorted((s for _, s in results), reverse=True)
    assert results[0][0].actions[0].target == "button 0" and results[0][0].span == (0, 0)


def test_search_within_videos(filled):
    results = filled.search("Sort the search results by price", k=5, video_ids=["forum"])
    assert {t.video_id for t, _ in results} == {"forum"} and len(results) == 2
    assert filled.search("anything", k=5, video_ids=["no-such-video"]) == []


def test_adding_a_video_again_replaces_its_entries(filled):
    filled.add_video("shop", [_trajectory("shop", 7, "Empty the cart")], source_key="k3")
    assert [t.objective for t in filled.trajectories("shop")] == ["Empty the cart"]
    assert len(filled) == 3 and filled.source_key("shop") == "k3"
    assert filled.videos() == ["shop", "forum"]  # first-added order is kept
    hits = [t.objective for t, _ in filled.search("Sort the search results by price", k=10)]
    assert "Sort the search results by price" not in hits and "Empty the cart" in hits


def test_the_index_reloads_from_disk_and_rebuilds_a_lost_faiss_file(filled, settings):
    expected = [(t.trajectory_id, round(s, 5)) for t, s in filled.search("Subscribe to a forum", k=5)]
    again = TrajectoryIndex.load(filled.folder, settings)
    assert [(t.trajectory_id, round(s, 5)) for t, s in again.search("Subscribe to a forum", k=5)] == expected
    assert again.video("shop").title == "Shop basics"
    (filled.folder / FAISS_NAME).unlink()
    rebuilt = TrajectoryIndex.load(filled.folder, settings)
    assert [(t.trajectory_id, round(s, 5)) for t, s in rebuilt.search("Subscribe to a forum", k=5)] == expected


def test_another_embedding_model_is_refused(filled, settings):
    settings.models.embedding.model = "another-model"
    other = TrajectoryIndex.load(filled.folder, settings)
    with pytest.raises(IndexMismatchError, match="built with embedding model openai:scripted-embedding"):
        other.search("Sort the search results by price")
    with pytest.raises(IndexMismatchError):
        other.add_video("shop", [_trajectory("shop", 0, "x")])
    assert len(other) == 5  # readable all the same (the gallery needs no embeddings)


def test_loading_a_folder_without_an_index_says_what_to_run(tmp_path, settings):
    with pytest.raises(UserError, match="run `process-videos` first"):
        TrajectoryIndex.load(tmp_path / "empty", settings)


def test_the_packaged_local_model_retrieves_by_meaning(tmp_path):
    """The default backend: a paraphrase of an objective finds it (loads all-MiniLM-L6-v2 once)."""
    settings = load_settings()
    settings.paths.cache_dir = tmp_path / "cache"
    index = TrajectoryIndex.open(tmp_path / "index", settings)
    index.add_video("shop", [_trajectory("shop", i, o) for i, o in enumerate(SHOP + FORUM)])
    found, _ = index.search("order the products from cheapest to most expensive", k=1)[0]
    assert found.objective == "Sort the search results by price"
    assert index.embedding_model == "local:all-MiniLM-L6-v2"
