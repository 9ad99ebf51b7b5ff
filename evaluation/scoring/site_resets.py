"""Resetting a real self-hosted site to its initial state, where the benchmark offers a way.

Only the VisualWebArena classifieds site has one: `POST <CLASSIFIEDS>/index.php?page=reset`
with the form field `token` set to the site's reset token (its docker-compose file sets
it; VisualWebArena reads it from `CLASSIFIEDS_RESET_TOKEN`). The other real sites are
reset by restarting their containers, which this tool cannot do; the sandbox sites have
their own reset (tasks/sandbox/server.py).
"""

from __future__ import annotations

import os
from typing import Callable

import requests

from foundation.errors import UserError
from settings import Settings

CLASSIFIEDS_RESET_PATH = "/index.php?page=reset"
CLASSIFIEDS_TOKEN_VAR = "CLASSIFIEDS_RESET_TOKEN"
RESET_TIMEOUT_S = 120.0  # the site re-imports its database before answering


def classifieds_reset_token() -> str | None:
    return os.environ.get(CLASSIFIEDS_TOKEN_VAR, "").strip() or None


def reset_classifieds(base_url: str, token: str | None = None, *, timeout_s: float = RESET_TIMEOUT_S) -> str:
    """Reset the classifieds site at `base_url`; one line saying so, or UserError with the fix."""
    token = token or classifieds_reset_token()
    if not token:
        raise UserError(
            f"resetting classifieds needs its reset token: export {CLASSIFIEDS_TOKEN_VAR}=<the token in the "
            "classifieds docker-compose.yml>"
        )
    url = base_url.rstrip("/") + CLASSIFIEDS_RESET_PATH
    try:
        response = requests.post(url, data={"token": token}, timeout=timeout_s)
    except requests.RequestException as exc:
        raise UserError(f"resetting classifieds at {url} failed ({type(exc).__name__}); check that it runs") from None
    if response.status_code != 200:
        raise UserError(
            f"resetting classifieds at {url} answered HTTP {response.status_code}; "
            f"check {CLASSIFIEDS_TOKEN_VAR} against the site's reset token"
        )
    return f"classifieds reset ({url})"


# Site -> reset function taking the base URL.
SITE_RESETS: dict[str, Callable[[str], str]] = {"classifieds": reset_classifieds}


def reset_site(site: str, settings: Settings) -> str:
    """Reset one real site that has a reset path; UserError naming the fix when it cannot."""
    from evaluation.browser_env.auth import site_base_url

    reset = SITE_RESETS.get(site)
    if reset is None:
        raise UserError(f"the {site} site has no reset path; restart its container to reset it")
    return reset(site_base_url(site, settings))
