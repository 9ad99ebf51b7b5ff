"""Orders: placing one from the cart, and reading a customer's orders."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from tasks.sandbox.sites.shop.cart import CartLine, clear
from tasks.sandbox.sites.shop.db import db, now_utc
from tasks.sandbox.sites.shop.pricing import ShippingMethod, shipping_cost_cents

STATUS_LABELS = {"pending": "Pending", "processing": "Processing", "complete": "Complete", "canceled": "Canceled"}
# Magento's order state behind each status (the REST API reports both).
STATUS_STATES = {"pending": "new", "processing": "processing", "complete": "complete", "canceled": "canceled"}
ADDRESS_FIELDS = ("firstname", "lastname", "street", "city", "region", "postcode", "country_id", "telephone")


@dataclass
class OrderLine:
    row: sqlite3.Row
    options: dict[str, str]


class StockChanged(ValueError):
    """A product in the cart sold out (or ran low) before the order was placed."""


def place_order(
    customer: sqlite3.Row, address: dict[str, str], method: ShippingMethod, cart_lines: list[CartLine]
) -> int:
    """Write the order and its items, take the stock, empty the cart; returns the entity id."""
    subtotal = sum(line.row_total_cents for line in cart_lines)
    total_qty = sum(line.qty for line in cart_lines)
    shipping = shipping_cost_cents(method, total_qty)
    created = now_utc()
    conn = db()
    conn.execute("BEGIN IMMEDIATE")  # the new order number must be unique across threads
    try:
        for line in cart_lines:
            stock = conn.execute("SELECT stock_qty FROM product WHERE id = ?", (line.product["id"],)).fetchone()[0]
            if stock < line.qty:
                raise StockChanged(f"The requested qty of {line.product['name']} is not available.")
        entity_id = conn.execute("SELECT COALESCE(MAX(entity_id), 0) + 1 FROM sales_order").fetchone()[0]
        conn.execute(
            "INSERT INTO sales_order (entity_id, increment_id, customer_id, customer_email, customer_firstname, "
            "customer_lastname, status, created_at, updated_at, subtotal_cents, shipping_cents, grand_total_cents, "
            "total_qty, shipping_method, shipping_description, payment_method, ship_firstname, ship_lastname, "
            "ship_street, ship_city, ship_region, ship_postcode, ship_country_id, ship_telephone) "
            "VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, 'checkmo', ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                entity_id, f"{entity_id:09d}", customer["id"], customer["email"], customer["firstname"],
                customer["lastname"], created, created, subtotal, shipping, subtotal + shipping, total_qty,
                method.code, method.description, *(address[name] for name in ADDRESS_FIELDS),
            ),
        )
        for line in cart_lines:
            conn.execute(
                "INSERT INTO sales_order_item (order_id, product_id, sku, name, price_cents, qty_ordered, "
                "row_total_cents, options_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    entity_id, line.product["id"], line.product["sku"], line.product["name"], line.price_cents,
                    line.qty, line.row_total_cents, json.dumps(line.options),
                ),
            )
            conn.execute("UPDATE product SET stock_qty = stock_qty - ? WHERE id = ?", (line.qty, line.product["id"]))
        clear(customer["id"], conn)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return entity_id


def customer_orders(customer_id: int, limit: int, offset: int = 0) -> list[sqlite3.Row]:
    return db().execute(
        "SELECT * FROM sales_order WHERE customer_id = ? ORDER BY created_at DESC, entity_id DESC LIMIT ? OFFSET ?",
        (customer_id, limit, offset),
    ).fetchall()


def customer_order_count(customer_id: int) -> int:
    return db().execute("SELECT COUNT(*) FROM sales_order WHERE customer_id = ?", (customer_id,)).fetchone()[0]


def customer_order(customer_id: int, entity_id: int) -> sqlite3.Row | None:
    return db().execute(
        "SELECT * FROM sales_order WHERE entity_id = ? AND customer_id = ?", (entity_id, customer_id)
    ).fetchone()


def order_lines(entity_id: int) -> list[OrderLine]:
    rows = db().execute("SELECT * FROM sales_order_item WHERE order_id = ? ORDER BY item_id", (entity_id,)).fetchall()
    return [OrderLine(row, json.loads(row["options_json"])) for row in rows]
