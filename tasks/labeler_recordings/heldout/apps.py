"""Three small web apps (project tracker, recipe site, account settings), served as static pages.

They behave like real apps where it matters to a labeler: buttons tint on hover, saving
shows a spinner before the result, transient toasts appear and fade, links underline,
and the pages are long enough to scroll.
"""

from __future__ import annotations

from pathlib import Path

_PAGES = Path(__file__).resolve().parent / "pages"
NAMES = ("tracker", "recipes", "settings")


def page(name: str) -> str:
    """The app's whole page: the shared style and helpers (`pages/common.html`), then its own part."""
    parts = (_PAGES / "common.html", _PAGES / f"{name}.html")
    return "".join(path.read_text(encoding="utf-8") for path in parts)


def pages() -> dict[str, str]:
    """Every app's page by name, as the page server takes them."""
    return {name: page(name) for name in NAMES}
