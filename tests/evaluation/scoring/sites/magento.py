"""A local stand-in for the WebArena Magento deployment: storefront login, admin login, the REST
calls the helpers make, and the order and product pages they read, with Magento's field names,
selectors and JSON shapes. Tests only."""

from __future__ import annotations

import base64
import secrets

from flask import Flask, abort, jsonify, redirect, request, session

CUSTOMER = ("emma.lopez@gmail.com", "Password.123")
ADMIN = ("admin", "admin1234")

ORDERS = [  # increment ids as Magento writes them (zero-padded)
    {"entity_id": 180, "increment_id": "000000180", "created_at": "2023-03-01 10:00:00", "status": "complete"},
    {"entity_id": 187, "increment_id": "000000187", "created_at": "2023-05-12 09:30:00", "status": "pending"},
    {"entity_id": 183, "increment_id": "000000183", "created_at": "2023-04-02 17:45:00", "status": "canceled"},
]
REVIEWS = {  # oldest first, as the API lists them
    "B07X": [
        {"id": 1, "title": "Fine", "detail": "It works.", "nickname": "Sam",
         "ratings": [{"vote_id": 1, "rating_id": 4, "rating_name": "Rating", "percent": 60, "value": 3}]},
        {"id": 9, "title": "Great kettle", "detail": "Boils fast, quiet.", "nickname": "Emma Lopez",
         "ratings": [{"vote_id": 9, "rating_id": 4, "rating_name": "Rating", "percent": 80, "value": 4}]},
    ],
}  # fmt: skip
PRODUCTS = {"B07X": {"id": 12, "sku": "B07X", "name": "Steel Kettle", "price": 24.99, "url_key": "steel-kettle"}}

_LOGIN_PAGE = """<!doctype html><html><head><title>Customer Login</title></head><body>
<main id="maincontent"><h1 class="page-title"><span class="base">Customer Login</span></h1>
<div class="block block-customer-login"><div class="block-title"><strong>Registered Customers</strong></div>
<form class="form form-login" action="/customer/account/loginPost/" method="post" id="login-form">
<input name="form_key" type="hidden" value="{form_key}">
<fieldset class="fieldset login">
<div class="field email required"><label class="label" for="email"><span>Email</span></label>
<div class="control"><input name="login[username]" autocomplete="off" id="email" type="email" class="input-text"
 title="Email"></div></div>
<div class="field password required"><label for="pass" class="label"><span>Password</span></label>
<div class="control"><input name="login[password]" type="password" autocomplete="off" class="input-text" id="pass"
 title="Password"></div></div>
<div class="actions-toolbar"><div class="primary"><button type="submit" class="action login primary" name="send"
 id="send2"><span>Sign In</span></button></div></div>
</fieldset></form></div>{message}</main></body></html>"""

_ADMIN_LOGIN_PAGE = """<!doctype html><html><head><title>Magento Admin</title></head><body>
<section class="page-wrapper"><form method="post" action="/admin/admin/" id="login-form">
<fieldset class="admin__fieldset"><legend class="admin__legend"><span>Welcome, please sign in</span></legend>
<input name="form_key" type="hidden" value="{form_key}">
<div class="admin__field _required field-username"><label for="username" class="admin__field-label">
<span>Username</span></label><div class="admin__field-control"><input id="username" class="admin__control-text"
 type="text" name="login[username]" placeholder="user name" autocomplete="off"></div></div>
<div class="admin__field _required field-password"><label for="login" class="admin__field-label">
<span>Password</span></label><div class="admin__field-control"><input id="login" class="admin__control-text"
 type="password" name="login[password]" placeholder="password" autocomplete="off"></div></div>
<div class="form-actions"><div class="actions"><button class="action-login action-primary">
<span>Sign in</span></button></div></div></fieldset></form>{message}</section></body></html>"""

_SIGN_IN_ERROR = '<div class="message-error">The account sign-in was incorrect.</div>'

