"""Each real site's login, made through a local stand-in of its real form, and the sites without one."""

from __future__ import annotations

import dataclasses
import json

import pytest

from foundation.errors import UserError
from evaluation.browser_env import auth
from evaluation.browser_env.auth import NO_LOGIN_SITES, SITE_LOGINS, AuthStates, site_base_url, site_env_var

LOGIN_SITES = ["shopping", "shopping_admin", "reddit", "gitlab", "classifieds"]
# The cookie each stand-in keeps its session in (the real sites' names).
SESSION_COOKIES = {
    "shopping": "PHPSESSID", "shopping_admin": "PHPSESSID", "reddit": "PHPSESSID",
    "gitlab": "_gitlab_session", "classifieds": "osclass",
}  # fmt: skip


@pytest.mark.parametrize("site", LOGIN_SITES)
def test_login_through_the_real_form_makes_a_state_that_opens_members_pages(site, site_env, site_settings, chromium):
    states = AuthStates(site_settings, chromium)
    path = states.ensure(site)
    assert path.name == f"{site}_state.json" and states.logins_done == 1
    state = json.loads(path.read_text())
    assert any(cookie["name"] == SESSION_COOKIES[site] for cookie in state["cookies"])
    assert states.is_logged_in(site, state)
    assert not states.is_logged_in(site, None)
    # A later process checks the saved state against the site and keeps it.
    later = AuthStates(site_settings, chromium)
    assert later.ensure(site) == path and later.logins_done == 0


@pytest.mark.parametrize("site", LOGIN_SITES)
def test_a_refused_password_is_one_line_naming_the_account(site, site_env, site_settings, chromium, monkeypatch):
    wrong = dataclasses.replace(SITE_LOGINS[site], password="not-the-password")
    monkeypatch.setitem(auth.SITE_LOGINS, site, wrong)
    with pytest.raises(UserError, match=f"logging in to {site} as {wrong.username} did not work"):
        AuthStates(site_settings, chromium).ensure(site)


@pytest.mark.parametrize("site", ["map", "wikipedia"])
def test_sites_without_login_get_no_state_and_their_own_variable(site, site_env, site_settings, chromium):
    assert site_env_var(site) == NO_LOGIN_SITES[site] == site.upper()
    assert site_base_url(site, site_settings) == site_env[site]
    states = AuthStates(site_settings, chromium)
    assert states.storage_state([site]) is None
    with pytest.raises(UserError, match="has no login"):
        states.ensure(site)


def test_a_missing_base_url_variable_names_it(site_settings, monkeypatch):
    monkeypatch.delenv("GITLAB", raising=False)
    with pytest.raises(UserError, match="set the GITLAB environment variable"):
        site_base_url("gitlab", site_settings)


def test_an_unreachable_site_says_to_start_it(site_settings, chromium, monkeypatch):
    from tests.conftest import free_port

    monkeypatch.setenv("GITLAB", f"http://127.0.0.1:{free_port()}")
    with pytest.raises(UserError, match="ERR_CONNECTION_REFUSED.*check that the site runs"):
        AuthStates(site_settings, chromium).ensure("gitlab")
