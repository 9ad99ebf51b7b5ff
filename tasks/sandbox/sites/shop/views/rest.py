"""The REST API subset that WebArena's evaluator helpers call (Magento's /rest/V1/... shapes).

Served under /rest/V1, /rest/default/V1 and /rest/all/V1. Everything except the
token endpoint needs `Authorization: Bearer <admin token>`.
"""

from __future__ import annotations

import functools
import json
import sqlite3

from flask import Blueprint, Flask, current_app, g, jsonify, request
from itsdangerous import BadSignature, URLSafeTimedSerializer

from tasks.sandbox.sites.shop.catalog import category_tree, product_by_sku, product_options, rating_summary
from tasks.sandbox.sites.shop.db import db
from tasks.sandbox.sites.shop.orders import STATUS_STATES
from tasks.sandbox.sites.shop.passwords import verify_password
from tasks.sandbox.sites.shop.pricing import PAYMENT_METHODS, SHIPPING_METHODS, to_float
from tasks.sandbox.sites.shop.search_criteria import CriteriaError, parse_search_criteria

PREFIXES = ("/rest/V1", "/rest/default/V1", "/rest/all/V1")
TOKEN_LIFETIME_S = 4 * 3600  # Magento's default admin token lifetime
SIGN_IN_FAILED = (
    "The account sign-in was incorrect or your account is disabled temporarily. Please wait and try again later."
)
NOT_AUTHORIZED = "The consumer isn't authorized to access %resources."
RATING_NAME = "Rating"
RATING_ID = 4

ORDER_FIELDS = {
    "entity_id": "o.entity_id",
    "increment_id": "o.increment_id",
    "created_at": "o.created_at",
    "updated_at": "o.updated_at",
    "status": "o.status",
    "customer_id": "o.customer_id",
    "customer_email": "o.customer_email",
    "customer_firstname": "o.customer_firstname",
    "customer_lastname": "o.customer_lastname",
    "grand_total": "(o.grand_total_cents / 100.0)",
    "base_grand_total": "(o.grand_total_cents / 100.0)",
    "subtotal": "(o.subtotal_cents / 100.0)",
    "total_qty_ordered": "o.total_qty",
}
PRODUCT_FIELDS = {
    "entity_id": "p.id",
    "id": "p.id",
    "sku": "p.sku",
    "name": "p.name",
    "price": "(p.price_cents / 100.0)",
    "created_at": "p.created_at",
    "category_id": "p.category_id",
    "url_key": "p.url_key",
}


def register_rest(app: Flask) -> None:
    for index, prefix in enumerate(PREFIXES):
        app.register_blueprint(bp, url_prefix=prefix, name="rest" if index == 0 else f"rest_{index}")


bp = Blueprint("rest", __name__)


def _error(message: str, status: int, **parameters):
    body: dict = {"message": message}
    if parameters:
        body["parameters"] = parameters
    return jsonify(body), status


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.secret_key, salt="shop-admin-token")


def admin_required(resource: str):
    def decorate(view):
        @functools.wraps(view)
        def wrapper(*args, **kwargs):
            header = request.headers.get("Authorization", "")
            token = header[7:].strip() if header.lower().startswith("bearer ") else ""
            admin_id = None
            if token:
                try:
                    admin_id = _serializer().loads(token, max_age=TOKEN_LIFETIME_S).get("admin")
                except (BadSignature, AttributeError):
                    admin_id = None
            admin = db().execute("SELECT * FROM admin_user WHERE id = ?", (admin_id,)).fetchone() if admin_id else None
            if admin is None:
                return _error(NOT_AUTHORIZED, 401, resources=resource)
            g.admin = admin
            return view(*args, **kwargs)

        return wrapper

    return decorate


@bp.post("/integration/admin/token")
def admin_token():
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or not body.get("username") or not body.get("password"):
        return _error("One or more input exceptions have occurred: username and password are required.", 400)
    admin = db().execute("SELECT * FROM admin_user WHERE username = ?", (str(body["username"]),)).fetchone()
    if admin is None or not verify_password(admin["password_hash"], str(body["password"])):
        return _error(SIGN_IN_FAILED, 401)
    return jsonify(_serializer().dumps({"admin": admin["id"]}))


# ---- orders ----


