"""Driving the sandbox sites the way a shopper or forum user would, to leave state for evaluators to read."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tasks.sandbox.sites import FORUM, SHOP

CUSTOMER = next(account for account in SHOP.accounts if account.role == "customer")
FORUM_USER = FORUM.accounts[0]


def shop_sign_in(page: Page, base: str) -> None:
    page.goto(base + "/customer/account/login/")
    page.get_by_label("Email").fill(CUSTOMER.username)
    page.get_by_label("Password").fill(CUSTOMER.password)
    page.get_by_role("button", name="Sign In").click()
    expect(page.get_by_role("link", name="Sign Out")).to_be_visible()


def open_first_result(page: Page, base: str, query: str) -> str:
    """Search and open the first product; returns its SKU."""
    page.goto(f"{base}/catalogsearch/result/?q={query}")
    page.locator(".product-item-link").first.click()
    expect(page.locator(".product.attribute.sku .value")).to_be_visible()
    return page.locator(".product.attribute.sku .value").inner_text().strip()


def place_order(page: Page, base: str, query: str, qty: int) -> tuple[str, str, dict[str, str]]:
    """Buy `qty` of the first search result (first choice of each option); (order number, SKU, options chosen)."""
    shop_sign_in(page, base)
    sku = open_first_result(page, base, query)
    chosen = {}
    for select in page.locator("select.super-attribute-select").all():
        label = page.locator(f"label[for='{select.get_attribute('id')}']").inner_text().strip()
        value = select.locator("option").nth(1).inner_text().strip()
        select.select_option(label=value)
        chosen[label] = value
    page.get_by_label("Qty").fill(str(qty))
    page.get_by_role("button", name="Add to Cart").click()
    expect(page.get_by_role("status")).to_contain_text("to your shopping cart")
    page.goto(base + "/checkout/")
    page.get_by_label(re.compile("Flat Rate")).check()
    page.get_by_role("button", name="Place Order").click()
    expect(page.locator("h1")).to_have_text("Thank you for your purchase!")
    number = re.search(r"Your order number is: (\d+)", page.locator(".checkout-success").inner_text()).group(1)
    return number, sku, chosen


def forum_log_in(page: Page, base: str) -> None:
    page.goto(base + "/login")
    page.get_by_label("Username").fill(FORUM_USER.username)
    page.get_by_label("Password").fill(FORUM_USER.password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def comment_author(comment) -> str:
    return comment.locator(".comment__info .fg-inherit").first.inner_text().strip()
