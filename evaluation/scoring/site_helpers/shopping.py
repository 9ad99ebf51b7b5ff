"""Helpers for the shopping site (Magento, or the sandbox shop that mirrors its pages and REST API).

Names, arguments and results follow the WebArena-family helpers, so a config's
`func:` call means the same here. REST helpers log in as the store admin (the
benchmark's admin account, the same on the sandbox) and take the base URL as
`base_url`, which the registry fills from the task's site address. Page readers
take the page and, like the reference, give an empty value ("" or 0) when the
page does not have what they look for.
"""

from __future__ import annotations

from typing import Any

from evaluation.browser_env.auth import SITE_LOGINS
from evaluation.scoring.site_helpers.generic import evaluate_or
from evaluation.scoring.site_helpers.rest import SiteHelperError, request_json
from evaluation.scoring.text import OR_SEPARATOR

# ---- REST ----


def shopping_get_auth_token(*, base_url: str) -> str:
    admin = SITE_LOGINS["shopping_admin"]
    token = request_json(
        "POST",
        f"{base_url}/rest/default/V1/integration/admin/token",
        json={"username": admin.username, "password": admin.password},
    )
    if not isinstance(token, str) or not token:
        raise SiteHelperError(f"the admin token endpoint of {base_url} answered {token!r}, not a token")
    return token


def _admin_get(base_url: str, path: str, params: dict[str, str] | None = None) -> Any:
    headers = {"Authorization": f"Bearer {shopping_get_auth_token(base_url=base_url)}"}
    return request_json("GET", f"{base_url}/rest/V1/{path}", params=params, headers=headers)


def shopping_get_latest_order_url(*, base_url: str) -> str:
    """The customer page of the newest order (by `created_at`), asked of the REST API."""
    newest_first = {
        "searchCriteria[sortOrders][0][field]": "created_at",
        "searchCriteria[sortOrders][0][direction]": "DESC",
        "searchCriteria[pageSize]": "1",
    }
    items = _admin_get(base_url, "orders", newest_first).get("items") or []
    if not items:
        raise SiteHelperError(f"the store at {base_url} has no orders, so there is no newest order")
    # The page is addressed by the order number read as an integer ("000000187" -> 187), as in the reference.
    return f"{base_url}/sales/order/view/order_id/{int(items[0]['increment_id'])}/"


def _latest_review(sku: str, base_url: str) -> dict | None:
    reviews = _admin_get(base_url, f"products/{sku}/reviews")
    return reviews[-1] if reviews else None  # the API lists them oldest first


def shopping_get_sku_latest_review_author(sku: str, *, base_url: str) -> str:
    review = _latest_review(sku, base_url)
    return review["nickname"] if review else ""


def shopping_get_sku_latest_review_rating(sku: str, *, base_url: str) -> str:
    """The newest review's rating in percent, as text ("80" for four stars)."""
    review = _latest_review(sku, base_url)
    return str(review["ratings"][0]["percent"]) if review else ""


def shopping_get_sku_latest_review_text(sku: str, *, base_url: str) -> str:
    review = _latest_review(sku, base_url)
    return review["detail"] if review else ""


def shopping_get_sku_latest_review_title(sku: str, *, base_url: str) -> str:
    review = _latest_review(sku, base_url)
    return review["title"] if review else ""


def shopping_get_sku_product_page_url(sku: str, *, base_url: str) -> str:
    product = _admin_get(base_url, f"products/{sku}")
    for attribute in product.get("custom_attributes") or []:
        if attribute.get("attribute_code") == "url_key":
            return f"{base_url}/{attribute['value']}.html"
    return ""


# ---- page readers ----

# One object per <tbody> of the order's items table, keyed by each cell's second class
# ("col name" -> name), with the name cell's option list read into `options`.
_ORDER_ITEMS_JS = """() => {
  const table = document.querySelector('#my-orders-table');
  if (!table) return [];
  return [...table.getElementsByTagName('tbody')].map((body) => {
    const item = {};
    for (const cell of body.getElementsByTagName('td')) {
      const key = cell.className.split(' ')[1];
      item[key] = cell.outerText;
      const list = key === 'name' ? cell.querySelector('dl') : null;
      if (list) {
        const options = {};
        const parts = [...list.children];
        for (let i = 0; i + 1 < parts.length; i += 2) options[parts[i].outerText] = parts[i + 1].outerText;
        item.options = options;
      }
    }
    return item;
  });
}"""

_PRODUCT_ATTRIBUTES_JS = """(attribute) => {
  const body = document.querySelector('#productDetails_detailBullets_sections1 > tbody');
  if (!body) return '';
  const wanted = attribute.toLowerCase().split(' |or| ');
  return [...body.children]
    .filter((row) => wanted.some((term) => row.children[0].outerText.toLowerCase().includes(term)))
    .map((row) => row.children[1].outerText)
    .join(', ');
}"""

_PRICE_SELECTOR = (
    "#maincontent > div.columns > div > div.product-info-main > div.product-info-price"
    " > div.price-box.price-final_price > span > span"
)
_PRICE_JS = """(selector) => {
  const value = parseFloat(document.querySelector(selector).outerText.substr(1));
  return value ? value : 0;
}"""

_REVIEW_COUNT_JS = """() => {
  const value = parseInt(document.querySelector('#tab-label-reviews-title').outerText.split(' ')[1]);
  return value ? value : 0;
}"""

_RATING_JS = """() => {
  const value = parseFloat(document.querySelector('.rating-result').title.replace('%', ''));
  return value ? value : 0;
}"""


def shopping_get_all_product_order(page: Any) -> list[dict[str, Any]]:
    """The items of the order page shown: name, sku, price, qty ("Ordered2"), subtotal, options."""
    items = evaluate_or(page, _ORDER_ITEMS_JS, [])
    return items if isinstance(items, list) else []


def shopping_get_order_product_name_list(page: Any) -> str:
    return OR_SEPARATOR.join(item.get("name", "") for item in shopping_get_all_product_order(page))


def shopping_get_order_product_quantity(page: Any, sku: str) -> int:
    """Quantity ordered of the item with this SKU (any of ` |OR| ` alternatives); 0 when absent."""
    skus = sku.split(OR_SEPARATOR) if "|OR|" in sku else [sku]
    for item in shopping_get_all_product_order(page):
        if item.get("sku", "").strip() in skus:
            try:
                return int(item.get("qty", "").strip().removeprefix("Ordered"))
            except ValueError:
                return 0
    return 0


def shopping_get_order_product_option(page: Any, sku: str, option_name: str) -> str:
    """The value of one option (e.g. "Color") of the ordered item with this SKU; "" when absent."""
    for item in shopping_get_all_product_order(page):
        if item.get("sku", "").strip() == sku:
            return str((item.get("options") or {}).get(option_name, ""))
    return ""


def shopping_get_product_attributes(page: Any, attribute: str) -> str:
    """Values of the product page's "More Information" rows whose label contains the attribute name."""
    result = evaluate_or(page, _PRODUCT_ATTRIBUTES_JS, "", attribute)
    return result if isinstance(result, str) else ""


def shopping_get_product_price(page: Any) -> float | int:
    return evaluate_or(page, _PRICE_JS, 0, _PRICE_SELECTOR)


def shopping_get_num_reviews(page: Any) -> int:
    return evaluate_or(page, _REVIEW_COUNT_JS, 0)


def shopping_get_rating_as_percentage(page: Any) -> float | int:
    return evaluate_or(page, _RATING_JS, 0)
