"""Every `func:` helper of the real configs against a local stand-in shaped like its real site."""

from __future__ import annotations

import pytest

from evaluation.browser_env.auth import AuthStates
from evaluation.scoring.site_helpers import HelperContext, SiteHelperError, call_helper
from evaluation.scoring.site_helpers import shopping


@pytest.fixture
def logged_in_page(site_env, site_settings, chromium):
    """page_for(site): a page in a context holding that site's saved login."""
    states = AuthStates(site_settings, chromium)
    contexts = []

    def page_for(site: str):
        context = chromium.new_context(storage_state=states.storage_state([site]))
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10000)
        return page

    yield page_for
    for context in contexts:
        context.close()


def _call(text: str, page, standins, last_url: str = "") -> object:
    return call_helper(text, HelperContext(page=page, last_url=last_url, base_url=lambda site: standins[site]))


# ---- shopping: REST, with the store admin's token ----


def test_newest_order_url_comes_from_the_rest_api_newest_first(site_env) -> None:
    # Orders 180, 187, 183: 187 is the newest by created_at; its zero-padded number becomes 187.
    url = _call("shopping_get_latest_order_url()", None, site_env)
    assert url == f"{site_env['shopping']}/sales/order/view/order_id/187/"


def test_newest_review_fields_of_a_sku(site_env) -> None:
    assert _call("shopping_get_sku_latest_review_author('B07X')", None, site_env) == "Emma Lopez"
    assert _call("shopping_get_sku_latest_review_rating('B07X')", None, site_env) == "80"
    assert _call("shopping_get_sku_latest_review_text('B07X')", None, site_env) == "Boils fast, quiet."
    assert _call("shopping_get_sku_latest_review_title('B07X')", None, site_env) == "Great kettle"
    assert _call("shopping_get_sku_latest_review_author('NONE')", None, site_env) == ""


def test_product_page_url_from_the_url_key_attribute(site_env) -> None:
    url = _call("shopping_get_sku_product_page_url('B07X')", None, site_env)
    assert url == f"{site_env['shopping']}/steel-kettle.html"
    with pytest.raises(SiteHelperError, match="HTTP 404"):
        _call("shopping_get_sku_product_page_url('NONE')", None, site_env)


def test_a_refused_admin_token_names_the_endpoint(site_env, monkeypatch) -> None:
    import dataclasses

    from evaluation.browser_env import auth

    refused = dataclasses.replace(auth.SITE_LOGINS["shopping_admin"], password="x")
    monkeypatch.setitem(auth.SITE_LOGINS, "shopping_admin", refused)
    with pytest.raises(SiteHelperError, match="integration/admin/token answered HTTP 401"):
        shopping.shopping_get_latest_order_url(base_url=site_env["shopping"])


# ---- shopping: page readers on the customer's order page and a product page ----


def test_order_page_readers(site_env, logged_in_page) -> None:
    page = logged_in_page("shopping")
    page.goto(_call("shopping_get_latest_order_url()", None, site_env))
    assert _call("shopping_get_order_product_quantity(__page__, 'B07X')", page, site_env) == 2
    assert _call("shopping_get_order_product_quantity(__page__, 'NONE |OR| T100')", page, site_env) == 1
    assert _call("shopping_get_order_product_quantity(__page__, 'NONE')", page, site_env) == 0
    assert _call("shopping_get_order_product_option(__page__, 'B07X', 'Color')", page, site_env) == "Silver"
    assert _call("shopping_get_order_product_option(__page__, 'B07X', 'Size')", page, site_env) == "1.7 L"
    # As in the reference, a name cell's text includes its option list.
    names = "Steel Kettle\nColor\nSilver\nSize\n1.7 L |OR| Tea Towel"
    assert _call("shopping_get_order_product_name_list(__page__)", page, site_env) == names
    items = _call("shopping_get_all_product_order(__page__)", page, site_env)
    assert [(item["sku"], item["qty"]) for item in items] == [("B07X", "Ordered2"), ("T100", "Ordered1")]


def test_product_page_readers(site_env, logged_in_page) -> None:
    page = logged_in_page("shopping")
    page.goto(f"{site_env['shopping']}/steel-kettle.html")
    assert _call("shopping_get_product_price(__page__)", page, site_env) == 24.99
    assert _call("shopping_get_num_reviews(__page__)", page, site_env) == 2
    assert _call("shopping_get_rating_as_percentage(__page__)", page, site_env) == 80
    weight = "shopping_get_product_attributes(__page__, 'item weight |OR| dimensions')"
    assert _call(weight, page, site_env) == "8 x 6 x 9 inches, 2.2 pounds"


# ---- reddit (Postmill) ----


def test_reddit_comment_readers_on_a_postmill_post(site_env, logged_in_page) -> None:
    page = logged_in_page("reddit")
    page.goto(f"{site_env['reddit']}/f/books/7/what-are-you-reading")
    last = page.url
    assert _call("reddit_get_post_url('__last_url__')", page, site_env, last) == f"{site_env['reddit']}/f/books/7/"
    newest = "reddit_get_latest_comment_content_by_username(__page__, 'MarvelsGrantMan136')"
    assert _call(newest, page, site_env) == "My newest top comment."
    parent = "reddit_get_parent_comment_username_of_latest_comment_by_username(__page__, 'bob')"
    assert _call(parent, page, site_env) == "Sarah_Lee"
    # A top-level comment answers the post: its "parent" is the root of the tree.
    tree = _call("reddit_get_post_comment_tree(__page__)", page, site_env)
    assert [child["username"] for child in tree["children"]] == ["Sarah_Lee", "MarvelsGrantMan136"]
    assert [child["net_score"] for child in tree["children"][0]["children"]] == [3, 1]


# ---- gitlab ----


def test_gitlab_member_role_on_the_members_page(site_env, logged_in_page) -> None:
    page = logged_in_page("gitlab")
    page.goto(f"{site_env['gitlab']}/byteblaze/a11yproject.com/-/project_members")
    assert _call("gitlab_get_project_memeber_role(__page__, 'byteblaze')", page, site_env) == "Owner"
    assert _call("gitlab_get_project_memeber_role(__page__, 'abisubramanya27')", page, site_env) == "Developer"
    assert _call("gitlab_get_project_memeber_role(__page__, 'nobody')", page, site_env) == ""


# ---- generic (classifieds, map, wikipedia configs use these) ----


def test_query_text_on_classifieds_and_public_sites(site_env, logged_in_page) -> None:
    page = logged_in_page("classifieds")
    page.goto(f"{site_env['classifieds']}/index.php?page=user&action=items")
    assert _call("get_query_text(__page__, 'h1')", page, site_env) == "My listings"
    assert _call("get_query_text_lowercase(__page__, 'li')", page, site_env) == "blue bike"
    assert _call("get_query_text(__page__, '.absent')", page, site_env) == ""
    page.goto(site_env["map"])
    assert _call("get_query_text(__page__, 'h1')", page, site_env) == "OpenStreetMap"
