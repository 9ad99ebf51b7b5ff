"""Cart and checkout: /checkout/cart/, adding, updating, removing, placing an order."""

from __future__ import annotations

import re

from flask import Blueprint, abort, flash, redirect, render_template, request, session

from tasks.sandbox.sites.shop import cart
from tasks.sandbox.sites.shop.accounts import (
    current_customer,
    default_address,
    login_required,
    referrer_path,
    safe_local_path,
)
from tasks.sandbox.sites.shop.addresses import ADDRESS_FORM, COUNTRIES, address_values, read_address
from tasks.sandbox.sites.shop.catalog import product_by_id, product_options, product_url, validate_options
from tasks.sandbox.sites.shop.orders import StockChanged, place_order
from tasks.sandbox.sites.shop.pricing import (
    FLAT_RATE,
    FREE_SHIPPING,
    FREE_SHIPPING_MIN_SUBTOTAL_CENTS,
    PAYMENT_METHODS,
    SHIPPING_METHODS,
    free_shipping_available,
    shipping_cost_cents,
)

bp = Blueprint("cart", __name__)

CART_PATH = "/checkout/cart/"
CHECKOUT_PATH = "/checkout/"
OPTIONS_NEEDED = "You need to choose options for your item."


@bp.get(CART_PATH)
def view_cart():
    lines = cart.lines()
    subtotal = cart.subtotal_cents(lines)
    total_qty = sum(line.qty for line in lines)
    return render_template(
        "cart.html",
        lines=lines,
        subtotal=subtotal,
        shipping_estimate=shipping_cost_cents(FLAT_RATE, total_qty),
        flat_rate=FLAT_RATE,
    )


@bp.post("/checkout/cart/add/")
def add_to_cart():
    product = product_by_id(_int(request.form.get("product"), 0))
    if product is None:
        abort(404)
    back_to_product = product_url(product)
    chosen = {option.name: request.form.get(option.field, "") for option in product_options(product["id"])}
    options, missing = validate_options(product["id"], chosen)
    qty = _int(request.form.get("qty", "1"), None)
    if missing or qty is None or qty < 1:
        session["cart_form"] = {"product_id": product["id"], "qty": request.form.get("qty", "1"), "options": chosen,
                                "missing": missing}
        flash(OPTIONS_NEEDED if missing else "Please enter a quantity greater than 0.", "error")
        return redirect(back_to_product)
    try:
        cart.add(product, qty, options)
    except cart.CartError as error:
        session["cart_form"] = {"product_id": product["id"], "qty": qty, "options": chosen, "missing": []}
        flash(str(error), "error")
        return redirect(back_to_product)
    flash(f"You added {product['name']} to your shopping cart.", "success")
    return redirect(safe_local_path(request.form.get("return_to"), referrer_path(back_to_product)))


@bp.post("/checkout/cart/updatePost/")
def update_cart():
    quantities: dict[int, int] = {}
    for key, value in request.form.items():
        match = re.fullmatch(r"cart\[(\d+)\]\[qty\]", key)
        if match:
            qty = _int(value.strip(), None)
            if qty is None:
                flash("Please enter a valid number in the Qty field.", "error")
                return redirect(CART_PATH)
            quantities[int(match.group(1))] = qty
    try:
        cart.set_quantities(quantities)
    except cart.CartError as error:
        flash(str(error), "error")
    return redirect(CART_PATH)


@bp.post("/checkout/cart/delete/")
def remove_from_cart():
    line = cart.remove(_int(request.form.get("id"), 0))
    if line is not None:
        flash(f"You removed {line.product['name']} from your shopping cart.", "success")
    return redirect(CART_PATH)


@bp.get(CHECKOUT_PATH)
@login_required
def checkout():
    lines = cart.lines()
    if not lines:
        flash("Your shopping cart is empty. Add a product before checking out.", "notice")
        return redirect(CART_PATH)
    customer = current_customer()
    saved = session.pop("checkout_form", None)
    values = saved["values"] if saved else address_values(default_address(customer["id"]))
    errors = saved["errors"] if saved else {}
    subtotal = cart.subtotal_cents(lines)
    total_qty = sum(line.qty for line in lines)
    free_ok = free_shipping_available(subtotal)
    selected = saved["shipping_method"] if saved else FLAT_RATE.code
    methods = [
        {"method": FLAT_RATE, "cost": shipping_cost_cents(FLAT_RATE, total_qty), "available": True,
         "note": "$5.00 per item"},
        {"method": FREE_SHIPPING, "cost": 0, "available": free_ok,
         "note": "" if free_ok else f"for orders of ${FREE_SHIPPING_MIN_SUBTOTAL_CENTS // 100} or more"},
    ]
    return render_template(
        "checkout.html",
        lines=lines,
        subtotal=subtotal,
        values=values,
        errors=errors,
        address_form=ADDRESS_FORM,
        countries=COUNTRIES,
        methods=methods,
        selected_method=selected,
        payment_methods=PAYMENT_METHODS,
    )


@bp.post(CHECKOUT_PATH)
@login_required
def place_order_post():
    lines = cart.lines()
    if not lines:
        return redirect(CART_PATH)
    customer = current_customer()
    values, errors = read_address(request.form)
    method = SHIPPING_METHODS.get(request.form.get("shipping_method", ""))
    subtotal = cart.subtotal_cents(lines)
    if method is None:
        errors["shipping_method"] = "Please choose a shipping method."
    elif method is FREE_SHIPPING and not free_shipping_available(subtotal):
        errors["shipping_method"] = "Free Shipping is only available for larger orders; choose another method."
    if request.form.get("payment[method]", "checkmo") not in PAYMENT_METHODS:
        errors["payment[method]"] = "Please choose a payment method."
    if errors:
        session["checkout_form"] = {
            "values": values, "errors": errors, "shipping_method": request.form.get("shipping_method", "")
        }
        flash("Please correct the highlighted fields and place the order again.", "error")
        return redirect(CHECKOUT_PATH)
    try:
        entity_id = place_order(customer, values, method, lines)
    except StockChanged as error:
        flash(str(error), "error")
        return redirect(CART_PATH)
    session["last_order_id"] = entity_id
    return redirect("/checkout/onepage/success/")


@bp.get("/checkout/onepage/success/")
@login_required
def success():
    entity_id = session.get("last_order_id")
    if not entity_id:
        return redirect(CART_PATH)
    return render_template("success.html", entity_id=entity_id, increment_id=f"{entity_id:09d}")


def _int(text, default):
    try:
        return int(text)
    except (TypeError, ValueError):
        return default
