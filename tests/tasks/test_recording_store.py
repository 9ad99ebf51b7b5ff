"""The per-user recordings store: a recording made once is copied, not recorded, by the next clone or session."""

from __future__ import annotations

import copy

import pytest

from tasks import recording_store
from tasks.labeler_recordings.heldout.recorder import record_all

NAME = "recipes-search"  # a short held-out recording


@pytest.fixture
def store(tmp_path, monkeypatch):
    folder = tmp_path / "store"
    monkeypatch.setenv(recording_store.ENV_VAR, str(folder))
    return folder


def _files(folder, name="clip"):
    return [folder / f"{name}.mp4", folder / f"{name}.actions.json"]


def test_a_kept_recording_is_fetched_whole_into_another_folder(store, tmp_path) -> None:
    made = _files(tmp_path / "a")
    made[0].parent.mkdir()
    made[0].write_bytes(b"\x00video")
    made[1].write_text('{"actions": []}')
    recording_store.keep("kind", "clip", "key1", made)
    wanted = _files(tmp_path / "b")
    assert recording_store.fetch("kind", "clip", "key1", wanted)
    assert [f.read_bytes() for f in wanted] == [f.read_bytes() for f in made]
    # Another key (a changed script, recorder or site address) is a miss, and writes nothing.
    elsewhere = _files(tmp_path / "c")
    assert not recording_store.fetch("kind", "clip", "key2", elsewhere)
    assert not any(f.exists() for f in elsewhere)


def test_an_entry_missing_a_file_is_a_miss(store, tmp_path) -> None:
    made = _files(tmp_path / "a")
    made[0].parent.mkdir()
    made[0].write_bytes(b"video")
    recording_store.keep("kind", "clip", "key", made[:1])
    assert not recording_store.fetch("kind", "clip", "key", _files(tmp_path / "b"))


def test_off_keeps_and_fetches_nothing(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(recording_store.ENV_VAR, "off")
    made = _files(tmp_path / "a", "x")[:1]
    made[0].parent.mkdir()
    made[0].write_bytes(b"video")
    recording_store.keep("kind", "x", "key", made)
    assert recording_store.store_root() is None
    assert not recording_store.fetch("kind", "x", "key", _files(tmp_path / "b", "x")[:1])


def test_a_second_cache_copies_the_recording_instead_of_recording_it(store, test_settings, tmp_path) -> None:
    first_lines: list[str] = []
    (first,) = record_all(test_settings, only=[NAME], report=first_lines.append)
    other = copy.deepcopy(test_settings)
    other.paths.cache_dir = tmp_path / "another-clone"
    second_lines: list[str] = []
    (second,) = record_all(other, only=[NAME], report=second_lines.append)
    assert second_lines == []  # nothing recorded
    assert second.video != first.video and second.video.read_bytes() == first.video.read_bytes()
    assert second.actions.read_text() == first.actions.read_text()
    # and it counts as current there: a third call neither records nor copies
    (again,) = record_all(other, only=[NAME], report=second_lines.append)
    assert second_lines == [] and again.video == second.video


def test_a_claim_waits_for_the_process_holding_it(store) -> None:
    import threading

    held, release, order = threading.Event(), threading.Event(), []

    def first() -> None:
        with recording_store.claim("kind", "clip", "key"):
            held.set()
            release.wait(10)
            order.append("first done")

    def second() -> None:
        with recording_store.claim("kind", "clip", "key"):
            order.append("second in")

    threads = [threading.Thread(target=first)]
    threads[0].start()
    assert held.wait(10)
    threads.append(threading.Thread(target=second))
    threads[1].start()
    threads[1].join(0.5)
    assert threads[1].is_alive() and order == []  # another key would not wait (below)
    with recording_store.claim("kind", "clip", "other-key"):
        pass
    release.set()
    for thread in threads:
        thread.join(10)
    assert order == ["first done", "second in"]


def test_a_tutorial_kept_by_the_claim_holder_is_copied_not_recorded(store, test_settings, monkeypatch) -> None:
    """Two workers that both miss a tutorial: the second waits on the first's claim, then copies what it kept."""
    import threading

    from tasks.sandbox.tutorials import recorder

    script = recorder.select_scripts(["shop_search_sort"])[0]
    key = recorder.store_key(script)
    recorded = []
    monkeypatch.setattr(recorder, "record_one", lambda *args: recorded.append(args))
    maker = recorder.TutorialFiles.of(test_settings.paths.cache_dir / "maker", script.name)
    made = [maker.video, maker.subtitles, maker.actions]
    maker.video.parent.mkdir(parents=True)
    for number, file in enumerate(made):
        file.write_bytes(f"file {number}".encode())
    held, results = threading.Event(), []
    folder = test_settings.paths.cache_dir / "waiter"

    def waiter() -> None:
        results.append(recorder._claim_or_record(test_settings, script, None, folder))

    with recording_store.claim(recorder.STORE_KIND, script.name, key):
        thread = threading.Thread(target=waiter)
        thread.start()
        thread.join(0.5)
        assert thread.is_alive()  # waiting on the claim
        recording_store.keep(recorder.STORE_KIND, script.name, key, made)
    thread.join(10)
    (result,) = results
    assert result.from_store and not recorded
    assert result.files.video.read_bytes() == b"file 0"
