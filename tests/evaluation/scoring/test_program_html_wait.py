"""program_html's fixed wait (browser.program_html_wait_s, 3 s in the videowa preset): a page that fills
itself in late, with no network traffic to wait for, is read as the reference reads it."""

from __future__ import annotations

from urllib.parse import quote

from playwright.sync_api import Page

from evaluation.scoring.program_html import program_html_details

LATE_PAGE = "data:text/html," + quote(
    "<title>late</title><body><p id=status>loading</p>"
    "<script>setTimeout(() => { document.getElementById('status').textContent = 'pipeline passed'; }, 1200)</script>"
)


def _passed(page: Page, base_url, fixed_wait_ms: int) -> bool:
    entry = {
        "url": LATE_PAGE,
        "locator": "document.querySelector('#status').textContent",
        "required_contents": {"must_include": ["pipeline passed"]},
    }
    (result,) = program_html_details(
        [entry], page, final_url="about:blank", base_url=base_url, fixed_wait_ms=fixed_wait_ms
    )
    return result.passed


def test_a_fixed_wait_reads_what_renders_late_and_network_idle_does_not(page: Page, base_url) -> None:
    assert not _passed(page, base_url, fixed_wait_ms=0)  # network idle comes before the text does
    assert _passed(page, base_url, fixed_wait_ms=2000)
