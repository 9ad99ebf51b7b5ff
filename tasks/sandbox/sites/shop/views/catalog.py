"""Home page, category and product pages, search results, product pictures."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, request, session

from tasks.sandbox.sites.shop.accounts import current_customer
from tasks.sandbox.sites.shop.catalog import (
    Category,
    category_tree,
    product_attributes,
    product_by_sku,
    product_by_url_key,
    product_options,
    rating_summaries,
    rating_summary,
)
from tasks.sandbox.sites.shop.db import db
from tasks.sandbox.sites.shop.listing import (
    PAGE_SIZES,
    SORT_LABELS,
    ListingRequest,
    build_listing,
    category_product_ids,
    search,
)
from tasks.sandbox.sites.shop.product_image import product_svg

bp = Blueprint("catalog", __name__)

CATEGORY_SORTS = ("position", "name", "price")
SEARCH_SORTS = ("relevance", "name", "price")
SEARCH_PATH = "/catalogsearch/result/"


@bp.get("/")
def home():
    featured = db().execute("SELECT * FROM product WHERE featured = 1 ORDER BY category_id").fetchall()
    return render_template(
        "home.html", featured=featured, ratings=rating_summaries([p["id"] for p in featured]), tops=category_tree().tops
    )


@bp.get(SEARCH_PATH)
def search_results():
    query = request.args.get("q", "").strip()
    scores = search(query) if query else {}
    listing_request = ListingRequest.from_args(request.args, SEARCH_SORTS, {"q": query})
    listing = build_listing(listing_request, SEARCH_PATH, list(scores), scores, category_facets=category_tree().tops)
    return render_template(
        "listing.html",
        title=f"Search results for: '{query}'",
        listing=listing,
        query=query,
        category=None,
        sort_labels=SORT_LABELS,
        page_sizes=PAGE_SIZES,
    )


@bp.get("/<path:url_path>.html")
def category_or_product(url_path: str):
    tree = category_tree()
    category = tree.by_path.get(url_path)
    if category is not None:
        return _category_page(category)
    product = product_by_url_key(url_path) if "/" not in url_path else None
    if product is None:
        abort(404)
    return _product_page(product)


def _category_page(category: Category):
    listing_request = ListingRequest.from_args(request.args, CATEGORY_SORTS)
    listing = build_listing(
        listing_request, category.url, category_product_ids(category), category_facets=category.children or None
    )
    tree = category_tree()
    parent = tree.by_id[category.parent_id] if category.parent_id else None
    return render_template(
        "listing.html",
        title=category.name,
        listing=listing,
        query=None,
        category=category,
        parent=parent,
        sort_labels=SORT_LABELS,
        page_sizes=PAGE_SIZES,
    )


def _product_page(product):
    tree = category_tree()
    category = tree.by_id[product["category_id"]]
    customer = current_customer()
    reviews = db().execute(
        "SELECT * FROM review WHERE product_id = ? ORDER BY created_at DESC, id DESC", (product["id"],)
    ).fetchall()
    # What the shopper sent last time, when the cart or the review form sent them back with an error.
    cart_form = session.pop("cart_form", None)
    if not cart_form or cart_form.get("product_id") != product["id"]:
        cart_form = {"qty": 1, "options": {}, "missing": []}
    review_form = session.pop("review_form", None)
    if not review_form or review_form.get("product_id") != product["id"]:
        review_form = {"nickname": customer["firstname"] if customer else "", "title": "", "detail": "", "rating": ""}
    in_wishlist = bool(
        customer
        and db().execute(
            "SELECT 1 FROM wishlist_item WHERE customer_id = ? AND product_id = ?", (customer["id"], product["id"])
        ).fetchone()
    )
    return render_template(
        "product.html",
        title=product["name"],
        product=product,
        category=category,
        parent=tree.by_id[category.parent_id] if category.parent_id else None,
        options=product_options(product["id"]),
        attributes=product_attributes(product["id"]),
        summary=rating_summary(product["id"]),
        reviews=reviews,
        cart_form=cart_form,
        review_form=review_form,
        in_wishlist=in_wishlist,
        description_paragraphs=product["description"].split("\n\n"),
    )


@bp.get("/media/catalog/product/<sku>.svg")
def product_picture(sku: str):
    product = product_by_sku(sku)
    if product is None:
        abort(404)
    category = category_tree().top_of(product["category_id"])
    response = Response(product_svg(product, category.name), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response
