"""Reading the catalog: categories, products, options, rating summaries."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from tasks.sandbox.sites.shop.db import db, static_cache


@dataclass
class Category:
    id: int
    parent_id: int | None
    name: str
    url_path: str
    description: str
    children: list["Category"] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"/{self.url_path}.html"


@dataclass
class CategoryTree:
    tops: list[Category]
    by_id: dict[int, Category]
    by_path: dict[str, Category]

    def leaf_ids(self, category: Category) -> list[int]:
        return [child.id for child in category.children] or [category.id]

    def top_of(self, category_id: int) -> Category:
        category = self.by_id[category_id]
        return self.by_id[category.parent_id] if category.parent_id else category


def category_tree() -> CategoryTree:
    cache = static_cache()
    if "categories" not in cache:
        rows = db().execute("SELECT * FROM category ORDER BY parent_id IS NOT NULL, position").fetchall()
        by_id: dict[int, Category] = {}
        tops: list[Category] = []
        for row in rows:
            category = Category(row["id"], row["parent_id"], row["name"], row["url_path"], row["description"])
            by_id[category.id] = category
            if category.parent_id is None:
                tops.append(category)
            else:
                by_id[category.parent_id].children.append(category)
        cache["categories"] = CategoryTree(tops, by_id, {c.url_path: c for c in by_id.values()})
    return cache["categories"]


def product_by_url_key(url_key: str) -> sqlite3.Row | None:
    return db().execute("SELECT * FROM product WHERE url_key = ?", (url_key,)).fetchone()


def product_by_id(product_id: int) -> sqlite3.Row | None:
    return db().execute("SELECT * FROM product WHERE id = ?", (product_id,)).fetchone()


def product_by_sku(sku: str) -> sqlite3.Row | None:
    return db().execute("SELECT * FROM product WHERE sku = ?", (sku,)).fetchone()


def products_by_ids(ids: list[int]) -> dict[int, sqlite3.Row]:
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    return {row["id"]: row for row in db().execute(f"SELECT * FROM product WHERE id IN ({marks})", ids)}


@dataclass
class ProductOption:
    name: str  # "Color"
    values: list[str]

    @property
    def field(self) -> str:
        """Form field name, after Magento's super_attribute[...] fields."""
        return f"super_attribute[{self.name.lower()}]"


def product_options(product_id: int) -> list[ProductOption]:
    rows = db().execute(
        "SELECT o.name, v.value FROM product_option o JOIN product_option_value v ON v.option_id = o.id "
        "WHERE o.product_id = ? ORDER BY o.position, v.position",
        (product_id,),
    ).fetchall()
    options: dict[str, ProductOption] = {}
    for row in rows:
        options.setdefault(row["name"], ProductOption(row["name"], [])).values.append(row["value"])
    return list(options.values())


def product_attributes(product_id: int) -> list[sqlite3.Row]:
    return db().execute(
        "SELECT label, value FROM product_attribute WHERE product_id = ? ORDER BY position", (product_id,)
    ).fetchall()


@dataclass(frozen=True)
class RatingSummary:
    count: int
    percent: int  # Magento's rating summary: average of 20 x stars, rounded

    @property
    def stars(self) -> float:
        return round(self.percent / 20, 1)


def rating_summaries(product_ids: list[int]) -> dict[int, RatingSummary]:
    if not product_ids:
        return {}
    marks = ",".join("?" * len(product_ids))
    rows = db().execute(
        f"SELECT product_id, COUNT(*) AS n, AVG(rating) AS avg FROM review WHERE product_id IN ({marks}) "
        "GROUP BY product_id",
        product_ids,
    )
    return {row["product_id"]: RatingSummary(row["n"], round(row["avg"] * 20)) for row in rows}


def rating_summary(product_id: int) -> RatingSummary:
    return rating_summaries([product_id]).get(product_id, RatingSummary(0, 0))


def product_url(product: sqlite3.Row) -> str:
    return f"/{product['url_key']}.html"


def product_image_url(product: sqlite3.Row) -> str:
    return f"/media/catalog/product/{product['sku']}.svg"


def validate_options(product_id: int, chosen: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """Keep only valid choices, in the product's option order; name the options still missing."""
    valid: dict[str, str] = {}
    missing: list[str] = []
    for option in product_options(product_id):
        value = (chosen.get(option.name) or "").strip()
        if value in option.values:
            valid[option.name] = value
        else:
            missing.append(option.name)
    return valid, missing
