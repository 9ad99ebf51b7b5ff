"""The sandbox logs a browser context in through its own sites' login forms (used by the tutorial recorder)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from foundation.errors import UserError
from tasks.sandbox.login import log_in
from tasks.sandbox.sites import FORUM, SHOP
from tasks.sandbox.sites.base import Account


@pytest.mark.parametrize(
    ("spec", "members_page", "shows"),
    [(SHOP, "/customer/account/", "emma.lopez@gmail.com"), (FORUM, "/user/MarvelsGrantMan136/account", "Email")],
)
def test_a_logged_in_context_opens_a_members_only_page(sandbox, chromium, spec, members_page, shows) -> None:
    base = sandbox.shop_url if spec is SHOP else sandbox.forum_url
    context = chromium.new_context()
    try:
        log_in(context, spec, base)
        page = context.new_page()
        page.goto(base + members_page)
        assert "login" not in page.url
        assert shows in page.content()
    finally:
        context.close()


def test_a_wrong_password_is_one_line_naming_the_site(sandbox, chromium) -> None:
    wrong = replace(SHOP, accounts=(Account(username="emma.lopez@gmail.com", password="not-it"),))
    context = chromium.new_context()
    try:
        with pytest.raises(UserError, match="logging in to the sandbox shop as emma.lopez@gmail.com failed"):
            log_in(context, wrong, sandbox.shop_url)
    finally:
        context.close()
