"""Per-site login states: made through each sandbox site's own form, reused while valid, re-made when not."""

from __future__ import annotations

import dataclasses
import json

import pytest

from foundation.errors import UserError
from evaluation.browser_env import auth
from evaluation.browser_env.auth import AuthStates


@pytest.fixture
def states(env_settings, chromium, tmp_path):
    env_settings.paths.cache_dir = tmp_path  # a private auth folder for each test
    return lambda: AuthStates(env_settings, chromium)


def _wishlist_page_title(chromium, shop_url: str, state: dict) -> str:
    """Open the shop's wish list (members only) with a storage state; the title says where we landed."""
    context = chromium.new_context(storage_state=state)
    try:
        page = context.new_page()
        page.goto(f"{shop_url}/wishlist/")
        return page.title()
    finally:
        context.close()


def test_state_is_made_through_the_login_form_and_then_reused(sandbox, states, chromium) -> None:
    first = states()
    path = first.ensure("shopping")
    assert path.name == "shopping_state.json" and first.logins_done == 1
    state = json.loads(path.read_text())
    assert any(cookie["name"] == "shop_session" for cookie in state["cookies"])
    assert _wishlist_page_title(chromium, sandbox.shop_url, state) == "My Wish List"
    assert _wishlist_page_title(chromium, sandbox.shop_url, {"cookies": [], "origins": []}) == "Customer Login"

    written = path.stat().st_mtime_ns
    assert first.ensure("shopping") == path and first.logins_done == 1
    later = states()  # another worker, or a later run: checks the saved login against the site, keeps it
    assert later.ensure("shopping") == path
    assert later.logins_done == 0 and path.stat().st_mtime_ns == written


def test_forum_state_is_made_through_its_form(sandbox, states) -> None:
    made = states()
    state = json.loads(made.ensure("reddit").read_text())
    assert any(cookie["name"] == "forum_session" for cookie in state["cookies"])
    assert made.is_logged_in("reddit", state)
    assert not made.is_logged_in("reddit", None)


@pytest.mark.parametrize("damage", ["missing", "broken", "expired", "forged"])
def test_unusable_state_is_made_again(sandbox, states, damage: str) -> None:
    path = states().ensure("shopping")
    state = json.loads(path.read_text())
    if damage == "missing":
        path.unlink()
    elif damage == "broken":
        path.write_text("{not json")
    else:
        for cookie in state["cookies"]:
            if cookie["name"] == "shop_session":
                if damage == "expired":
                    cookie["expires"] = 1_000_000_000  # 2001: the browser drops it
                else:
                    cookie["value"] = "not-a-session-the-site-signed"
        path.write_text(json.dumps(state))

    again = states()
    assert again.ensure("shopping") == path
    assert again.logins_done == 1
    assert again.is_logged_in("shopping", json.loads(path.read_text()))


def test_merged_state_logs_in_to_every_site_of_a_task(sandbox, states) -> None:
    made = states()
    merged = made.storage_state(["shopping", "reddit", "wikipedia"])  # wikipedia has no login
    names = {cookie["name"] for cookie in merged["cookies"]}
    assert {"shop_session", "forum_session"} <= names
    assert made.is_logged_in("shopping", merged) and made.is_logged_in("reddit", merged)
    assert made.storage_state(["wikipedia"]) is None


def test_wrong_password_is_one_clear_error(sandbox, states, monkeypatch) -> None:
    wrong = dataclasses.replace(auth.SITE_LOGINS["shopping"], password="not-the-password")
    monkeypatch.setitem(auth.SITE_LOGINS, "shopping", wrong)
    with pytest.raises(UserError, match=r"logging in to shopping as emma\.lopez@gmail\.com did not work"):
        states().ensure("shopping")


def test_site_without_an_address_names_the_variable_to_set(states, monkeypatch) -> None:
    monkeypatch.delenv("GITLAB", raising=False)
    with pytest.raises(UserError, match="set the GITLAB environment variable"):
        states().ensure("gitlab")


@pytest.mark.parametrize(
    "storage_state, sites",
    [
        (None, []),
        ("", []),
        ("./.auth/reddit_state.json", ["reddit"]),
        ("./.auth/shopping_admin_state.json", ["shopping_admin"]),
        ("./.auth/classifieds.reddit_state.json", ["classifieds", "reddit"]),
        ("./.auth/gitlab.shopping_admin_state.json", ["gitlab", "shopping_admin"]),
    ],
)
def test_logins_are_the_sites_the_storage_state_is_named_after(storage_state, sites) -> None:
    assert auth.login_sites(storage_state) == sites
