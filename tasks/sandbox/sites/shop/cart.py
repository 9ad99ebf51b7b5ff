"""The shopping cart: in the database for a signed-in customer, in the session for a guest.

A guest's lines move into the customer's cart when they sign in; a line with
the same product and options adds to the existing quantity, as in Magento.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from flask import session

from tasks.sandbox.sites.shop.accounts import current_customer
from tasks.sandbox.sites.shop.catalog import products_by_ids
from tasks.sandbox.sites.shop.db import db, now_utc

GUEST_KEY = "guest_cart"
MAX_QTY = 10000
INSERT_LINE = "INSERT INTO cart_item (customer_id, product_id, qty, options_json, added_at) VALUES (?, ?, ?, ?, ?)"


@dataclass
class CartLine:
    id: int
    product: sqlite3.Row
    qty: int
    options: dict[str, str]

    @property
    def price_cents(self) -> int:
        return self.product["price_cents"]

    @property
    def row_total_cents(self) -> int:
        return self.price_cents * self.qty


class CartError(ValueError):
    """A cart change the shop refuses, with the message to show."""


def lines() -> list[CartLine]:
    customer = current_customer()
    if customer is not None:
        raw = [
            (row["id"], row["product_id"], row["qty"], json.loads(row["options_json"]))
            for row in db().execute("SELECT * FROM cart_item WHERE customer_id = ? ORDER BY id", (customer["id"],))
        ]
    else:
        raw = [(line["id"], line["product_id"], line["qty"], line["options"]) for line in session.get(GUEST_KEY, [])]
    products = products_by_ids(sorted({product_id for _, product_id, _, _ in raw}))
    return [CartLine(line_id, products[pid], qty, opts) for line_id, pid, qty, opts in raw if pid in products]


def item_count() -> int:
    customer = current_customer()
    if customer is not None:
        row = db().execute("SELECT COALESCE(SUM(qty), 0) FROM cart_item WHERE customer_id = ?", (customer["id"],))
        return row.fetchone()[0]
    return sum(line["qty"] for line in session.get(GUEST_KEY, []))


def subtotal_cents(cart_lines: list[CartLine]) -> int:
    return sum(line.row_total_cents for line in cart_lines)


def add(product: sqlite3.Row, qty: int, options: dict[str, str]) -> None:
    existing = next((line for line in lines() if line.product["id"] == product["id"] and line.options == options), None)
    wanted = qty + (existing.qty if existing else 0)
    _check_stock(product, wanted)
    customer = current_customer()
    if customer is not None:
        conn = db()
        with conn:
            if existing:
                conn.execute("UPDATE cart_item SET qty = ? WHERE id = ?", (wanted, existing.id))
            else:
                conn.execute(INSERT_LINE, (customer["id"], product["id"], qty, json.dumps(options), now_utc()))
        return
    guest = list(session.get(GUEST_KEY, []))
    if existing:
        for line in guest:
            if line["id"] == existing.id:
                line["qty"] = wanted
    else:
        next_id = max((line["id"] for line in guest), default=0) + 1
        guest.append({"id": next_id, "product_id": product["id"], "qty": qty, "options": options})
    session[GUEST_KEY] = guest


def set_quantities(new_qty: dict[int, int]) -> None:
    """Apply "Update Shopping Cart": a quantity of 0 removes the line."""
    current = {line.id: line for line in lines()}
    for line_id, qty in new_qty.items():
        line = current.get(line_id)
        if line is None:
            continue
        if qty < 0:
            raise CartError("Please enter a quantity of 0 or more.")
        if qty > 0:
            _check_stock(line.product, qty)
    customer = current_customer()
    if customer is not None:
        conn = db()
        with conn:
            for line_id, qty in new_qty.items():
                if qty == 0:
                    conn.execute("DELETE FROM cart_item WHERE id = ? AND customer_id = ?", (line_id, customer["id"]))
                else:
                    conn.execute(
                        "UPDATE cart_item SET qty = ? WHERE id = ? AND customer_id = ?", (qty, line_id, customer["id"])
                    )
        return
    guest = []
    for line in session.get(GUEST_KEY, []):
        qty = new_qty.get(line["id"], line["qty"])
        if qty > 0:
            guest.append({**line, "qty": qty})
    session[GUEST_KEY] = guest


def remove(line_id: int) -> CartLine | None:
    line = next((line for line in lines() if line.id == line_id), None)
    if line is not None:
        set_quantities({line_id: 0})
    return line


def clear(customer_id: int, conn: sqlite3.Connection) -> None:
    conn.execute("DELETE FROM cart_item WHERE customer_id = ?", (customer_id,))


def merge_guest_cart(customer_id: int) -> None:
    """Move a guest's lines into the customer's stored cart (called right after sign-in)."""
    guest = session.pop(GUEST_KEY, [])
    if not guest:
        return
    conn = db()
    with conn:
        for line in guest:
            options_json = json.dumps(line["options"])
            row = conn.execute(
                "SELECT id, qty FROM cart_item WHERE customer_id = ? AND product_id = ? AND options_json = ?",
                (customer_id, line["product_id"], options_json),
            ).fetchone()
            if row:
                merged = min(MAX_QTY, row["qty"] + line["qty"])
                conn.execute("UPDATE cart_item SET qty = ? WHERE id = ?", (merged, row["id"]))
            else:
                conn.execute(INSERT_LINE, (customer_id, line["product_id"], line["qty"], options_json, now_utc()))


def _check_stock(product: sqlite3.Row, qty: int) -> None:
    if qty < 1:
        raise CartError("Please enter a quantity greater than 0.")
    if product["stock_qty"] <= 0:
        raise CartError(f"{product['name']} is out of stock.")
    if qty > min(product["stock_qty"], MAX_QTY):
        raise CartError(f"The requested qty is not available. Only {product['stock_qty']} left in stock.")
