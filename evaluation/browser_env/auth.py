"""Logged-in browser states: one Playwright storage-state file per site, made through the site's own form.

`<auth_dir>/<site>_state.json` holds the cookies of the benchmark's account on
that site (the accounts WebArena and VisualWebArena use). A state is reused
while it still opens a page only a logged-in user sees, and re-created by
logging in again when it does not (expired session, reset site, missing or
broken file). The same code logs in to the sandbox sites and to the real
self-hosted ones, whose forms the sandbox mirrors.

Which logins a task gets follows the reference runner: the sites named by the
file name of its `storage_state` (`./.auth/reddit_state.json` -> reddit,
`./.auth/classifieds.reddit_state.json` -> classifieds and reddit), see
`login_sites`; a task without a storage_state starts logged out, whatever its
`sites` and `require_login` say. Several logins go into one context in the order
the file name lists them. Sites that share a host (cookies ignore ports) and a
cookie name overwrite each other's session, the later one winning as when the
reference logs in to them one after the other in one browser; a warning says so.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import parse_qsl, urlparse

from playwright.sync_api import Error as PlaywrightError

from foundation.errors import UserError
from settings import Settings

logger = logging.getLogger(__name__)

FormFiller = Callable[[object, str, str], None]  # (page, username, password): fill the form and submit


def _shopping_form(page, username: str, password: str) -> None:
    page.get_by_label("Email", exact=True).fill(username)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_role("button", name="Sign In").click()


def _shopping_admin_form(page, username: str, password: str) -> None:
    page.get_by_placeholder("user name").fill(username)
    page.get_by_placeholder("password").fill(password)
    page.get_by_role("button", name="Sign in").click()


def _reddit_form(page, username: str, password: str) -> None:
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def _gitlab_form(page, username: str, password: str) -> None:
    page.get_by_test_id("username-field").fill(username)
    page.get_by_test_id("password-field").fill(password)
    page.get_by_test_id("sign-in-button").click()


def _classifieds_form(page, username: str, password: str) -> None:
    page.locator("#email").fill(username)
    page.locator("#password").fill(password)
    page.get_by_role("button", name="Log in").click()


@dataclass(frozen=True)
class SiteLogin:
    site: str  # VideoWA site key
    env_var: str  # base URL variable, as in the task configs
    username: str
    password: str
    login_path: str  # the login form, relative to the base URL
    check_path: str  # a page that only a logged-in user sees
    fill_form: FormFiller
    # The site shows its login form at the page asked for instead of redirecting to it (Magento admin).
    form_in_place: bool = False


# The benchmark's accounts (WebArena, VisualWebArena); the sandbox sites have the same ones.
SITE_LOGINS: dict[str, SiteLogin] = {
    login.site: login
    for login in (
        SiteLogin(
            "shopping", "SHOPPING", "emma.lopez@gmail.com", "Password.123",
            "/customer/account/login/", "/wishlist/", _shopping_form,
        ),
        SiteLogin(
            "shopping_admin", "SHOPPING_ADMIN", "admin", "admin1234",
            "", "/dashboard/", _shopping_admin_form, form_in_place=True,
        ),
        SiteLogin(
            "reddit", "REDDIT", "MarvelsGrantMan136", "test1234",
            "/login", "/user/MarvelsGrantMan136/account", _reddit_form,
        ),
        SiteLogin("gitlab", "GITLAB", "byteblaze", "hello1234", "/users/sign_in", "/-/profile", _gitlab_form),
        SiteLogin(
            "classifieds", "CLASSIFIEDS", "blake.sullivan@gmail.com", "Password.123",
            "/index.php?page=login", "/index.php?page=user&action=items", _classifieds_form,
        ),
    )
}  # fmt: skip


# Sites of the real configs that the benchmark never logs in to (public pages): their
# base-URL variable. Their tasks get no storage state for them.
NO_LOGIN_SITES: dict[str, str] = {"map": "MAP", "wikipedia": "WIKIPEDIA"}


def site_env_var(site: str) -> str:
    """The variable holding a site's base URL, as the task configs' placeholders name it."""
    login = SITE_LOGINS.get(site)
    return login.env_var if login else NO_LOGIN_SITES.get(site, site.upper())


def site_base_url(site: str, settings: Settings) -> str:
    """Base URL of a VideoWA site: the sandbox's when it plays that site, else the environment variable."""
    from tasks.sandbox.server import site_url
    from tasks.sandbox.sites import SITES

    for spec in SITES.values():
        if spec.stands_for == site:
            return site_url(spec, settings)
    env_var = site_env_var(site)
    value = os.environ.get(env_var, "").strip()
    if not value:
        raise UserError(f"no address for the {site} site: set the {env_var} environment variable to its base URL")
    return value.rstrip("/")


def login_sites(storage_state: str | None) -> list[str]:
    """The sites a task starts logged in to: those its storage_state file is named after, as the
    reference runner reads it (the name before the last `_`, split at dots); none without one."""
    if not storage_state:
        return []
    stem = Path(storage_state).name.rsplit("_", 1)[0]
    return [site for site in stem.split(".") if site]


