"""HTTP calls made by site helpers, failing with one line that names the site, the call and the cause."""

from __future__ import annotations

from typing import Any

import requests

TIMEOUT_S = 30.0


class SiteHelperError(Exception):
    """A helper could not read the site (down, refused the login, answered something unexpected).

    The evaluation of that task is then an error, not a 0: the agent's work was never looked at.
    """


def request_json(method: str, url: str, *, timeout_s: float = TIMEOUT_S, **kwargs: Any) -> Any:
    try:
        response = requests.request(method, url, timeout=timeout_s, **kwargs)
    except requests.RequestException as exc:
        raise SiteHelperError(f"{method} {url} failed ({type(exc).__name__}); check that the site runs") from None
    if response.status_code != 200:
        detail = " ".join(response.text.split())[:200]
        raise SiteHelperError(f"{method} {url} answered HTTP {response.status_code}: {detail}")
    try:
        return response.json()
    except ValueError:
        raise SiteHelperError(f"{method} {url} did not answer JSON: {response.text[:200]!r}") from None