@bp.get("/orders")
@admin_required("Magento_Sales::actions_view")
def list_orders():
    try:
        criteria = parse_search_criteria(request.args)
        where, params, order_by, limit = criteria.sql(ORDER_FIELDS, "o.entity_id ASC")
    except CriteriaError as error:
        return _error(str(error), 400)
    conn = db()
    total = conn.execute(f"SELECT COUNT(*) FROM sales_order o WHERE {where}", params).fetchone()[0]
    rows = conn.execute(f"SELECT o.* FROM sales_order o WHERE {where} ORDER BY {order_by} {limit}", params).fetchall()
    return jsonify(
        {"items": [_order_json(row) for row in rows], "search_criteria": criteria.echo(), "total_count": total}
    )


@bp.get("/orders/<int:entity_id>")
@admin_required("Magento_Sales::actions_view")
def get_order(entity_id: int):
    row = db().execute("SELECT * FROM sales_order WHERE entity_id = ?", (entity_id,)).fetchone()
    if row is None:
        return _error("The entity that was requested doesn't exist. Verify the entity and try again.", 404)
    return jsonify(_order_json(row))


def _order_json(order: sqlite3.Row) -> dict:
    items = db().execute(
        "SELECT * FROM sales_order_item WHERE order_id = ? ORDER BY item_id", (order["entity_id"],)
    ).fetchall()
    address = {
        "address_type": "shipping",
        "firstname": order["ship_firstname"],
        "lastname": order["ship_lastname"],
        "street": [order["ship_street"]],
        "city": order["ship_city"],
        "region": order["ship_region"],
        "postcode": order["ship_postcode"],
        "country_id": order["ship_country_id"],
        "telephone": order["ship_telephone"],
        "email": order["customer_email"],
        "parent_id": order["entity_id"],
    }
    method = SHIPPING_METHODS.get(order["shipping_method"])
    return {
        "entity_id": order["entity_id"],
        "increment_id": order["increment_id"],
        "state": STATUS_STATES.get(order["status"], order["status"]),
        "status": order["status"],
        "created_at": order["created_at"],
        "updated_at": order["updated_at"],
        "customer_id": order["customer_id"],
        "customer_email": order["customer_email"],
        "customer_firstname": order["customer_firstname"],
        "customer_lastname": order["customer_lastname"],
        "customer_is_guest": 0,
        "order_currency_code": "USD",
        "base_currency_code": "USD",
        "subtotal": to_float(order["subtotal_cents"]),
        "base_subtotal": to_float(order["subtotal_cents"]),
        "shipping_amount": to_float(order["shipping_cents"]),
        "base_shipping_amount": to_float(order["shipping_cents"]),
        "grand_total": to_float(order["grand_total_cents"]),
        "base_grand_total": to_float(order["grand_total_cents"]),
        "total_qty_ordered": order["total_qty"],
        "total_item_count": len(items),
        "shipping_description": order["shipping_description"],
        "items": [_order_item_json(item) for item in items],
        "billing_address": {**address, "address_type": "billing"},
        "payment": {
            "method": order["payment_method"],
            "additional_information": [PAYMENT_METHODS.get(order["payment_method"], order["payment_method"])],
        },
        "extension_attributes": {
            "shipping_assignments": [
                {"shipping": {"address": address, "method": method.code if method else order["shipping_method"]}}
            ]
        },
    }


def _order_item_json(item: sqlite3.Row) -> dict:
    options = [{"label": label, "value": value} for label, value in json.loads(item["options_json"]).items()]
    return {
        "item_id": item["item_id"],
        "order_id": item["order_id"],
        "product_id": item["product_id"],
        "sku": item["sku"],
        "name": item["name"],
        "product_type": "configurable" if options else "simple",
        "price": to_float(item["price_cents"]),
        "base_price": to_float(item["price_cents"]),
        "qty_ordered": item["qty_ordered"],
        "row_total": to_float(item["row_total_cents"]),
        "product_options": {"attributes_info": options},
        "options": options,
    }


# ---- products and reviews ----


@bp.get("/products")
@admin_required("Magento_Catalog::products")
def list_products():
    try:
        criteria = parse_search_criteria(request.args)
        where, params, order_by, limit = criteria.sql(PRODUCT_FIELDS, "p.id ASC")
    except CriteriaError as error:
        return _error(str(error), 400)
    conn = db()
    total = conn.execute(f"SELECT COUNT(*) FROM product p WHERE {where}", params).fetchone()[0]
    rows = conn.execute(f"SELECT p.* FROM product p WHERE {where} ORDER BY {order_by} {limit}", params).fetchall()
    return jsonify(
        {"items": [_product_json(row) for row in rows], "search_criteria": criteria.echo(), "total_count": total}
    )


