"""Customer account: sign in and out, create an account, dashboard, account details, address book."""

from __future__ import annotations

import re

from flask import Blueprint, abort, flash, redirect, render_template, request, session

from tasks.sandbox.sites.shop.accounts import (
    LOGIN_FAILED,
    LOGIN_PATH,
    addresses,
    authenticate,
    current_customer,
    default_address,
    login_required,
    safe_local_path,
    sign_in,
    sign_out,
)
from tasks.sandbox.sites.shop.addresses import ADDRESS_FORM, COUNTRIES, address_values, read_address
from tasks.sandbox.sites.shop.cart import merge_guest_cart
from tasks.sandbox.sites.shop.db import db, now_utc
from tasks.sandbox.sites.shop.orders import customer_orders
from tasks.sandbox.sites.shop.passwords import hash_password, verify_password

bp = Blueprint("customer", __name__)

ACCOUNT_PATH = "/customer/account/"
ADDRESS_BOOK_PATH = "/customer/address/"
EMAIL_PATTERN = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
MIN_PASSWORD_LENGTH = 8


def _sign_in(customer) -> None:
    """Signed in, and the lines a guest put in the cart moved into the customer's cart (as Magento does)."""
    sign_in(customer)
    merge_guest_cart(customer["id"])


@bp.get(LOGIN_PATH)
def login():
    if current_customer() is not None:
        return redirect(ACCOUNT_PATH)
    return render_template("login.html", email=session.pop("login_email", ""))


@bp.post("/customer/account/loginPost/")
def login_post():
    email = request.form.get("login[username]", "").strip()
    password = request.form.get("login[password]", "")
    if not email or not password:
        flash("A login and a password are required.", "error")
        session["login_email"] = email
        return redirect(LOGIN_PATH)
    customer = authenticate(email, password)
    if customer is None:
        flash(LOGIN_FAILED, "error")
        session["login_email"] = email
        return redirect(LOGIN_PATH)
    _sign_in(customer)
    return redirect(safe_local_path(session.pop("after_login", None), ACCOUNT_PATH))


@bp.get("/customer/account/logout/")
def logout():
    sign_out()
    return redirect("/customer/account/logoutSuccess/")


@bp.get("/customer/account/logoutSuccess/")
def logout_success():
    return render_template("logout.html")


@bp.get("/customer/account/create/")
def create_account():
    if current_customer() is not None:
        return redirect(ACCOUNT_PATH)
    return render_template("create_account.html", values=session.pop("create_form", {}))


@bp.post("/customer/account/createpost/")
def create_account_post():
    values = {name: request.form.get(name, "").strip() for name in ("firstname", "lastname", "email")}
    password = request.form.get("password", "")
    error = None
    if not all(values.values()):
        error = "Please fill in every required field."
    elif not EMAIL_PATTERN.fullmatch(values["email"]):
        error = "Please enter a valid email address (Ex: johndoe@domain.com)."
    elif len(password) < MIN_PASSWORD_LENGTH:
        error = f"Minimum length of the password is {MIN_PASSWORD_LENGTH}."
    elif password != request.form.get("password_confirmation", ""):
        error = "Please enter the same value again: the passwords do not match."
    elif db().execute("SELECT 1 FROM customer WHERE email = ?", (values["email"],)).fetchone():
        error = "There is already an account with this email address."
    if error:
        flash(error, "error")
        session["create_form"] = values
        return redirect("/customer/account/create/")
    conn = db()
    with conn:
        customer_id = conn.execute(
            "INSERT INTO customer (email, firstname, lastname, password_hash, created_at) VALUES (?, ?, ?, ?, ?)",
            (values["email"], values["firstname"], values["lastname"], hash_password(password), now_utc()),
        ).lastrowid
    _sign_in(conn.execute("SELECT * FROM customer WHERE id = ?", (customer_id,)).fetchone())
    flash("Thank you for registering with One Stop Market.", "success")
    return redirect(ACCOUNT_PATH)


@bp.get(ACCOUNT_PATH)
@login_required
def dashboard():
    customer = current_customer()
    return render_template(
        "account_dashboard.html",
        address=default_address(customer["id"]),
        recent_orders=customer_orders(customer["id"], limit=5),
        countries=COUNTRIES,
    )


@bp.get("/customer/account/edit/")
@login_required
def edit_account():
    return render_template("account_edit.html", change_email="changeemail" in request.args,
                           change_password="changepass" in request.args)


