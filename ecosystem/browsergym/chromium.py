"""BrowserGym on the system Chromium: nothing is downloaded, now or at run time.

BrowserGym launches two browsers per episode: the task's, which takes `pw_chromium_kwargs`, and the chat window's,
which takes none. Both go through BrowserGym's one global Playwright, so that object is wrapped once here to give
every launch our executable and flags (foundation/browser.py's settings) unless the caller named its own.
"""

from __future__ import annotations

from typing import Any

from foundation.browser import check_chromium
from settings import Settings


def chromium_kwargs(settings: Settings) -> dict[str, Any]:
    """BrowserGym's `pw_chromium_kwargs` for the system Chromium: the executable only, since BrowserGym refuses an
    `args` of the caller's (it passes its own); our flags join through the wrapped launch below."""
    return {"executable_path": check_chromium(settings.browser)}


class _SystemChromium:
    """Playwright's `chromium` with our executable and flags filled into every launch."""

    def __init__(self, browser_type: Any, settings: Settings) -> None:
        self._browser_type = browser_type
        self._settings = settings

    def launch(self, **kwargs: Any) -> Any:
        kwargs.setdefault("executable_path", self._settings.browser.launch_path)
        kwargs["args"] = list(kwargs.get("args") or []) + [
            flag for flag in self._settings.browser.args if flag not in (kwargs.get("args") or [])
        ]
        return self._browser_type.launch(**kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser_type, name)


class _Playwright:
    def __init__(self, playwright: Any, settings: Settings) -> None:
        self._playwright = playwright
        self.chromium = _SystemChromium(playwright.chromium, settings)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._playwright, name)


def use_system_chromium(settings: Settings) -> None:
    """Make every browser BrowserGym launches in this process the system Chromium (idempotent)."""
    import browsergym.core as core

    current = core._get_global_playwright()
    if not isinstance(current, _Playwright):
        chromium_kwargs(settings)  # a missing binary stops here, with the fix
        core._set_global_playwright(_Playwright(current, settings))
