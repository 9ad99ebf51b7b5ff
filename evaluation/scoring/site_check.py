"""Is each site a task set needs deployed and usable? Log in, run one read-only helper, one line per site.

Meant to be run (`videodemo tasks check PATH --sites-up`) before a long run, so a
wrong address, a changed password, a site whose pages no longer look as the
helpers expect or a missing reset token shows up in seconds instead of as
thousands of errored tasks. Nothing here changes a site: the helpers only read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from playwright.sync_api import Error as PlaywrightError

from foundation.errors import UserError
from evaluation.browser_env.auth import SITE_LOGINS, AuthStates, site_base_url, site_env_var
from evaluation.scoring.site_helpers import generic, gitlab, reddit, shopping
from evaluation.scoring.site_helpers.rest import SiteHelperError
from evaluation.scoring.site_resets import CLASSIFIEDS_TOKEN_VAR, SITE_RESETS, classifieds_reset_token
from settings import Settings

# A project every WebArena GitLab holds, with the benchmark's account as its owner.
GITLAB_PROBE_PROJECT = "byteblaze/a11yproject.com"
REDDIT_POSTS_TRIED = 5  # posts opened on the front page before the comment reader is declared broken
_POST_PATH = re.compile(r"^/f/[^/]+/\d+(/|$)")


class ProbeFailed(Exception):
    """The site answered but a helper could not read what it should; the message says what and the fix."""


@dataclass(frozen=True)
class SiteCheck:
    site: str
    ok: bool
    detail: str  # what was read, or what failed and how to fix it

    def line(self) -> str:
        return f"{self.site:<15} {'ok    ' if self.ok else 'FAILED'} {self.detail}"


@dataclass
class _Probe:
    page: Any
    base: str
    settings: Settings


def _open(probe: _Probe, path: str) -> None:
    probe.page.goto(probe.base + path, timeout=probe.settings.browser.navigation_timeout_ms)


def _shopping(probe: _Probe) -> str:
    order_url = shopping.shopping_get_latest_order_url(base_url=probe.base)
    return f"logged in; REST newest order: {order_url}"


def _shopping_admin(probe: _Probe) -> str:
    _open(probe, "/dashboard/")
    title = generic.get_query_text(probe.page, "h1.page-title").strip()
    if title != "Dashboard":
        raise ProbeFailed(
            f"the admin dashboard at {probe.page.url} shows no 'Dashboard' title (read {title!r}); "
            "check that SHOPPING_ADMIN is the admin URL (it ends in /admin)"
        )
    return "logged in; admin dashboard read"


def _reddit(probe: _Probe) -> str:
    _open(probe, "/")
    links = probe.page.evaluate("() => [...document.querySelectorAll('a[href]')].map((a) => a.href)")
    posts = list(dict.fromkeys(reddit.reddit_get_post_url(link) for link in links if _is_post(link, probe.base)))
    if not posts:
        raise ProbeFailed(f"the front page {probe.base}/ links to no post (/f/<forum>/<id>/); is REDDIT the forum?")
    for post in posts[:REDDIT_POSTS_TRIED]:
        probe.page.goto(post, timeout=probe.settings.browser.navigation_timeout_ms)
        tree = reddit.reddit_get_post_comment_tree(probe.page)
        if tree.get("children"):
            return f"logged in; comments of {post} read ({len(tree['children'])} top-level)"
    raise ProbeFailed(
        f"the comment reader found no comments on {len(posts[:REDDIT_POSTS_TRIED])} posts; the post pages do "
        "not have Postmill's structure (.comment[data-level], .vote__net-score, .comment__content)"
    )


def _is_post(link: str, base: str) -> bool:
    if not link.startswith(base + "/"):
        return False
    return bool(_POST_PATH.match(link[len(base) :]))


def _gitlab(probe: _Probe) -> str:
    account = SITE_LOGINS["gitlab"].username
    response = probe.page.request.get(probe.base + "/api/v4/user")
    user = response.json() if response.ok else {}
    if not isinstance(user, dict) or user.get("username") != account:
        raise ProbeFailed(
            f"GET {probe.base}/api/v4/user answered HTTP {response.status} without the user {account}; "
            "the saved login is not accepted by the API"
        )
    _open(probe, f"/{GITLAB_PROBE_PROJECT}/-/project_members")
    role = gitlab.gitlab_get_project_memeber_role(probe.page, account)
    if not role:
        raise ProbeFailed(
            f"no role of {account} read on {probe.page.url}; the project is missing or the members page "
            "has another structure than GitLab's (td[data-label='Account'], td.col-max-role)"
        )
    return f"logged in as {account}; member role on {GITLAB_PROBE_PROJECT}: {role}"


def _classifieds(probe: _Probe) -> str:
    _open(probe, "/index.php?page=user&action=items")
    if "My listings" not in generic.get_query_text(probe.page, "body"):
        raise ProbeFailed(f"{probe.page.url} shows no 'My listings'; is CLASSIFIEDS the classifieds site?")
    return "logged in; 'My listings' read"


def _public(probe: _Probe) -> str:
    _open(probe, "/")
    title = generic.get_query_text(probe.page, "title").strip()
    if not title:
        raise ProbeFailed(f"{probe.base}/ has no page title; is the address right?")
    return f"no login needed; front page: {title!r}"


PROBES: dict[str, Callable[[_Probe], str]] = {
    "shopping": _shopping,
    "shopping_admin": _shopping_admin,
    "reddit": _reddit,
    "gitlab": _gitlab,
    "classifieds": _classifieds,
    "map": _public,
    "wikipedia": _public,
}


def check_site(site: str, settings: Settings, browser, auth: AuthStates, resets_needed: int = 0) -> SiteCheck:
    """Log in to `site` (when it has a login) and run its read-only probe; never raises."""
    probe_fn = PROBES.get(site)
    if probe_fn is None:
        return SiteCheck(site, False, f"no check is known for this site (known: {', '.join(PROBES)})")
    try:
        base = site_base_url(site, settings)
    except UserError as exc:
        return SiteCheck(site, False, str(exc))
    token_problem = ""
    if resets_needed and site in SITE_RESETS and classifieds_reset_token() is None:
        token_problem = (
            f"{resets_needed} task{' needs' if resets_needed == 1 else 's need'} a reset but {CLASSIFIEDS_TOKEN_VAR} "
            f"is not set: export {CLASSIFIEDS_TOKEN_VAR}=<the token in the classifieds docker-compose.yml>"
        )
    env_var = site_env_var(site)
    context = None
    try:
        state = auth.storage_state([site]) if site in SITE_LOGINS else None
        context = browser.new_context(storage_state=state) if state else browser.new_context()
        page = context.new_page()
        page.set_default_timeout(settings.browser.action_timeout_ms)
        detail = probe_fn(_Probe(page, base, settings))
    except UserError as exc:
        return SiteCheck(site, False, str(exc))
    except (ProbeFailed, SiteHelperError) as exc:
        return SiteCheck(site, False, f"{exc} (site at {base}, from {env_var})")
    except PlaywrightError as exc:
        reason = str(exc).splitlines()[0]
        return SiteCheck(site, False, f"{base} did not answer as expected ({reason}); start it or fix {env_var}")
    finally:
        if context is not None:
            context.close()
    if token_problem:
        return SiteCheck(site, False, f"{token_problem} (login and reading work: {detail})")
    return SiteCheck(site, True, f"{detail} ({base})")


def check_sites(
    sites: list[str], settings: Settings, browser, resets_needed: dict[str, int] | None = None
) -> list[SiteCheck]:
    """One SiteCheck per site, in the order given; `resets_needed`: site -> tasks that need a reset of it."""
    auth = AuthStates(settings, browser)
    return [check_site(site, settings, browser, auth, (resets_needed or {}).get(site, 0)) for site in sites]
