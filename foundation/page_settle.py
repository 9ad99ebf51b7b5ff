"""Waiting, briefly and boundedly, for a page to finish what an action started.

After an action a page may navigate (a link, a form submit) or fetch data (a
vote, a search suggestion). A `PageWatcher` follows a tab's requests through
Playwright events, so `settle` waits exactly as long as needed: a short grace
period for the action's requests to start, then until a started navigation has
loaded and the network is quiet, never longer than its bounds.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from playwright.sync_api import Error as PlaywrightError

# A navigation request answered without a new document (204, a download) never loads;
# this long after its answer with no commit, stop waiting for it.
_NO_COMMIT_GIVE_UP_S = 1.0


@dataclass(frozen=True)
class SettleLimits:
    grace_ms: int = 100  # time for an action's requests to start
    quiet_timeout_ms: int = 1500  # most spent waiting for other requests to finish
    navigation_timeout_ms: int = 30000  # most spent waiting for a started navigation to load
    poll_ms: int = 15


class PageWatcher:
    """Follows one tab's in-flight requests and main-frame navigations."""

    def __init__(self, page):
        self.page = page
        self.in_flight: set = set()
        self._navigation = None  # the main-frame document request of the pending navigation
        self._navigation_started = 0.0
        self._navigation_answered: float | None = None
        self._committed = False
        self._loaded = True
        page.on("request", self._on_request)
        page.on("requestfinished", self._on_request_done)
        page.on("requestfailed", self._on_request_done)
        page.on("framenavigated", self._on_frame_navigated)
        page.on("load", self._on_load)

    def _on_request(self, request) -> None:
        self.in_flight.add(request)
        try:
            is_main_navigation = request.is_navigation_request() and request.frame == self.page.main_frame
        except PlaywrightError:
            is_main_navigation = False
        if is_main_navigation:
            self._navigation = request
            self._navigation_started = time.monotonic()
            self._navigation_answered = None
            self._committed = False
            self._loaded = False

    def _on_request_done(self, request) -> None:
        self.in_flight.discard(request)
        if request is self._navigation:
            self._navigation_answered = time.monotonic()

    def _on_frame_navigated(self, frame) -> None:
        if frame == self.page.main_frame:
            self._committed = True
            # The old document's requests die with it and may never report back.
            self.in_flight = {request for request in self.in_flight if request is self._navigation}

    def _on_load(self, _page) -> None:
        self._loaded = True
        self._navigation = None

    def mark(self) -> None:
        """Forget what happened before an action, so `settle` only waits for what the action starts."""
        self._navigation = None
        self._loaded = True

    def _navigation_pending(self, now: float, limits: SettleLimits) -> bool:
        if self._navigation is None or self._loaded:
            return False
        if now - self._navigation_started > limits.navigation_timeout_ms / 1000:
            return False
        answered = self._navigation_answered
        return not (answered is not None and not self._committed and now - answered > _NO_COMMIT_GIVE_UP_S)

    def settle(self, limits: SettleLimits) -> None:
        """Wait until a navigation started since `mark` has loaded and requests are done (bounded)."""
        started = time.monotonic()
        grace_end = started + limits.grace_ms / 1000
        quiet_end = started + limits.quiet_timeout_ms / 1000
        while True:
            now = time.monotonic()
            if not self._navigation_pending(now, limits) and now >= grace_end:
                if not self.in_flight or now >= quiet_end:
                    return
            try:
                self.page.wait_for_timeout(limits.poll_ms)  # lets Playwright deliver the page's events
            except PlaywrightError:
                return  # the tab closed under us; nothing left to wait for