_ORDER_PAGE = """<!doctype html><html><head><title>Order # {number}</title></head><body><main id="maincontent">
<h1 class="page-title"><span class="base">Order # {number}</span></h1>
<div class="table-wrapper order-items"><table class="data table table-order-items" id="my-orders-table">
<caption class="table-caption">Items Ordered</caption>
<thead><tr><th class="col name">Product Name</th><th class="col sku">SKU</th><th class="col price">Price</th>
<th class="col qty">Qty</th><th class="col subtotal">Subtotal</th></tr></thead>
<tbody><tr id="order-item-row-1"><td class="col name" data-th="Product Name"><strong
 class="product name product-item-name">Steel Kettle</strong><dl class="item-options"><dt>Color</dt><dd>Silver</dd>
<dt>Size</dt><dd>1.7 L</dd></dl></td><td class="col sku" data-th="SKU">B07X</td>
<td class="col price" data-th="Price"><span class="price">$24.99</span></td>
<td class="col qty" data-th="Qty"><ul class="items-qty"><li class="item">
<span class="title">Ordered</span><span class="content">2</span></li></ul></td>
<td class="col subtotal" data-th="Subtotal"><span
 class="price">$49.98</span></td></tr></tbody>
<tbody><tr id="order-item-row-2"><td class="col name" data-th="Product Name"><strong
 class="product name product-item-name">Tea Towel</strong></td><td class="col sku" data-th="SKU">T100</td>
<td class="col price" data-th="Price"><span class="price">$5.00</span></td>
<td class="col qty" data-th="Qty"><ul class="items-qty"><li class="item">
<span class="title">Ordered</span><span class="content">1</span></li></ul></td>
<td class="col subtotal" data-th="Subtotal"><span
 class="price">$5.00</span></td></tr></tbody>
</table></div></main></body></html>"""

_PRODUCT_PAGE = """<!doctype html><html><head><title>{name}</title></head><body>
<main id="maincontent" class="page-main"><div class="columns"><div class="column main">
<div class="product-info-main"><div class="page-title-wrapper product"><h1 class="page-title">
<span class="base">{name}</span></h1></div>
<div class="product-reviews-summary"><div class="rating-summary"><div class="rating-result" title="80%">
<span style="width:80%"><span>80%</span></span></div></div></div>
<div class="product-info-price"><div class="price-box price-final_price" data-role="priceBox">
<span class="price-container price-final_price tax weee"><span class="price-wrapper" id="product-price-12"
 data-price-amount="{price}" data-price-type="finalPrice">${price}</span></span></div></div></div>
<div class="product info detailed"><div class="data item title" id="tab-label-reviews">
<a class="data switch" id="tab-label-reviews-title" href="#reviews">Reviews 2</a></div>
<div class="data item content" id="additional"><table id="productDetails_detailBullets_sections1"><tbody>
<tr><th class="col label">Product Dimensions</th><td class="col data">8 x 6 x 9 inches</td></tr>
<tr><th class="col label">Item Weight</th><td class="col data">2.2 pounds</td></tr>
<tr><th class="col label">Manufacturer</th><td class="col data">KitchenCo</td></tr>
</tbody></table></div></div></div></div></main></body></html>"""


