"""Product reviews: writing one, and "My Product Reviews"."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, session

from tasks.sandbox.sites.shop.accounts import current_customer, login_required
from tasks.sandbox.sites.shop.catalog import product_by_id, product_url, rating_summary
from tasks.sandbox.sites.shop.db import db, now_utc

bp = Blueprint("reviews", __name__)

# Magento's id of the single "Rating" rating; the form's radios are named ratings[4].
RATING_ID = 4
RATING_FIELD = f"ratings[{RATING_ID}]"


@bp.post("/review/product/post/id/<int:product_id>/")
def post_review(product_id: int):
    product = product_by_id(product_id)
    if product is None:
        abort(404)
    values = {name: request.form.get(name, "").strip() for name in ("nickname", "title", "detail")}
    rating = request.form.get(RATING_FIELD, "")
    missing = [label for name, label in (("nickname", "Nickname"), ("title", "Summary"), ("detail", "Review"))
               if not values[name]]
    if rating not in {"1", "2", "3", "4", "5"}:
        missing.insert(0, "Rating")
    back = product_url(product) + "#reviews"
    if missing:
        session["review_form"] = {"product_id": product_id, **values, "rating": rating}
        flash(f"Please fill in: {', '.join(missing)}. We can't post the review without them.", "error")
        return redirect(back)
    customer = current_customer()
    conn = db()
    with conn:
        conn.execute(
            "INSERT INTO review (product_id, customer_id, nickname, title, detail, rating, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (product_id, customer["id"] if customer else None, values["nickname"], values["title"], values["detail"],
             int(rating), now_utc()),
        )
    flash("You saved the product review.", "success")
    return redirect(back)


@bp.get("/review/customer/")
@login_required
def my_reviews():
    reviews = db().execute(
        "SELECT r.*, p.name AS product_name, p.url_key FROM review r JOIN product p ON p.id = r.product_id "
        "WHERE r.customer_id = ? ORDER BY r.created_at DESC, r.id DESC",
        (current_customer()["id"],),
    ).fetchall()
    return render_template("my_reviews.html", reviews=reviews)


@bp.get("/review/customer/view/id/<int:review_id>/")
@login_required
def my_review(review_id: int):
    review = db().execute(
        "SELECT * FROM review WHERE id = ? AND customer_id = ?", (review_id, current_customer()["id"])
    ).fetchone()
    if review is None:
        abort(404)
    product = product_by_id(review["product_id"])
    return render_template("my_review.html", review=review, product=product, summary=rating_summary(product["id"]))
