"""Log a browser context in to a sandbox site by posting its own login form.

The sandbox knows its sites' forms (they are its own servers), so recording a
tutorial that starts logged in needs nothing from the evaluation harness, whose
logins (evaluation/browser_env/auth.py) fill the real sites' forms through the page.
"""

from __future__ import annotations

from foundation.errors import UserError
from tasks.sandbox.sites.base import SiteSpec


def log_in(context, spec: SiteSpec, base_url: str) -> None:
    """Post the site's login form with its first account; the context keeps the session cookie."""
    if spec.login_form is None or not spec.accounts:
        raise UserError(f"the sandbox {spec.name} has no login form or account; the tutorial cannot start logged in")
    form, account = spec.login_form, spec.accounts[0]
    response = context.request.post(
        base_url + form.post_path,
        form={form.username_field: account.username, form.password_field: account.password},
        max_redirects=0,
    )
    # Both sites answer a good login with a redirect away from the form and a bad one with a redirect back to it.
    location = response.headers.get("location", "")
    if response.status not in (302, 303) or "login" in location:
        raise UserError(
            f"logging in to the sandbox {spec.name} as {account.username} failed (HTTP {response.status}, "
            f"sent to {location or 'nowhere'}); run `videodemo sandbox reset`"
        )
