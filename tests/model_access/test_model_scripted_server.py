"""The scripted OpenAI-compatible server, spoken to by the real openai client."""

from __future__ import annotations

import json

import openai
import pytest
import requests

from foundation.errors import UserError
from model_access.scripted_server import load_script


def _client(server) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.base_url, api_key="sk-test-1234", max_retries=0)


def _ask(client: openai.OpenAI, *messages: dict) -> openai.types.chat.ChatCompletion:
    return client.chat.completions.create(model="whatever", messages=list(messages))


def test_rules_then_ordered_replies_then_default(scripted):
    server = scripted(
        {
            "rules": [
                {"contains": "Label the actions", "reply": "labels"},
                {"regex": r"objective #\d+", "reply": "objective", "times": 1},
                {"contains": "question", "search": "last_user", "reply": "from the last user turn"},
            ],
            "replies": ["first", "second"],
            "default": "fallback",
        }
    )
    client = _client(server)
    user = lambda text: {"role": "user", "content": text}  # noqa: E731
    answers = [
        _ask(client, {"role": "system", "content": "Label the actions."}, user("frames")),
        _ask(client, user("objective #12")),
        _ask(client, user("objective #13")),  # the regex rule is used up
        _ask(client, {"role": "system", "content": "a question"}, user("hello")),  # system text is not searched
        _ask(client, user("a question for you")),
        _ask(client, user("anything")),
    ]
    assert [a.choices[0].message.content for a in answers] == [
        "labels",
        "objective",
        "first",
        "second",
        "from the last user turn",
        "fallback",
    ]
    answered_by = [r["answered_by"] for r in server.requests()]
    assert answered_by == ["rule 1", "rule 2", "reply 1", "reply 2", "rule 3", "default"]


def test_every_reply_says_it_is_scripted(scripted):
    server = scripted({"name": "demo", "default": "hi there"})
    reply = _ask(_client(server), {"role": "user", "content": "one two three"})
    assert reply.model == "scripted/demo" and reply.system_fingerprint == "scripted"
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens) == (3, 2)
    raw = requests.get(server.base_url + "/models", timeout=5)
    assert raw.headers["X-Scripted"] == "true"
    assert raw.json()["data"][0]["id"] == "scripted/demo"


def test_exhausted_script_is_a_clear_error(scripted):
    server = scripted(["only one"])
    client = _client(server)
    _ask(client, {"role": "user", "content": "a"})
    with pytest.raises(openai.BadRequestError, match="script exhausted after 1 replies"):
        _ask(client, {"role": "user", "content": "b"})


def test_log_keeps_bodies_masks_keys_and_writes_jsonl(scripted, tmp_path):
    log_file = tmp_path / "requests.jsonl"
    server = scripted({"default": "ok"}, log_path=log_file)
    _ask(_client(server), {"role": "user", "content": "remember me"})
    (entry,) = server.requests()
    assert entry["body"]["messages"] == [{"role": "user", "content": "remember me"}]
    assert entry["headers"]["authorization"] == "Bearer ...1234"
    (line,) = log_file.read_text().splitlines()
    assert json.loads(line)["body"]["messages"][0]["content"] == "remember me"
    assert json.loads(line)["status"] == 200


def test_script_files_and_their_mistakes(tmp_path):
    good = tmp_path / "script.yaml"
    good.write_text("name: demo\nreplies:\n  - hello\n  - {status: 500, times: 2}\n")
    script = load_script(good)
    assert [e.status for e in script.replies] == [200, 500, 500]

    with pytest.raises(UserError, match="not found"):
        load_script(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    for text, message in [
        ("replies: [1, 2\n", "not valid YAML"),
        ("rules:\n  - reply: x\n", "needs `contains` or `regex`"),
        ("replies:\n  - {text: x}\n", "unknown keys"),
        ("rules:\n  - {regex: '(', reply: x}\n", "invalid regex"),
        ("colour: red\n", "unknown keys"),
    ]:
        bad.write_text(text)
        with pytest.raises(UserError, match=message):
            load_script(bad)


USER = {"role": "user", "content": "hello"}


def test_a_held_reply_comes_at_once_when_the_test_releases_it_and_holds_again_after(scripted):
    import threading
    import time

    server = scripted({"default": {"reply": "late", "delay_s": 60}})
    answers: list[str] = []
    asking = threading.Thread(target=lambda: answers.append(_ask(_client(server), USER).choices[0].message.content))
    started = time.monotonic()
    asking.start()
    while not server.requests():
        time.sleep(0.01)
    time.sleep(0.2)
    assert answers == []  # held back
    server.release_delays()
    asking.join(timeout=10)
    assert answers == ["late"] and time.monotonic() - started < 10
    server.hold_delays()
    with pytest.raises(openai.APITimeoutError):  # held again: the reply does not come within the client's wait
        _client(server).with_options(timeout=0.5).chat.completions.create(model="m", messages=[USER])
    server.release_delays()  # the held handler ends before the server stops
