"""The sandbox shop, used the way a shopper (or an agent) and WebArena's evaluator helpers use it:
through Chromium, through its forms over HTTP, and through its REST API.

Tests that change data take `fresh_sandbox`, which resets the sites to the seed first.
"""

from __future__ import annotations

import hashlib
import re

import pytest
import requests
from playwright.sync_api import Page, expect

from tasks.sandbox.sites import SHOP
from tasks.sandbox.sites.shop.seed import build_seed

CUSTOMER = next(a for a in SHOP.accounts if a.role == "customer")
ADMIN = next(a for a in SHOP.accounts if a.role == "admin")
PRICE = re.compile(r"\$([\d,]+\.\d\d)")


# ---- helpers ----


def sign_in(page: Page, base: str, password: str = CUSTOMER.password) -> None:
    page.goto(base + "/customer/account/login/")
    page.get_by_label("Email").fill(CUSTOMER.username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign In").click()


def dollars(text: str) -> float:
    return float(PRICE.search(text).group(1).replace(",", ""))


def listed_prices(page: Page) -> list[float]:
    return [dollars(t) for t in page.locator(".product-items .price-box .price").all_inner_texts()]


def cart_count(page: Page) -> int:
    return int(page.locator(".minicart .counter-number").inner_text())


def open_product(page: Page, base: str, query: str) -> str:
    """Search, open the first result; returns the product's name."""
    page.goto(f"{base}/catalogsearch/result/?q={query}")
    first = page.locator(".product-item-link").first
    name = first.inner_text()
    first.click()
    expect(page.locator("h1")).to_have_text(name)
    return name


def admin_token(base: str) -> str:
    response = requests.post(
        f"{base}/rest/default/V1/integration/admin/token",
        json={"username": ADMIN.username, "password": ADMIN.password},
        timeout=10,
    )
    assert response.status_code == 200
    return response.json()


def rest_get(base: str, path: str, token: str, **params) -> requests.Response:
    headers = {"Authorization": f"Bearer {token}"}
    return requests.get(f"{base}/rest/V1/{path}", params=params, headers=headers, timeout=10)


def newest_order(base: str, token: str) -> dict:
    """Exactly the query of WebArena's shopping_get_latest_order_url."""
    response = rest_get(
        base,
        "orders",
        token,
        **{
            "searchCriteria[sortOrders][0][field]": "created_at",
            "searchCriteria[sortOrders][0][direction]": "DESC",
            "searchCriteria[pageSize]": "1",
        },
    )
    assert response.status_code == 200
    body = response.json()
    assert len(body["items"]) == 1
    return body["items"][0]


def http_session(base: str) -> requests.Session:
    """A signed-in shopper driving the site's forms over HTTP (faster than a browser for setup)."""
    session = requests.Session()
    response = session.post(
        f"{base}/customer/account/loginPost/",
        data={"login[username]": CUSTOMER.username, "login[password]": CUSTOMER.password},
        timeout=10,
    )
    assert response.url.endswith("/customer/account/")
    return session


def seed_counts(sandbox) -> dict:
    return requests.get(sandbox.shop_url + "/__sandbox__/health", timeout=10).json()["counts"]


# ---- browser: signing in, browsing, searching ----


def test_sign_in_rejects_a_wrong_password_then_signs_in(sandbox, page: Page):
    sign_in(page, sandbox.shop_url, password="not-the-password")
    expect(page.get_by_role("alert")).to_contain_text("The account sign-in was incorrect")
    expect(page.get_by_role("link", name="Sign In")).to_be_visible()

    sign_in(page, sandbox.shop_url)
    expect(page).to_have_url(re.compile(r"/customer/account/$"))
    expect(page.locator("h1")).to_have_text("My Account")
    expect(page.get_by_text("Welcome, Emma Lopez!")).to_be_visible()
    expect(page.get_by_role("link", name="Sign Out")).to_be_visible()
    expect(page.locator(".box-billing-address")).to_contain_text("2145 Maple Grove Ave")


def test_pages_that_need_an_account_send_guests_to_sign_in_and_back(sandbox, page: Page):
    page.goto(sandbox.shop_url + "/sales/order/history/")
    expect(page).to_have_url(re.compile(r"/customer/account/login/$"))
    page.get_by_label("Email").fill(CUSTOMER.username)
    page.get_by_label("Password").fill(CUSTOMER.password)
    page.get_by_role("button", name="Sign In").click()
    expect(page).to_have_url(re.compile(r"/sales/order/history/$"))
    expect(page.locator("h1")).to_have_text("My Orders")


def test_search_then_sort_by_price_both_ways(sandbox, page: Page):
    page.goto(sandbox.shop_url + "/")
    page.get_by_role("searchbox", name="Search").fill("stainless steel")
    page.get_by_role("button", name="Search").click()
    expect(page.locator("h1")).to_have_text("Search results for: 'stainless steel'")
    expect(page).to_have_title("Search results for: 'stainless steel'")
    total = int(re.search(r"of (\d+)", page.locator(".toolbar-amount").inner_text()).group(1))
    assert total > 12, "the search should need more than one page"

    page.get_by_label("Sort By").select_option(label="Price")
    expect(page).to_have_url(re.compile(r"product_list_order=price"))
    ascending = listed_prices(page)
    assert len(ascending) == 12 and ascending == sorted(ascending)
    page.get_by_role("link", name="Page 2").click()
    expect(page).to_have_url(re.compile(r"p=2"))
    expect(page.locator(".toolbar-amount")).to_have_text(f"Items 13-{min(24, total)} of {total}")
    assert listed_prices(page)[0] >= ascending[-1]

    page.get_by_role("link", name="Set Descending Direction").click()
    expect(page).to_have_url(re.compile(r"product_list_dir=desc"))
    descending = listed_prices(page)
    assert descending == sorted(descending, reverse=True)
    assert descending[0] > ascending[0]


def test_category_pages_list_their_subcategories_products(sandbox, page: Page):
    page.goto(sandbox.shop_url + "/")
    page.get_by_role("navigation", name="Categories").get_by_role("link", name="Electronics", exact=True).click()
    expect(page.locator("h1")).to_have_text("Electronics")
    amount = page.locator(".toolbar-amount").inner_text()
    top_total = int(re.search(r"of (\d+)", amount).group(1))
    sidebar = page.locator(".sidebar-main")
    facet = sidebar.locator(".filter-options-item").get_by_role("link", name=re.compile(r"^Headphones & Earbuds"))
    facet_count = int(re.search(r"(\d+)", facet.inner_text()).group(1))
    sidebar.locator(".subcategories").get_by_role("link", name="Headphones & Earbuds").click()
    expect(page).to_have_url(re.compile(r"/electronics/headphones-earbuds\.html$"))
    expect(page.locator("h1")).to_have_text("Headphones & Earbuds")
    sub_total = int(re.search(r"of (\d+)", page.locator(".toolbar-amount").inner_text()).group(1))
    assert 0 < sub_total < top_total
    assert facet_count == sub_total


# ---- browser: cart, checkout, orders ----


def test_options_are_required_and_a_guest_cart_follows_the_shopper_into_their_account(fresh_sandbox, page: Page):
    base = fresh_sandbox.shop_url
    name = open_product(page, base, "High Waist Yoga Leggings")
    page.get_by_role("button", name="Add to Cart").click()
    expect(page.get_by_role("alert")).to_have_text("You need to choose options for your item.")
    expect(page.get_by_text("This is a required field.")).to_have_count(2)
    assert cart_count(page) == 0

    color = page.get_by_label("Color")
    color.select_option(index=1)
    page.get_by_label("Size").select_option("M")
    page.get_by_label("Qty").fill("2")
    page.get_by_role("button", name="Add to Cart").click()
    expect(page.get_by_role("status")).to_have_text(f"You added {name} to your shopping cart.")
    assert cart_count(page) == 2

    sign_in(page, base)
    assert cart_count(page) == 2
    page.goto(base + "/checkout/cart/")
    row = page.locator("#shopping-cart-table tbody").filter(has_text=name)
    expect(row.locator(".item-options")).to_contain_text("Size")
    expect(row.locator(".item-options dd").last).to_have_text("M")


def test_cart_checkout_history_order_page_and_rest_agree(fresh_sandbox, page: Page):
    base = fresh_sandbox.shop_url
    sign_in(page, base)
    name = open_product(page, base, "High Waist Yoga Leggings")
    unit_price = dollars(page.locator(".product-info-price .price").inner_text())
    sku = page.locator(".product.attribute.sku .value").inner_text().strip()
    color = page.get_by_label("Color").locator("option").nth(2).inner_text()
    page.get_by_label("Color").select_option(label=color)
    page.get_by_label("Size").select_option("L")
    page.get_by_role("button", name="Add to Cart").click()
    expect(page.get_by_role("status")).to_contain_text("to your shopping cart")

    page.get_by_role("link", name=re.compile("My Cart")).click()
    expect(page.locator("h1")).to_have_text("Shopping Cart")
    page.get_by_label("Qty").fill("3")
    page.get_by_role("button", name="Update Shopping Cart").click()
    expect(page.get_by_label("Qty")).to_have_value("3")
    row_total = dollars(page.locator("#shopping-cart-table td.col.subtotal").inner_text())
    assert row_total == pytest.approx(3 * unit_price)
    assert cart_count(page) == 3

    page.get_by_role("link", name="Proceed to Checkout").click()
    expect(page.locator("h1")).to_have_text("Checkout")
    expect(page.get_by_label("Street Address")).to_have_value("2145 Maple Grove Ave")
    expect(page.get_by_label("Zip/Postal Code")).to_have_value("15213")
    expect(page.get_by_label("Check / Money order")).to_be_checked()
    page.get_by_label(re.compile("Flat Rate")).check()
    expect(page.locator("#checkout-grand-total")).to_have_text(f"${3 * unit_price + 15:,.2f}")
    page.get_by_role("button", name="Place Order").click()

    expect(page.locator("h1")).to_have_text("Thank you for your purchase!")
    number = re.search(r"Your order number is: (\d{9})", page.locator(".checkout-success").inner_text()).group(1)
    assert cart_count(page) == 0

    page.goto(base + "/sales/order/history/")
    first_row = page.locator("#my-orders-table tbody tr").first
    expect(first_row.locator("td.col.id")).to_have_text(number)
    expect(first_row.locator("td.col.status")).to_have_text("Pending")
    expect(first_row.locator("td.col.total")).to_have_text(f"${3 * unit_price + 15:,.2f}")
    first_row.get_by_role("link", name="View Order").click()

    expect(page).to_have_url(re.compile(rf"/sales/order/view/order_id/{int(number)}/$"))
    expect(page.locator("h1")).to_have_text(f"Order # {number}")
    item = page.locator("#my-orders-table tbody").first
    expect(item.locator(".product-item-name")).to_have_text(name)
    expect(item.locator("td.col.sku")).to_have_text(sku)
    expect(item.locator("td.col.qty")).to_contain_text("Ordered")
    expect(item.locator("td.col.qty .content")).to_have_text("3")
    options = dict(
        zip(item.locator("dl.item-options dt").all_inner_texts(), item.locator("dl.item-options dd").all_inner_texts())
    )
    assert options == {"Color": color, "Size": "L"}
    expect(page.locator("tfoot .grand_total")).to_contain_text(f"${3 * unit_price + 15:,.2f}")

    order = newest_order(base, admin_token(base))
    assert order["increment_id"] == number and order["entity_id"] == int(number)
    assert order["customer_email"] == CUSTOMER.username and order["status"] == "pending"
    assert [(i["sku"], i["qty_ordered"]) for i in order["items"]] == [(sku, 3)]
    assert {o["label"]: o["value"] for o in order["items"][0]["options"]} == {"Color": color, "Size": "L"}


def test_wishlist_add_move_and_remove(fresh_sandbox, page: Page):
    base = fresh_sandbox.shop_url
    sign_in(page, base)
    page.goto(base + "/wishlist/")
    before = page.locator(".wishlist-items .product-item").count()
    name = open_product(page, base, "Cast Iron Skillet")
    page.get_by_role("button", name="Add to Wish List").click()
    expect(page).to_have_url(re.compile(r"/wishlist/$"))
    expect(page.get_by_role("status")).to_have_text(f"{name} has been added to your Wish List.")
    items = page.locator(".wishlist-items .product-item")
    expect(items).to_have_count(before + 1)

    added = items.filter(has_text=name)
    added.get_by_role("button", name="Remove item").click()
    expect(page.get_by_role("status")).to_have_text(f"{name} has been removed from your Wish List.")
    expect(page.locator(".wishlist-items .product-item").filter(has_text=name)).to_have_count(0)
    expect(page.locator(".wishlist-items .product-item")).to_have_count(before)


def test_a_review_posted_on_the_product_page_is_the_newest_in_the_rest_api(fresh_sandbox, page: Page):
    base = fresh_sandbox.shop_url
    sign_in(page, base)
    open_product(page, base, "Stainless Steel Water Bottle")
    sku = page.locator(".product.attribute.sku .value").inner_text().strip()
    count_before = int(page.locator("#tab-label-reviews-title .counter").inner_text())
    form = page.locator("#review-form")
    form.get_by_label("4 stars").check()
    form.get_by_label("Nickname").fill("EmmaL")
    form.get_by_label("Summary").fill("Keeps ice all day")
    form.get_by_label("Review").fill("Still cold after a ten hour hike. The lid never leaked.")
    form.get_by_role("button", name="Submit Review").click()
    expect(page.get_by_role("status")).to_have_text("You saved the product review.")
    expect(page.locator("#tab-label-reviews-title .counter")).to_have_text(str(count_before + 1))
    expect(page.locator(".review-item").first.locator(".review-title")).to_have_text("Keeps ice all day")

    reviews = rest_get(base, f"products/{sku}/reviews", admin_token(base)).json()
    assert len(reviews) == count_before + 1
    newest = reviews[-1]
    assert (newest["nickname"], newest["title"]) == ("EmmaL", "Keeps ice all day")
    assert newest["ratings"][0]["rating_name"] == "Rating" and newest["ratings"][0]["percent"] == 80

    page.goto(base + "/review/customer/")
    expect(page.locator("#my-reviews-table tbody tr").first).to_contain_text("Still cold after a ten hour hike")


def test_a_review_without_a_rating_is_refused_and_keeps_what_was_typed(sandbox, page: Page):
    open_product(page, sandbox.shop_url, "Cold Brew Coffee Concentrate")
    form = page.locator("#review-form")
    form.get_by_label("Nickname").fill("Sam")
    form.get_by_label("Summary").fill("Smooth")
    form.get_by_role("button", name="Submit Review").click()
    expect(page.get_by_role("alert")).to_contain_text("Rating")
    expect(page.get_by_role("alert")).to_contain_text("Review")
    expect(page.locator("#review-form").get_by_label("Summary")).to_have_value("Smooth")


# ---- HTTP: reset, REST API, seed ----


def test_reset_removes_a_placed_order_and_a_posted_review(fresh_sandbox):
    base = fresh_sandbox.shop_url
    seeded = seed_counts(fresh_sandbox)
    token = admin_token(base)
    seeded_newest = newest_order(base, token)

    shopper = http_session(base)
    product_page = shopper.get(f"{base}/catalogsearch/result/?q=Dutch+Oven", timeout=10).text
    product_url = re.search(r'class="product-item-link" href="([^"]+)"', product_page).group(1)
    page_html = shopper.get(base + product_url, timeout=10).text
    product_id = re.search(r'name="product" value="(\d+)"', page_html).group(1)
    color = re.search(r'<option value="([^"]+)">', page_html).group(1)
    sku = re.search(r'class="value">(B0\w+)<', page_html).group(1)
    shopper.post(
        f"{base}/checkout/cart/add/",
        data={"product": product_id, "qty": "1", "super_attribute[color]": color},
        timeout=10,
    )
    checkout = shopper.post(
        f"{base}/checkout/",
        data={
            "firstname": "Emma", "lastname": "Lopez", "street[0]": "2145 Maple Grove Ave", "city": "Pittsburgh",
            "region": "Pennsylvania", "postcode": "15213", "country_id": "US", "telephone": "4125550187",
            "shipping_method": "flatrate_flatrate", "payment[method]": "checkmo",
        },
        timeout=10,
    )
    assert "Thank you for your purchase!" in checkout.text
    shopper.post(
        f"{base}/review/product/post/id/{product_id}/",
        data={"nickname": "Emma", "title": "Heavy", "detail": "Heavy but great.", "ratings[4]": "5"},
        timeout=10,
    )
    assert newest_order(base, token)["entity_id"] == seeded_newest["entity_id"] + 1
    assert rest_get(base, f"products/{sku}/reviews", token).json()[-1]["title"] == "Heavy"
    assert seed_counts(fresh_sandbox) != seeded

    fresh_sandbox.reset()
    assert seed_counts(fresh_sandbox) == seeded
    assert newest_order(base, token)["increment_id"] == seeded_newest["increment_id"]
    assert all(review["title"] != "Heavy" for review in rest_get(base, f"products/{sku}/reviews", token).json())


def test_rest_token_refuses_wrong_or_missing_credentials(sandbox):
    url = f"{sandbox.shop_url}/rest/default/V1/integration/admin/token"
    wrong = requests.post(url, json={"username": ADMIN.username, "password": "wrong"}, timeout=10)
    assert wrong.status_code == 401 and "sign-in was incorrect" in wrong.json()["message"]
    missing = requests.post(url, json={"username": ADMIN.username}, timeout=10)
    assert missing.status_code == 400 and "password" in missing.json()["message"]
    customer_as_admin = requests.post(
        url, json={"username": CUSTOMER.username, "password": CUSTOMER.password}, timeout=10
    )
    assert customer_as_admin.status_code == 401


@pytest.mark.parametrize("header", [None, "Bearer not-a-token", "Basic YWRtaW46YWRtaW4xMjM0"])
def test_rest_reads_need_a_valid_admin_token(sandbox, header):
    headers = {"Authorization": header} if header else {}
    for path in ("orders", "orders/1", "products/B000000000/reviews"):
        response = requests.get(f"{sandbox.shop_url}/rest/V1/{path}", headers=headers, timeout=10)
        assert response.status_code == 401, path
        assert "isn't authorized" in response.json()["message"]


def test_rest_orders_filter_sort_and_page_like_magento(sandbox):
    base, token = sandbox.shop_url, admin_token(sandbox.shop_url)
    everything = rest_get(base, "orders", token).json()
    assert everything["total_count"] == len(everything["items"]) >= 20

    emma_canceled = rest_get(
        base,
        "orders",
        token,
        **{
            "searchCriteria[filter_groups][0][filters][0][field]": "customer_email",
            "searchCriteria[filter_groups][0][filters][0][value]": CUSTOMER.username,
            "searchCriteria[filter_groups][1][filters][0][field]": "status",
            "searchCriteria[filter_groups][1][filters][0][value]": "canceled",
            "searchCriteria[filter_groups][1][filters][0][condition_type]": "eq",
        },
    ).json()
    expected = [
        o for o in everything["items"] if o["customer_email"] == CUSTOMER.username and o["status"] == "canceled"
    ]
    assert emma_canceled["total_count"] == len(expected) >= 1
    assert {o["increment_id"] for o in emma_canceled["items"]} == {o["increment_id"] for o in expected}

    page_two = rest_get(
        base,
        "orders",
        token,
        **{
            "searchCriteria[sortOrders][0][field]": "grand_total",
            "searchCriteria[sortOrders][0][direction]": "ASC",
            "searchCriteria[pageSize]": "5",
            "searchCriteria[currentPage]": "2",
        },
    ).json()
    by_total = sorted(everything["items"], key=lambda o: (o["grand_total"], o["entity_id"]))
    assert [o["entity_id"] for o in page_two["items"]] == [o["entity_id"] for o in by_total[5:10]]
    assert page_two["search_criteria"]["page_size"] == 5 and page_two["search_criteria"]["current_page"] == 2

    one = rest_get(base, f"orders/{everything['items'][0]['entity_id']}", token).json()
    assert one["increment_id"] == everything["items"][0]["increment_id"]
    assert int(one["increment_id"]) == one["entity_id"]
    assert rest_get(base, "orders/999999", token).status_code == 404
    bad_field = rest_get(base, "orders", token, **{"searchCriteria[sortOrders][0][field]": "no_such_column"})
    assert bad_field.status_code == 400 and "no_such_column" in bad_field.json()["message"]


def test_rest_product_has_url_key_options_category_and_review_count(sandbox):
    base, token = sandbox.shop_url, admin_token(sandbox.shop_url)
    html = requests.get(f"{base}/catalogsearch/result/?q=Bamboo+Sheet+Set", timeout=10).text
    product_path = re.search(r'class="product-item-link" href="([^"]+)"', html).group(1)
    page_html = requests.get(base + product_path, timeout=10).text
    sku = re.search(r'class="value">(B0\w+)<', page_html).group(1)
    counter = re.search(r'id="tab-label-reviews-title"[^>]*>Reviews <span class="counter">(\d+)', page_html)
    review_count = int(counter.group(1))

    product = rest_get(base, f"products/{sku}", token).json()
    attributes = {a["attribute_code"]: a["value"] for a in product["custom_attributes"]}
    assert f"/{attributes['url_key']}.html" == product_path
    assert product["type_id"] == "configurable"
    labels = {o["label"] for o in product["extension_attributes"]["configurable_product_options"]}
    assert labels == {"Color", "Size"}
    assert product["extension_attributes"]["category_links"]
    assert product["extension_attributes"]["review_summary"]["reviews_count"] == review_count
    assert len(rest_get(base, f"products/{sku}/reviews", token).json()) == review_count
    assert rest_get(base, "products/B0NOSUCHSKU", token).status_code == 404


def test_seed_size_categories_and_emmas_history(sandbox):
    counts = seed_counts(sandbox)
    assert counts["products"] >= 150
    tree = rest_get(sandbox.shop_url, "categories", admin_token(sandbox.shop_url)).json()
    tops = tree["children_data"]
    assert len(tops) >= 8 and all(top["children_data"] for top in tops)

    emma_orders = [
        o for o in rest_get(sandbox.shop_url, "orders", admin_token(sandbox.shop_url)).json()["items"]
        if o["customer_email"] == CUSTOMER.username
    ]
    assert 8 <= len(emma_orders) <= 12
    assert all(o["created_at"][:4] in ("2022", "2023") for o in emma_orders)
    assert {o["status"] for o in emma_orders} >= {"complete", "pending", "canceled", "processing"}
    assert any(item["options"] for o in emma_orders for item in o["items"])


def test_listing_pages_count_items_and_page_like_magento(sandbox):
    base = sandbox.shop_url
    first = requests.get(f"{base}/home-kitchen.html?product_list_limit=24", timeout=10).text
    total = int(re.search(r"of <span class=\"toolbar-number\">(\d+)</span>", first).group(1))
    assert 'Items <span class="toolbar-number">1</span>-<span class="toolbar-number">24</span>' in first
    second = requests.get(f"{base}/home-kitchen.html?product_list_limit=24&p=2", timeout=10).text
    assert f'<span class="toolbar-number">25</span>-<span class="toolbar-number">{min(48, total)}</span>' in second
    assert requests.get(f"{base}/no-such-thing.html", timeout=10).status_code == 404


def test_seed_is_byte_identical_on_every_build(tmp_path):
    first, second = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    build_seed(first)
    build_seed(second)
    assert hashlib.sha256(first.read_bytes()).hexdigest() == hashlib.sha256(second.read_bytes()).hexdigest()
