"""Starting Chromium the way it works on these machines (Debian's build, offline flags)."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, Sequence

from foundation.errors import UserError


class ChromiumOptions(Protocol):
    """What the launch reads (settings.schema.BrowserSettings has it); named here so the ground floor
    refers to no floor above it, not even for types."""

    launch_path: str  # the executable for this mode: the headless shell, or full Chromium when headed
    args: Sequence[str]
    headless: bool


def launch_chromium(playwright, settings: ChromiumOptions):
    """Launch Debian's Chromium through Playwright; a missing binary is one clear line."""
    check_chromium(settings)
    return playwright.chromium.launch(
        executable_path=settings.launch_path, args=list(settings.args), headless=settings.headless
    )


def check_chromium(settings: ChromiumOptions) -> str:
    """The executable this mode launches, or one line on how to get it."""
    path = settings.launch_path
    if not Path(path).exists():
        package, setting = (
            ("chromium-headless-shell", "browser.executable_path")
            if settings.headless
            else ("chromium", "browser.headed_executable_path")
        )
        raise UserError(
            f"Chromium not found at {path}; run `make test` once (it installs it), "
            f"`apt-get install {package}`, or set {setting}"
        )
    return path
