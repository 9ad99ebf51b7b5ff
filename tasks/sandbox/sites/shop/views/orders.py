"""My Orders: history, one order's page, reorder."""

from __future__ import annotations

import math

from flask import Blueprint, abort, flash, redirect, render_template, request

from tasks.sandbox.sites.shop import cart
from tasks.sandbox.sites.shop.accounts import current_customer, login_required
from tasks.sandbox.sites.shop.addresses import COUNTRIES
from tasks.sandbox.sites.shop.catalog import product_by_id, validate_options
from tasks.sandbox.sites.shop.orders import ADDRESS_FIELDS as ADDRESS_KEYS
from tasks.sandbox.sites.shop.orders import customer_order, customer_order_count, customer_orders, order_lines
from tasks.sandbox.sites.shop.pricing import PAYMENT_METHODS

bp = Blueprint("orders", __name__)

HISTORY_PATH = "/sales/order/history/"
HISTORY_PAGE_SIZES = (10, 20, 50)


@bp.get(HISTORY_PATH)
@login_required
def history():
    customer = current_customer()
    limit = request.args.get("limit", type=int)
    limit = limit if limit in HISTORY_PAGE_SIZES else HISTORY_PAGE_SIZES[0]
    total = customer_order_count(customer["id"])
    pages = max(1, math.ceil(total / limit))
    page = min(max(1, request.args.get("p", 1, type=int)), pages)
    orders = customer_orders(customer["id"], limit=limit, offset=(page - 1) * limit)
    def page_url(n: int) -> str:
        params = [f"p={n}"] if n > 1 else []
        if limit != HISTORY_PAGE_SIZES[0]:
            params.append(f"limit={limit}")
        return HISTORY_PATH + ("?" + "&".join(params) if params else "")

    return render_template(
        "order_history.html", orders=orders, total=total, page=page, pages=pages, limit=limit,
        page_sizes=HISTORY_PAGE_SIZES, page_url=page_url,
    )


@bp.get("/sales/order/view/order_id/<int:entity_id>/")
@login_required
def view_order(entity_id: int):
    order = customer_order(current_customer()["id"], entity_id)
    if order is None:
        abort(404)
    ship_address = {key: order[f"ship_{key}"] for key in ADDRESS_KEYS}
    return render_template(
        "order_view.html", order=order, lines=order_lines(entity_id), ship_address=ship_address, countries=COUNTRIES,
        payment_methods=PAYMENT_METHODS,
    )


@bp.post("/sales/order/reorder/order_id/<int:entity_id>/")
@login_required
def reorder(entity_id: int):
    order = customer_order(current_customer()["id"], entity_id)
    if order is None:
        abort(404)
    for line in order_lines(entity_id):
        product = product_by_id(line.row["product_id"])
        options, missing = validate_options(product["id"], line.options)
        if missing:
            flash(f"{product['name']} could not be added: its options are no longer available.", "error")
            continue
        try:
            cart.add(product, line.row["qty_ordered"], options)
        except cart.CartError as error:
            flash(str(error), "error")
    return redirect("/checkout/cart/")
