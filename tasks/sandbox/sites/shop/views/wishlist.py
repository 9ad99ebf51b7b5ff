"""My Wish List: list, add, remove, move to the cart."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request

from tasks.sandbox.sites.shop import cart
from tasks.sandbox.sites.shop.accounts import current_customer, login_required, require_customer_for
from tasks.sandbox.sites.shop.catalog import product_by_id, product_options, product_url, rating_summaries
from tasks.sandbox.sites.shop.db import db, now_utc

bp = Blueprint("wishlist", __name__)

WISHLIST_PATH = "/wishlist/"


@bp.get(WISHLIST_PATH)
@login_required
def view_wishlist():
    items = db().execute(
        "SELECT w.id AS item_id, w.added_at, p.* FROM wishlist_item w JOIN product p ON p.id = w.product_id "
        "WHERE w.customer_id = ? ORDER BY w.added_at DESC, w.id DESC",
        (current_customer()["id"],),
    ).fetchall()
    return render_template("wishlist.html", items=items, ratings=rating_summaries([i["id"] for i in items]))


@bp.post("/wishlist/index/add/")
@require_customer_for("You must login or register to add items to your wishlist.")
def add_to_wishlist():
    product = product_by_id(request.form.get("product", type=int) or 0)
    if product is None:
        abort(404)
    conn = db()
    with conn:
        conn.execute(
            "INSERT OR IGNORE INTO wishlist_item (customer_id, product_id, added_at) VALUES (?, ?, ?)",
            (current_customer()["id"], product["id"], now_utc()),
        )
    flash(f"{product['name']} has been added to your Wish List.", "success")
    return redirect(WISHLIST_PATH)


@bp.post("/wishlist/index/remove/")
@login_required
def remove_from_wishlist():
    item = _own_item(request.form.get("item", type=int) or 0)
    conn = db()
    with conn:
        conn.execute("DELETE FROM wishlist_item WHERE id = ?", (item["id"],))
    flash(f"{item['name']} has been removed from your Wish List.", "success")
    return redirect(WISHLIST_PATH)


@bp.post("/wishlist/index/cart/")
@login_required
def move_to_cart():
    """Add a wished-for product to the cart; one with options needs its page first, as in Magento."""
    item = _own_item(request.form.get("item", type=int) or 0)
    product = product_by_id(item["product_id"])
    if product_options(product["id"]):
        flash("You need to choose options for your item.", "notice")
        return redirect(product_url(product))
    try:
        cart.add(product, 1, {})
    except cart.CartError as error:
        flash(str(error), "error")
        return redirect(WISHLIST_PATH)
    conn = db()
    with conn:
        conn.execute("DELETE FROM wishlist_item WHERE id = ?", (item["id"],))
    flash(f"You added {product['name']} to your shopping cart.", "success")
    return redirect(WISHLIST_PATH)


def _own_item(item_id: int):
    row = db().execute(
        "SELECT w.id, w.product_id, p.name FROM wishlist_item w JOIN product p ON p.id = w.product_id "
        "WHERE w.id = ? AND w.customer_id = ?",
        (item_id, current_customer()["id"]),
    ).fetchone()
    if row is None:
        abort(404)
    return row