@bp.post("/customer/account/editPost/")
@login_required
def edit_account_post():
    customer = current_customer()
    firstname = request.form.get("firstname", "").strip()
    lastname = request.form.get("lastname", "").strip()
    change_email = request.form.get("change_email") == "1"
    change_password = request.form.get("change_password") == "1"
    email = request.form.get("email", "").strip()
    current_password = request.form.get("current_password", "")
    new_password = request.form.get("password", "")
    error = None
    if not firstname or not lastname:
        error = "First Name and Last Name are required."
    elif (change_email or change_password) and not verify_password(customer["password_hash"], current_password):
        error = "The password doesn't match this account. Verify the password and try again."
    elif change_email and not EMAIL_PATTERN.fullmatch(email):
        error = "Please enter a valid email address (Ex: johndoe@domain.com)."
    elif change_email and db().execute(
        "SELECT 1 FROM customer WHERE email = ? AND id != ?", (email, customer["id"])
    ).fetchone():
        error = "A customer with the same email address already exists."
    elif change_password and len(new_password) < MIN_PASSWORD_LENGTH:
        error = f"Minimum length of the password is {MIN_PASSWORD_LENGTH}."
    elif change_password and new_password != request.form.get("password_confirmation", ""):
        error = "Please enter the same value again: the passwords do not match."
    if error:
        flash(error, "error")
        return redirect("/customer/account/edit/")
    conn = db()
    with conn:
        conn.execute(
            "UPDATE customer SET firstname = ?, lastname = ? WHERE id = ?", (firstname, lastname, customer["id"])
        )
        if change_email:
            conn.execute("UPDATE customer SET email = ? WHERE id = ?", (email, customer["id"]))
        if change_password:
            conn.execute(
                "UPDATE customer SET password_hash = ? WHERE id = ?", (hash_password(new_password), customer["id"])
            )
    flash("You saved the account information.", "success")
    return redirect(ACCOUNT_PATH)


@bp.get(ADDRESS_BOOK_PATH)
@login_required
def address_book():
    return render_template("address_book.html", addresses=addresses(current_customer()["id"]), countries=COUNTRIES)


@bp.get("/customer/address/new/")
@login_required
def new_address():
    return _address_form(None)


@bp.get("/customer/address/edit/id/<int:address_id>/")
@login_required
def edit_address(address_id: int):
    return _address_form(_own_address(address_id))


def _address_form(address):
    saved = session.pop("address_form", None)
    if saved and saved.get("address_id") == (address["id"] if address else None):
        values, errors, defaults = saved["values"], saved["errors"], saved["defaults"]
    else:
        values, errors = address_values(address), {}
        is_first = not addresses(current_customer()["id"])
        defaults = {
            "shipping": bool(address["is_default_shipping"]) if address else is_first,
            "billing": bool(address["is_default_billing"]) if address else is_first,
        }
    return render_template(
        "address_form.html", address=address, values=values, errors=errors, defaults=defaults,
        address_form=ADDRESS_FORM, countries=COUNTRIES,
    )


@bp.post("/customer/address/formPost/")
@login_required
def save_address():
    customer = current_customer()
    address_id = request.form.get("id", type=int)
    address = _own_address(address_id) if address_id else None
    values, errors = read_address(request.form)
    defaults = {
        "shipping": request.form.get("default_shipping") == "1",
        "billing": request.form.get("default_billing") == "1",
    }
    if errors:
        session["address_form"] = {"address_id": address_id, "values": values, "errors": errors, "defaults": defaults}
        flash("Please correct the highlighted fields.", "error")
        return redirect(f"/customer/address/edit/id/{address_id}/" if address_id else "/customer/address/new/")
    conn = db()
    with conn:
        columns = [key for _f, key, _l in ADDRESS_FORM]
        if address:
            conn.execute(
                f"UPDATE customer_address SET {', '.join(f'{c} = ?' for c in columns)} WHERE id = ?",
                [values[c] for c in columns] + [address["id"]],
            )
            saved_id = address["id"]
        else:
            marks = ", ".join("?" * len(columns))
            saved_id = conn.execute(
                f"INSERT INTO customer_address (customer_id, {', '.join(columns)}) VALUES (?, {marks})",
                [customer["id"]] + [values[c] for c in columns],
            ).lastrowid
        for kind in ("shipping", "billing"):
            if defaults[kind]:
                conn.execute(f"UPDATE customer_address SET is_default_{kind} = (id = ?) WHERE customer_id = ?",
                             (saved_id, customer["id"]))
    flash("You saved the address.", "success")
    return redirect(ADDRESS_BOOK_PATH)


@bp.post("/customer/address/delete/")
@login_required
def delete_address():
    address = _own_address(request.form.get("id", type=int) or 0)
    if address["is_default_shipping"] or address["is_default_billing"]:
        flash("A default address cannot be deleted; make another address the default first.", "error")
        return redirect(ADDRESS_BOOK_PATH)
    conn = db()
    with conn:
        conn.execute("DELETE FROM customer_address WHERE id = ?", (address["id"],))
    flash("You deleted the address.", "success")
    return redirect(ADDRESS_BOOK_PATH)


def _own_address(address_id: int):
    row = db().execute(
        "SELECT * FROM customer_address WHERE id = ? AND customer_id = ?", (address_id, current_customer()["id"])
    ).fetchone()
    if row is None:
        abort(404)
    return row