@bp.get("/products/<path:sku>/reviews")
@admin_required("Magento_Review::reviews_all")
def product_reviews(sku: str):
    product = product_by_sku(sku)
    if product is None:
        return _product_missing()
    rows = db().execute(
        "SELECT * FROM review WHERE product_id = ? ORDER BY created_at, id", (product["id"],)
    ).fetchall()
    return jsonify([_review_json(row) for row in rows])


@bp.get("/products/<path:sku>")
@admin_required("Magento_Catalog::products")
def get_product(sku: str):
    product = product_by_sku(sku)
    if product is None:
        return _product_missing()
    return jsonify(_product_json(product))


@bp.get("/categories")
@admin_required("Magento_Catalog::categories")
def categories():
    tree = category_tree()

    def node(category, level: int) -> dict:
        return {
            "id": category.id,
            "parent_id": category.parent_id or 2,
            "name": category.name,
            "is_active": True,
            "level": level,
            "children_data": [node(child, level + 1) for child in category.children],
        }

    return jsonify({"id": 2, "parent_id": 1, "name": "Default Category", "is_active": True, "level": 1,
                    "children_data": [node(top, 2) for top in tree.tops]})


def _product_missing():
    return _error("The product that was requested doesn't exist. Verify the product and try again.", 404)


def _product_json(product: sqlite3.Row) -> dict:
    tree = category_tree()
    category = tree.by_id[product["category_id"]]
    category_ids = [str(c) for c in ([category.parent_id] if category.parent_id else []) + [category.id]]
    options = product_options(product["id"])
    summary = rating_summary(product["id"])
    attributes = db().execute(
        "SELECT label, value FROM product_attribute WHERE product_id = ? ORDER BY position", (product["id"],)
    ).fetchall()
    custom = [
        {"attribute_code": "url_key", "value": product["url_key"]},
        {"attribute_code": "description", "value": product["description"]},
        {"attribute_code": "short_description", "value": product["short_description"]},
        {"attribute_code": "category_ids", "value": category_ids},
        {"attribute_code": "brand", "value": product["brand"]},
    ] + [
        {"attribute_code": row["label"].lower().replace(" ", "_"), "value": row["value"]}
        for row in attributes
        if row["label"] != "Brand"
    ]
    return {
        "id": product["id"],
        "sku": product["sku"],
        "name": product["name"],
        "attribute_set_id": 4,
        "price": to_float(product["price_cents"]),
        "status": 1,
        "visibility": 4,
        "type_id": "configurable" if options else "simple",
        "created_at": product["created_at"],
        "updated_at": product["created_at"],
        "extension_attributes": {
            "website_ids": [1],
            "category_links": [{"position": product["position"], "category_id": c} for c in category_ids],
            "stock_item": {"qty": product["stock_qty"], "is_in_stock": product["stock_qty"] > 0},
            "configurable_product_options": [
                {
                    "label": option.name,
                    "position": position,
                    "values": [{"value_index": index, "label": value} for index, value in enumerate(option.values)],
                }
                for position, option in enumerate(options)
            ],
            "review_summary": {"reviews_count": summary.count, "rating_summary": summary.percent},
        },
        "custom_attributes": custom,
    }


def _review_json(review: sqlite3.Row) -> dict:
    stars = review["rating"]
    return {
        "id": review["id"],
        "title": review["title"],
        "detail": review["detail"],
        "nickname": review["nickname"],
        "customer_id": review["customer_id"],
        "ratings": [
            {
                "id": review["id"],
                "review_id": review["id"],
                "attribute_code": RATING_NAME,
                "value": stars,
                "rating_id": RATING_ID,
                "rating_name": RATING_NAME,
                "percent": stars * 20,
            }
        ],
        "review_entity": "product",
        "review_type": 2 if review["customer_id"] else 1,
        "review_status": 1,
        "created_at": review["created_at"],
        "entity_pk_value": review["product_id"],
        "store_id": 1,
        "stores": [1],
    }
