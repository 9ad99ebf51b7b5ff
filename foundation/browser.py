"""Starting Chromium the way it works on these machines (Debian's build, offline flags)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from foundation.errors import UserError

if TYPE_CHECKING:  # the type only: the ground floor imports nothing above it when it runs
    from settings.schema import BrowserSettings


def launch_chromium(playwright, settings: "BrowserSettings"):
    """Launch Debian's Chromium through Playwright; a missing binary is one clear line."""
    if not Path(settings.executable_path).exists():
        raise UserError(
            f"Chromium not found at {settings.executable_path}; run `make test` once (it installs it), "
            "`apt-get install chromium`, or set browser.executable_path"
        )
    return playwright.chromium.launch(
        executable_path=settings.executable_path, args=list(settings.args), headless=settings.headless
    )
