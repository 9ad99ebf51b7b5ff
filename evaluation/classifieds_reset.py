"""Reset the real Classifieds site (VWA's OSClass) through its own reset endpoint, as the reference runner does.

The endpoint is `POST <CLASSIFIEDS>/index.php?page=reset` with form field `token`; the
token is the one the site was set up with, read from `CLASSIFIEDS_RESET_TOKEN`.
"""

from __future__ import annotations

import os

import requests

from cli.errors import UserError

TOKEN_ENV_VAR = "CLASSIFIEDS_RESET_TOKEN"
RESET_PATH = "/index.php?page=reset"
RESET_TIMEOUT_S = 120.0  # the site reloads its database; that takes a while on a loaded machine


def reset_classifieds(base_url: str) -> str:
    """Reset the site at `base_url`; returns a one-line message, raises UserError naming the fix."""
    token = os.environ.get(TOKEN_ENV_VAR, "").strip()
    if not token:
        raise UserError(
            f"cannot reset the classifieds site at {base_url}: {TOKEN_ENV_VAR} is not set; "
            "export the reset token the site was set up with"
        )
    url = base_url.rstrip("/") + RESET_PATH
    try:
        response = requests.post(url, data={"token": token}, timeout=RESET_TIMEOUT_S)
    except requests.RequestException as exc:
        raise UserError(f"resetting the classifieds site at {url} failed ({exc}); check that it runs") from None
    if response.status_code != 200:
        raise UserError(
            f"resetting the classifieds site at {url} answered HTTP {response.status_code}; "
            f"check {TOKEN_ENV_VAR} against the site's reset token"
        )
    return f"classifieds at {base_url} reset through its reset endpoint"
