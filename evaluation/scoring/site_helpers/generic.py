"""Helpers that work on any site: the text of the element a CSS selector finds."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Error as PlaywrightError

_QUERY_TEXT_JS = """(selector) => {
  try { return document.querySelector(selector).textContent; } catch (e) { return ''; }
}"""


def evaluate_or(page: Any, script: str, default: Any, arg: Any = None) -> Any:
    """Run `script` (a JS function) in the page; `default` when the page cannot run it.

    The reference's page readers treat a page where the element is missing like a page
    with the wrong content, so they give an empty value rather than an error.
    """
    try:
        return page.evaluate(script, arg)
    except PlaywrightError:
        return default


def get_query_text(page: Any, selector: str) -> str:
    """`textContent` of the first element matching `selector` (case kept); "" when none matches."""
    result = evaluate_or(page, _QUERY_TEXT_JS, "", selector)
    return result if isinstance(result, str) else ""


def get_query_text_lowercase(page: Any, selector: str) -> str:
    return get_query_text(page, selector).lower()
