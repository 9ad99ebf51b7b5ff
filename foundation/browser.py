"""Starting Chromium the way it works on these machines (Debian's build, offline flags)."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, Sequence

from foundation.errors import UserError


class ChromiumOptions(Protocol):
    """What the launch reads (settings.schema.BrowserSettings has it); named here so the ground floor
    refers to no floor above it, not even for types."""

    executable_path: str
    args: Sequence[str]
    headless: bool


def launch_chromium(playwright, settings: ChromiumOptions):
    """Launch Debian's Chromium through Playwright; a missing binary is one clear line."""
    if not Path(settings.executable_path).exists():
        raise UserError(
            f"Chromium not found at {settings.executable_path}; run `make test` once (it installs it), "
            "`apt-get install chromium`, or set browser.executable_path"
        )
    return playwright.chromium.launch(
        executable_path=settings.executable_path, args=list(settings.args), headless=settings.headless
    )
