"""Chrome DevTools Protocol calls with a time limit and without Playwright's walk over their replies, and
screenshots that are asked for again when Chromium leaves a request unanswered.

Playwright's sync `CDPSession.send` walks every value of a reply to swap its internal objects for API ones;
a protocol reply is plain JSON with none, and on a page of ~1,000 nodes that walk costs about as much as
Chromium's own work (0.05 s of 0.10 s per tree on 2 cores, measured). `send_json` skips it: same call, same
reply. The browser environment sends every CDP call through it, small replies too, for the time limit below.

Playwright waits for a CDP reply with no time limit, and `Page.captureScreenshot` taken while a navigation
commits can go unanswered for good: a tutorial recording hung that way in the middle of a test run (2026-11-28,
after a sort select reloaded the page). `capture_screenshot` asks again when a reply does not come in time;
`send_json` gives up after REPLY_WAIT_S with a TimeoutError, which a run records as the task's error.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import inspect
from typing import Any

# A screenshot takes well under a second, a few on a loaded 2-core machine; a reply later than this is lost.
SCREENSHOT_WAIT_S = 20.0
SCREENSHOT_TRIES = 3
# The longest reply, the accessibility tree or DOM snapshot of a large page, takes a second or two; a reply not back
# after this never comes.
REPLY_WAIT_S = 120.0


class ScreenshotTimeout(RuntimeError):
    """Chromium did not answer a screenshot request, asked SCREENSHOT_TRIES times."""


def send_json(cdp: Any, method: str, params: dict[str, Any] | None = None,
              timeout_s: float = REPLY_WAIT_S) -> dict[str, Any]:  # fmt: skip
    """`cdp.send(method, params)` without the conversion of its reply (see the module's docstring); TimeoutError
    naming the call when Chromium does not answer within `timeout_s`."""
    impl = getattr(cdp, "_impl_obj", None)
    if impl is None or not hasattr(cdp, "_sync"):  # a test double, or a Playwright without this internal API
        return cdp.send(method, params or {})
    try:
        return cdp._sync(asyncio.wait_for(_impl_send(impl, method, params), timeout_s))
    except TimeoutError as error:
        raise TimeoutError(f"Chromium did not answer {method} within {timeout_s:g} s") from error


@functools.cache
def _send_takes_timeout(send_function: Any) -> bool:
    """Newer Playwright releases give their internal send a `timeout` (None for none); asked once per release."""
    return "timeout" in inspect.signature(send_function).parameters


def _impl_send(impl: Any, method: str, params: dict[str, Any] | None) -> Any:
    """The coroutine of Playwright's own send."""
    if _send_takes_timeout(type(impl).send):
        return impl.send(method=method, params=params or {}, timeout=None)
    return impl.send(method=method, params=params or {})


def capture_screenshot(cdp: Any, params: dict[str, Any], on_retry: Any = None) -> bytes:
    """The decoded image of `Page.captureScreenshot` with `params`, asking again (after `on_retry()`, e.g. a wait
    for the page's load) when Chromium leaves a request unanswered; ScreenshotTimeout after SCREENSHOT_TRIES."""
    for attempt in range(SCREENSHOT_TRIES):
        if attempt and on_retry is not None:
            on_retry()
        try:
            return base64.b64decode(send_json(cdp, "Page.captureScreenshot", params, SCREENSHOT_WAIT_S)["data"])
        except TimeoutError:
            continue
    raise ScreenshotTimeout(
        f"Chromium did not answer a screenshot request in {SCREENSHOT_WAIT_S:.0f} s, {SCREENSHOT_TRIES} times; "
        "the page's renderer may be stuck (see the browser's log)"
    )