class AuthStates:
    """Makes, checks and hands out the per-site storage states of one browser."""

    def __init__(self, settings: Settings, browser):
        self.settings = settings
        self.browser = browser
        self.folder = settings.paths.auth_dir
        self.logins_done = 0  # logins performed by this object (the rest were reused states)
        self._verified: dict[str, tuple[float, float]] = {}  # site -> (file mtime, when checked)

    def state_path(self, site: str) -> Path:
        return self.folder / f"{site}_state.json"

    def ensure(self, site: str, force: bool = False) -> Path:
        """A valid state file for `site`: the existing one if it still works, else a fresh login."""
        if site in NO_LOGIN_SITES:
            raise UserError(f"the {site} site has no login (its pages are public); give its tasks no storage state")
        if site not in SITE_LOGINS:
            raise UserError(f"no login is known for the {site} site; known: {', '.join(SITE_LOGINS)}")
        path = self.state_path(site)
        self.folder.mkdir(parents=True, exist_ok=True)
        with _file_lock(self.folder / f"{site}.lock"):
            if not force and self._still_valid(site, path):
                return path
            self._login(site, path)
        return path

    def storage_state(self, sites: list[str]) -> dict | None:
        """One storage state holding the sessions of every site in `sites` that has a login."""
        states = [(site, _read_state(self.ensure(site))) for site in sites if site in SITE_LOGINS]
        if not states:
            return None
        return merge_states([state for _, state in states if state is not None], [site for site, _ in states])

    def _still_valid(self, site: str, path: Path) -> bool:
        state = _read_state(path)
        if state is None:
            return False
        mtime = path.stat().st_mtime
        verified = self._verified.get(site)
        recheck_s = self.settings.browser.auth_recheck_s
        if verified and verified[0] == mtime and time.monotonic() - verified[1] < recheck_s:
            return True
        if self.is_logged_in(site, state):
            self._verified[site] = (mtime, time.monotonic())
            return True
        logger.info("the saved %s login no longer works; logging in again", site)
        return False

    def is_logged_in(self, site: str, state: dict | None) -> bool:
        """Open a page only a logged-in user sees; being sent to the login form means logged out."""
        login = SITE_LOGINS[site]
        base = site_base_url(site, self.settings)
        context = self.browser.new_context(storage_state=state) if state else self.browser.new_context()
        try:
            page = context.new_page()
            try:
                page.goto(base + login.check_path, timeout=self.settings.browser.navigation_timeout_ms)
            except PlaywrightError as exc:
                reason = str(exc).splitlines()[0]
                raise UserError(f"the {site} site at {base} does not answer ({reason}); start it") from None
            return not _shows_login_form(page, base + login.login_path, login.form_in_place)
        finally:
            context.close()

    def _login(self, site: str, path: Path) -> None:
        login = SITE_LOGINS[site]
        base = site_base_url(site, self.settings)
        timeout = self.settings.browser.navigation_timeout_ms
        context = self.browser.new_context()
        try:
            page = context.new_page()
            page.set_default_timeout(self.settings.browser.action_timeout_ms)
            try:
                page.goto(base + login.login_path, timeout=timeout)
                with page.expect_navigation(timeout=timeout):
                    login.fill_form(page, login.username, login.password)
            except PlaywrightError as exc:
                raise UserError(
                    f"logging in to {site} at {base + login.login_path} failed ({str(exc).splitlines()[0]}); "
                    "check that the site runs and shows its login form"
                ) from None
            state = context.storage_state()
        finally:
            context.close()
        self.logins_done += 1
        if not self.is_logged_in(site, state):
            raise UserError(
                f"logging in to {site} as {login.username} did not work (still asked to log in); "
                f"check the account on the site at {base}"
            )
        partial = path.with_suffix(".partial")
        partial.write_text(json.dumps(state, indent=1))
        partial.replace(path)
        self._verified[site] = (path.stat().st_mtime, time.monotonic())


def _shows_login_form(page, login_url: str, form_in_place: bool) -> bool:
    """Logged out: sent to the login page, or (on a site that shows its form in place) shown a password field."""
    if form_in_place:
        return page.locator("input[type=password]:visible").count() > 0
    login = urlparse(login_url)
    here = urlparse(page.url)
    # Magento appends the page asked for (`.../login/referer/<id>/`), so the login path is a prefix.
    on_login_path = here.path.rstrip("/").startswith(login.path.rstrip("/"))
    return on_login_path and set(parse_qsl(login.query)) <= set(parse_qsl(here.query))


def _read_state(path: Path) -> dict | None:
    try:
        state = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(state, dict) or not isinstance(state.get("cookies"), list):
        return None
    return state


def merge_states(states: list[dict], sites: list[str]) -> dict:
    """Cookies and local storage of several sites in one storage state (later sites win clashes)."""
    cookies: dict[tuple, dict] = {}
    origins: dict[str, dict] = {}
    for state in states:
        for cookie in state.get("cookies", []):
            key = (cookie.get("name"), cookie.get("domain"), cookie.get("path"))
            if key in cookies and cookies[key].get("value") != cookie.get("value"):
                logger.warning(
                    "sites %s share the cookie %r on %s: only one of their logins survives in one browser",
                    ", ".join(sites), key[0], key[1],
                )  # fmt: skip
            cookies[key] = cookie
        for origin in state.get("origins", []):
            origins[origin.get("origin", "")] = origin
    return {"cookies": list(cookies.values()), "origins": list(origins.values())}


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """Let one process at a time log in to a site (parallel workers share the state files)."""
    with open(path, "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
