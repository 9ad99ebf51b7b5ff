"""The disk cache: stable keys, and no corruption under concurrent writers from several processes."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

from model_access.cache import DiskCache, request_key
from model_access.messages import messages_for_key, user_message


def test_key_ignores_dict_order_but_not_content():
    a = request_key({"model": "m", "temperature": 0.0, "messages": [{"role": "user", "content": "x"}]})
    b = request_key({"messages": [{"content": "x", "role": "user"}], "temperature": 0.0, "model": "m"})
    c = request_key({"model": "m", "temperature": 0.1, "messages": [{"role": "user", "content": "x"}]})
    assert a == b != c


def test_images_enter_the_key_by_digest_not_bytes():
    message = user_message("look", [b"\x89PNG\r\n\x1a\n" + b"\x00" * 5000])
    keyed = messages_for_key([message])
    url = keyed[0]["content"][1]["image_url"]["url"]
    assert url.startswith("sha256:") and len(url) == len("sha256:") + 64
    assert message["content"][1]["image_url"]["url"].startswith("data:image/png;base64,")  # the original is untouched


def test_unreadable_entry_is_a_miss_and_gets_rewritten(tmp_path):
    cache = DiskCache(tmp_path)
    key = request_key({"q": 1})
    cache.put(key, {"reply": {"text": "first"}})
    cache.path_for(key).write_text('{"reply": {"te')  # e.g. a disk that filled up mid-write by another tool
    assert cache.get(key) is None
    cache.put(key, {"reply": {"text": "second"}})
    assert cache.get(key) == {"reply": {"text": "second"}}


SHARED_KEYS = 20
PADDING = "x" * 100_000  # large entries widen the window in which a non-atomic write would be seen half-done


def _writer(root: str, worker: int, rounds: int) -> None:
    cache = DiskCache(Path(root))
    for round_number in range(rounds):
        for i in range(SHARED_KEYS):
            # Every writer keeps rewriting the same answer for the shared keys, plus keys of its own.
            cache.put(request_key({"shared": i}), {"reply": {"text": f"shared {i}", "padding": PADDING}})
            cache.put(request_key({"worker": worker, "i": i}), {"reply": {"text": f"worker {worker} item {i}"}})


def _reader(root: str, done, problems) -> None:
    cache = DiskCache(Path(root))
    paths = [cache.path_for(request_key({"shared": i})) for i in range(SHARED_KEYS)]
    while not done.is_set():
        for i, path in enumerate(paths):
            try:
                text = path.read_text()
            except FileNotFoundError:
                continue  # not written yet: fine
            try:
                entry = json.loads(text)
            except ValueError:
                problems.put(f"half-written file for shared key {i} ({len(text)} bytes)")
                return
            if entry["reply"] != {"text": f"shared {i}", "padding": PADDING}:
                problems.put(f"wrong content for shared key {i}")
                return


def test_concurrent_writers_in_several_processes_do_not_corrupt(tmp_path):
    writers, rounds = 3, 5
    context = multiprocessing.get_context("spawn")
    done, problems = context.Event(), context.Queue()
    reader = context.Process(target=_reader, args=(str(tmp_path), done, problems))
    reader.start()
    processes = [context.Process(target=_writer, args=(str(tmp_path), w, rounds)) for w in range(writers)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=120)
    done.set()
    reader.join(timeout=30)
    assert [p.exitcode for p in processes] == [0] * writers
    assert reader.exitcode == 0
    assert problems.empty(), problems.get()

    cache = DiskCache(tmp_path)
    assert len(cache) == SHARED_KEYS + writers * SHARED_KEYS
    assert not list(tmp_path.glob("??/.tmp-*")), "temporary files were left behind"
    for i in range(SHARED_KEYS):
        assert cache.get(request_key({"shared": i}))["reply"]["text"] == f"shared {i}"
        for w in range(writers):
            assert cache.get(request_key({"worker": w, "i": i}))["reply"]["text"] == f"worker {w} item {i}"
