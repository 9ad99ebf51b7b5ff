"""Which Chromium a run launches, and the line a missing one gives."""

from __future__ import annotations

import pytest

from foundation.browser import check_chromium
from foundation.errors import UserError
from settings.schema import BrowserSettings


def test_headless_runs_launch_the_headless_shell_and_headed_runs_the_full_browser() -> None:
    assert check_chromium(BrowserSettings()) == "/usr/bin/chromium-headless-shell"
    assert BrowserSettings(headless=False).launch_path == "/usr/bin/chromium"


@pytest.mark.parametrize(
    ("headless", "package", "setting"),
    [(True, "chromium-headless-shell", "browser.executable_path"), (False, "chromium", "browser.headed_executable_path")],
)
def test_a_missing_chromium_names_the_package_and_the_setting(tmp_path, headless, package, setting) -> None:
    missing = str(tmp_path / "no-chromium")
    settings = BrowserSettings(executable_path=missing, headed_executable_path=missing, headless=headless)
    with pytest.raises(UserError) as raised:
        check_chromium(settings)
    message = str(raised.value)
    assert missing in message and f"apt-get install {package}`" in message and setting in message
