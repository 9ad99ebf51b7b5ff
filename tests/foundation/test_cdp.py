"""CDP calls with a time limit: an unanswered request ends in an error instead of hanging the run, and a
screenshot that goes unanswered is asked for again."""

from __future__ import annotations

import time

import pytest

from foundation import cdp as cdp_calls

# A promise that never settles: Chromium holds the reply for good, as it once did for a screenshot.
NEVER_SETTLES = {"expression": "new Promise(() => {})", "awaitPromise": True}


def test_a_request_chromium_never_answers_ends_at_its_time_limit(page) -> None:
    session = page.context.new_cdp_session(page)
    started = time.monotonic()
    with pytest.raises(TimeoutError, match="did not answer Runtime.evaluate within 1 s"):
        cdp_calls.send_json(session, "Runtime.evaluate", NEVER_SETTLES, 1.0)
    assert time.monotonic() - started < 5
    assert cdp_calls.send_json(session, "Runtime.evaluate", {"expression": "6 * 7"}, 5.0)["result"]["value"] == 42
    assert cdp_calls.send_json(session, "Runtime.evaluate", {"expression": "6 * 7"})["result"]["value"] == 42


def test_an_unanswered_screenshot_is_asked_again_and_the_image_comes_back(page, monkeypatch) -> None:
    page.set_content("<h1>hello</h1>")
    session = page.context.new_cdp_session(page)
    real_send, asked, retried = cdp_calls.send_json, [], []

    def first_request_lost(cdp, method, params, timeout_s):
        asked.append(method)
        if len(asked) == 1:  # what a hung request looks like to the caller
            return real_send(cdp, "Runtime.evaluate", NEVER_SETTLES, 0.5)
        return real_send(cdp, method, params, timeout_s)

    monkeypatch.setattr(cdp_calls, "send_json", first_request_lost)
    png = cdp_calls.capture_screenshot(session, {"format": "png"}, on_retry=lambda: retried.append(True))
    assert png.startswith(b"\x89PNG") and asked == ["Page.captureScreenshot"] * 2 and retried == [True]


def test_a_screenshot_never_answered_says_so_after_its_tries(page, monkeypatch) -> None:
    session = page.context.new_cdp_session(page)
    real_send, asked = cdp_calls.send_json, []

    def every_request_lost(cdp, method, params, timeout_s):
        asked.append(method)
        return real_send(cdp, "Runtime.evaluate", NEVER_SETTLES, 0.3)

    monkeypatch.setattr(cdp_calls, "send_json", every_request_lost)
    with pytest.raises(cdp_calls.ScreenshotTimeout, match="did not answer a screenshot request"):
        cdp_calls.capture_screenshot(session, {"format": "png"})
    assert len(asked) == cdp_calls.SCREENSHOT_TRIES
