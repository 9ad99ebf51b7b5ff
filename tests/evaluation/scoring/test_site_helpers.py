"""Site helpers against the sandbox (which mirrors the real sites' pages and REST API), and the
gitlab / generic page readers on pages shaped like the real ones."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from evaluation.scoring.site_helpers import HelperContext, call_helper
from evaluation.scoring.site_helpers.gitlab import gitlab_get_project_memeber_role
from evaluation.scoring.site_helpers.generic import get_query_text, get_query_text_lowercase
from evaluation.scoring.site_helpers.rest import SiteHelperError
from evaluation.scoring.site_helpers.shopping import (
    shopping_get_auth_token,
    shopping_get_product_attributes,
    shopping_get_rating_as_percentage,
    shopping_get_sku_latest_review_author,
    shopping_get_sku_latest_review_rating,
    shopping_get_sku_latest_review_text,
    shopping_get_sku_latest_review_title,
    shopping_get_sku_product_page_url,
)

from tests.evaluation.scoring.scoring_helpers import open_first_result, shop_sign_in


def test_review_helpers_read_the_newest_review_of_a_sku_after_one_is_posted(fresh_sandbox, page: Page) -> None:
    base = fresh_sandbox.shop_url
    shop_sign_in(page, base)
    sku = open_first_result(page, base, "yoga+leggings")
    older_author = shopping_get_sku_latest_review_author(sku, base_url=base)

    page.locator("label[for='Rating_4']").click()
    page.get_by_label("Nickname").fill("Emma L.")
    page.get_by_label("Summary").fill("Stays put on long runs")
    page.get_by_label("Review", exact=True).fill("The waistband never rolls down.")
    page.get_by_role("button", name="Submit Review").click()
    expect(page.get_by_role("status")).to_be_visible()

    assert shopping_get_sku_latest_review_author(sku, base_url=base) == "Emma L." != older_author
    assert shopping_get_sku_latest_review_title(sku, base_url=base) == "Stays put on long runs"
    assert shopping_get_sku_latest_review_text(sku, base_url=base) == "The waistband never rolls down."
    assert shopping_get_sku_latest_review_rating(sku, base_url=base) == "80"  # four stars, in percent


def test_product_page_url_and_unknown_sku(sandbox, page: Page) -> None:
    base = sandbox.shop_url
    sku = open_first_result(page, base, "yoga+leggings")
    assert shopping_get_sku_product_page_url(sku, base_url=base) == page.url
    with pytest.raises(SiteHelperError, match="404"):
        shopping_get_sku_latest_review_author("NO-SUCH-SKU", base_url=base)


def test_a_refused_admin_login_is_a_helper_error(sandbox) -> None:
    with pytest.raises(SiteHelperError, match="HTTP"):
        shopping_get_auth_token(base_url=sandbox.shop_url + "/no-such-prefix")


def test_product_page_readers(sandbox, page: Page) -> None:
    open_first_result(page, sandbox.shop_url, "yoga+leggings")
    rows = page.locator("#productDetails_detailBullets_sections1 tbody tr")
    label = rows.first.locator("th").inner_text()
    value = rows.first.locator("td").inner_text()
    assert shopping_get_product_attributes(page, label) == value
    assert shopping_get_product_attributes(page, f"no such attribute |OR| {label.lower()}") == value
    shown = page.locator(".product-reviews-summary .rating-result").get_attribute("title")
    assert shopping_get_rating_as_percentage(page) == float(shown.rstrip("%"))


def test_readers_give_empty_values_on_pages_without_their_element(sandbox, page: Page) -> None:
    page.goto(sandbox.shop_url + "/checkout/cart/")
    context = HelperContext(page=page, last_url=page.url, base_url=lambda site: sandbox.shop_url)
    assert call_helper("shopping_get_product_price(__page__)", context) == 0
    assert call_helper("shopping_get_order_product_quantity(__page__, 'X')", context) == 0
    assert call_helper("shopping_get_product_attributes(__page__, 'Color')", context) == ""
    assert call_helper("reddit_get_latest_comment_content_by_username(__page__, 'x')", context) == ""


GITLAB_MEMBERS = """
<table><tbody>
<tr><td data-label="Account"><span class="gl-avatar-labeled-sublabel">@byteblaze</span></td>
    <td class="col-max-role"><span>Owner</span></td></tr>
<tr><td data-label="Account"><span class="gl-avatar-labeled-sublabel">@abishek</span></td>
    <td class="col-max-role"><span>Developer</span></td></tr>
</tbody></table>
<h1 class="title">  Project <b>Members</b></h1>
"""


def test_gitlab_member_role_and_query_text_on_pages_shaped_like_the_real_ones(page: Page) -> None:
    page.set_content(GITLAB_MEMBERS)
    assert gitlab_get_project_memeber_role(page, "abishek") == "Developer"
    assert gitlab_get_project_memeber_role(page, "byteblaze") == "Owner"
    assert gitlab_get_project_memeber_role(page, "nobody") == ""
    assert get_query_text(page, "h1.title") == "  Project Members"
    assert get_query_text_lowercase(page, "h1.title") == "  project members"
    assert get_query_text(page, "#missing") == ""
    assert get_query_text(page, "h1[title='it's']") == ""  # a selector that does not parse reads as empty