def create_app() -> Flask:
    app = Flask(__name__)
    app.secret_key = secrets.token_hex(16)
    app.config["SESSION_COOKIE_NAME"] = "PHPSESSID"
    tokens: set[str] = set()

    def form_key() -> str:
        session.setdefault("form_key", secrets.token_hex(8))
        return session["form_key"]

    def form_key_ok() -> bool:
        return request.form.get("form_key") == session.get("form_key")

    # ---- storefront ----
    @app.get("/customer/account/login/")
    @app.get("/customer/account/login/referer/<referer>/")
    def customer_login(referer: str | None = None):
        message = _SIGN_IN_ERROR if session.pop("error", 0) else ""
        return _LOGIN_PAGE.format(form_key=form_key(), message=message)

    @app.post("/customer/account/loginPost/")
    def customer_login_post():
        given = (request.form.get("login[username]"), request.form.get("login[password]"))
        if form_key_ok() and given == CUSTOMER:
            session["customer"] = CUSTOMER[0]
            return redirect("/customer/account/")
        session["error"] = 1
        return redirect("/customer/account/login/")

    def customer_only():
        if "customer" not in session:
            referer = base64.urlsafe_b64encode(request.url.encode()).decode().rstrip("=")
            return redirect(f"/customer/account/login/referer/{referer}/")
        return None

    @app.get("/customer/account/")
    def account():
        return customer_only() or "<html><head><title>My Account</title></head><body>My Account</body></html>"

    @app.get("/wishlist/")
    def wishlist():
        return customer_only() or "<html><head><title>My Wish List</title></head><body>My Wish List</body></html>"

    @app.get("/sales/order/view/order_id/<int:order_id>/")
    def order_page(order_id: int):
        if not any(order["entity_id"] == order_id for order in ORDERS):
            abort(404)
        return customer_only() or _ORDER_PAGE.format(number=f"{order_id:09d}")

    @app.get("/<url_key>.html")
    def product_page(url_key: str):
        for product in PRODUCTS.values():
            if product["url_key"] == url_key:
                return _PRODUCT_PAGE.format(name=product["name"], price=product["price"])
        abort(404)

    # ---- admin (shows its form in place at any admin URL while logged out) ----
    @app.route("/admin", methods=["GET"])
    @app.route("/admin/<path:rest>", methods=["GET"])
    def admin(rest: str = ""):
        if "admin" not in session:
            message = _SIGN_IN_ERROR if session.pop("admin_error", 0) else ""
            return _ADMIN_LOGIN_PAGE.format(form_key=form_key(), message=message)
        if rest.rstrip("/") in ("", "admin", "dashboard", "admin/dashboard"):
            return ('<html><head><title>Dashboard / Magento Admin</title></head><body>'
                    '<h1 class="page-title">Dashboard</h1></body></html>')  # fmt: skip
        abort(404)

    @app.post("/admin/admin/")
    def admin_login_post():
        given = (request.form.get("login[username]"), request.form.get("login[password]"))
        if form_key_ok() and given == ADMIN:
            session["admin"] = ADMIN[0]
            return redirect("/admin/admin/dashboard/")
        session["admin_error"] = 1
        return redirect("/admin/admin/")

    # ---- REST ----
    def bearer_ok() -> bool:
        return request.headers.get("Authorization", "").removeprefix("Bearer ") in tokens

    def unauthorized():
        return jsonify({"message": "The consumer isn't authorized to access %resources.",
                        "parameters": {"resources": "Magento_Sales::actions_view"}}), 401  # fmt: skip

    @app.post("/rest/default/V1/integration/admin/token")
    def admin_token():
        body = request.get_json(silent=True) or {}
        if (body.get("username"), body.get("password")) != ADMIN:
            return jsonify({"message": "The account sign-in was incorrect or your account is disabled temporarily. "
                            "Please wait and try again later."}), 401  # fmt: skip
        token = secrets.token_hex(16)
        tokens.add(token)
        return jsonify(token)

    @app.get("/rest/V1/orders")
    def orders():
        if not bearer_ok():
            return unauthorized()
        field = request.args.get("searchCriteria[sortOrders][0][field]", "entity_id")
        descending = request.args.get("searchCriteria[sortOrders][0][direction]", "ASC") == "DESC"
        size = int(request.args.get("searchCriteria[pageSize]", "20"))
        items = sorted(ORDERS, key=lambda order: order[field], reverse=descending)[:size]
        return jsonify({"items": items, "search_criteria": {"page_size": size}, "total_count": len(ORDERS)})

    @app.get("/rest/V1/products/<sku>/reviews")
    def reviews(sku: str):
        return jsonify(REVIEWS.get(sku, [])) if bearer_ok() else unauthorized()

    @app.get("/rest/V1/products/<sku>")
    def product(sku: str):
        if not bearer_ok():
            return unauthorized()
        found = PRODUCTS.get(sku)
        if found is None:
            missing = "The product that was requested doesn't exist. Verify the product and try again."
            return jsonify({"message": missing}), 404
        return jsonify({"id": found["id"], "sku": sku, "name": found["name"], "price": found["price"],
                        "custom_attributes": [{"attribute_code": "description", "value": "<p>Steel.</p>"},
                                              {"attribute_code": "url_key", "value": found["url_key"]}]})  # fmt: skip

    return app
