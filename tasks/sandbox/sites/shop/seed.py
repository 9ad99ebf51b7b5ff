"""Build the shop's seed database: same random seed, same fixed dates, same bytes.

`build_seed(db_path)` writes categories and ~230 products from `seed_catalog`,
customers and Emma Lopez's order history from `seed_people`, reviews, a wish
list, and the admin user of the REST API.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from tasks.sandbox.sites.shop.passwords import seed_password_hash
from tasks.sandbox.sites.shop.pricing import (
    FLAT_RATE,
    FREE_SHIPPING,
    free_shipping_available,
    shipping_cost_cents,
)
from tasks.sandbox.sites.shop.schema import SCHEMA
from tasks.sandbox.sites.shop.seed_catalog import (
    CATALOG,
    FULL_POOLS,
    OPTION_LABELS,
    OPTION_POOLS,
    Item,
    Sub,
    Top,
)
from tasks.sandbox.sites.shop.seed_people import (
    EMMA,
    EMMA_ORDER_PLAN,
    GUEST_NICKNAMES,
    OTHER_CUSTOMERS,
    REVIEW_CLOSINGS,
    REVIEW_MIDDLES,
    REVIEW_OPENINGS,
    REVIEW_TITLES,
    SEED_PASSWORD,
    Person,
)

RANDOM_SEED = 7770
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
SKU_CHARS = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"
ORIGINS = ("China", "USA", "Vietnam", "India", "Mexico", "Portugal", "Taiwan", "Germany")
CARE_LINES = (
    "Backed by a 1-year limited warranty.",
    "Ships in recyclable packaging.",
    "Customer support is available seven days a week.",
    "Free returns within 30 days of delivery.",
)
OUT_OF_STOCK_COUNT = 5
OTHER_ORDER_COUNT = 32
EMMA_REVIEW_COUNT = 3
EMMA_WISHLIST_COUNT = 3


@dataclass
class SeedProduct:
    id: int
    sku: str
    name: str
    url_key: str
    category_id: int
    top: Top
    sub: Sub
    item: Item
    brand: str
    price_cents: int
    created_at: datetime
    options: list[tuple[str, list[str]]] = field(default_factory=list)


def build_seed(db_path: Path) -> None:
    db_path = Path(db_path)
    db_path.unlink(missing_ok=True)
    rng = random.Random(RANDOM_SEED)
    conn = sqlite3.connect(db_path)
    try:
        conn.executescript(SCHEMA)
        with conn:
            products = _insert_catalog(conn, rng)
            emma_id, other_ids = _insert_people(conn)
            _insert_orders(conn, rng, products, emma_id, other_ids)
            _insert_reviews(conn, rng, products, emma_id, other_ids)
            _insert_wishlist(conn, rng, products, emma_id)
            _mark_featured(conn)
        conn.execute("VACUUM")
    finally:
        conn.close()


# ---- catalog ----


def _insert_catalog(conn: sqlite3.Connection, rng: random.Random) -> list[SeedProduct]:
    products: list[SeedProduct] = []
    used_skus: set[str] = set()
    used_keys: set[str] = set()
    category_id = 0
    for top_pos, top in enumerate(CATALOG, start=1):
        category_id += 1
        top_id = category_id
        conn.execute(
            "INSERT INTO category (id, parent_id, name, url_key, url_path, position, description) "
            "VALUES (?, NULL, ?, ?, ?, ?, ?)",
            (top_id, top.name, top.key, top.key, top_pos, top.description),
        )
        used_keys.add(top.key)
        for sub_pos, sub in enumerate(top.subs, start=1):
            category_id += 1
            conn.execute(
                "INSERT INTO category (id, parent_id, name, url_key, url_path, position, description) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (category_id, top_id, sub.name, sub.key, f"{top.key}/{sub.key}", sub_pos, f"{sub.name} in {top.name}."),
            )
            for item in sub.items:
                brand = rng.choice(top.brands)
                name = f"{brand} {item.noun}, {item.features}"
                product = SeedProduct(
                    id=len(products) + 1,
                    sku=_new_sku(rng, used_skus),
                    name=name,
                    url_key=_unique_key(_slug(name), used_keys),
                    category_id=category_id,
                    top=top,
                    sub=sub,
                    item=item,
                    brand=brand,
                    price_cents=_price_cents(rng, item.low, item.high),
                    created_at=_random_time(rng, datetime(2020, 1, 1), datetime(2022, 6, 30)),
                )
                for pool_key in item.options:
                    pool = OPTION_POOLS[pool_key]
                    if pool_key in FULL_POOLS:
                        values = list(pool)
                    else:
                        values = sorted(rng.sample(pool, rng.randint(2, min(5, len(pool)))), key=pool.index)
                    product.options.append((OPTION_LABELS[pool_key], values))
                products.append(product)
    _make_near_ties(rng, products)
    out_of_stock = {p.id for p in rng.sample(products, OUT_OF_STOCK_COUNT)}
    for position_in_sub, product in _positions(products):
        _insert_product(conn, rng, product, position_in_sub, 0 if product.id in out_of_stock else rng.randint(8, 300))
    return products


def _positions(products: list[SeedProduct]):
    counter: dict[int, int] = {}
    for product in products:
        counter[product.category_id] = counter.get(product.category_id, 0) + 1
        yield counter[product.category_id], product


def _insert_product(conn: sqlite3.Connection, rng: random.Random, p: SeedProduct, position: int, stock: int) -> None:
    specs = dict(p.item.specs)
    material = specs.pop("Material", None) or rng.choice(p.sub.materials)
    pitch = rng.choice(p.sub.pitches)
    short = f"{p.brand} {p.item.noun}: {pitch}."
    highlights = "Highlights: " + "; ".join(p.item.features.split(", ")) + "."
    made_of = f"Made of {material}." + "".join(f" {label}: {value}." for label, value in specs.items())
    description = "\n\n".join((short, highlights, made_of, rng.choice(CARE_LINES)))
    conn.execute(
        "INSERT INTO product (id, sku, name, url_key, category_id, brand, price_cents, stock_qty, short_description, "
        "description, position, featured, image_hue, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)",
        (
            p.id, p.sku, p.name, p.url_key, p.category_id, p.brand, p.price_cents, stock, short,
            description, position, rng.randrange(360), p.created_at.strftime(TIME_FORMAT),
        ),
    )
    weight = round(rng.uniform(0.2, 18.0), 1)
    rows = [("Brand", p.brand), ("Material", material), *specs.items()]
    rows += [
        ("Item Weight", f"{weight} pounds"),
        ("Item model number", f"{''.join(w[0] for w in p.brand.split())}-{rng.randint(1000, 9999)}"),
        ("Country of Origin", rng.choice(ORIGINS)),
        ("Date First Available", f"{p.created_at:%B} {p.created_at.day}, {p.created_at.year}"),
    ]
    conn.executemany(
        "INSERT INTO product_attribute (product_id, position, label, value) VALUES (?, ?, ?, ?)",
        [(p.id, pos, label, value) for pos, (label, value) in enumerate(rows, start=1)],
    )
    for opt_pos, (label, values) in enumerate(p.options, start=1):
        option_id = conn.execute(
            "INSERT INTO product_option (product_id, position, name) VALUES (?, ?, ?)", (p.id, opt_pos, label)
        ).lastrowid
        conn.executemany(
            "INSERT INTO product_option_value (option_id, position, value) VALUES (?, ?, ?)",
            [(option_id, val_pos, value) for val_pos, value in enumerate(values, start=1)],
        )


def _price_cents(rng: random.Random, low: float, high: float) -> int:
    dollars = rng.randint(int(low), int(high))
    cents = rng.choices((99, 49, 95, 0, 89), weights=(55, 15, 12, 10, 8))[0]
    return max(300, min(90000, dollars * 100 + cents))


def _make_near_ties(rng: random.Random, products: list[SeedProduct]) -> None:
    """Pairs of products in a category one cent apart (or equal), so price sorting is tested for real."""
    by_top: dict[str, list[SeedProduct]] = {}
    for product in products:
        by_top.setdefault(product.top.key, []).append(product)
    for group in by_top.values():
        cheap = sorted(group, key=lambda p: p.price_cents)[: len(group) // 2]
        for first, second in _pairs(rng, cheap, 3):
            second.price_cents = first.price_cents + rng.choice((1, -1, 1, 0))


def _pairs(rng: random.Random, items: list[SeedProduct], count: int):
    picked = rng.sample(items, min(len(items), count * 2))
    return zip(picked[0::2], picked[1::2])


def _new_sku(rng: random.Random, used: set[str]) -> str:
    while True:
        sku = "B0" + "".join(rng.choice(SKU_CHARS) for _ in range(8))
        if sku not in used:
            used.add(sku)
            return sku


def _slug(text: str) -> str:
    text = text.lower().replace("&", "and").replace("'", "")
    slug = re.sub(r"[^a-z0-9]+", "-", text).strip("-")
    if len(slug) > 80:
        slug = slug[:80].rsplit("-", 1)[0]
    return slug


def _unique_key(key: str, used: set[str]) -> str:
    candidate, n = key, 1
    while candidate in used:
        n += 1
        candidate = f"{key}-{n}"
    used.add(candidate)
    return candidate


def _random_time(rng: random.Random, start: datetime, end: datetime) -> datetime:
    return start + timedelta(seconds=rng.randrange(int((end - start).total_seconds())))


# ---- people ----


def _insert_people(conn: sqlite3.Connection) -> tuple[int, list[int]]:
    from tasks.sandbox.sites import SHOP

    customer = next(a for a in SHOP.accounts if a.role == "customer")
    admin = next(a for a in SHOP.accounts if a.role == "admin")
    emma_id = _insert_customer(conn, EMMA, customer.password, datetime(2021, 9, 14, 18, 2, 11))
    other_ids = [
        _insert_customer(conn, person, SEED_PASSWORD, datetime(2021, 1, 5) + timedelta(days=23 * i, hours=i))
        for i, person in enumerate(OTHER_CUSTOMERS)
    ]
    conn.execute(
        "INSERT INTO admin_user (username, email, firstname, lastname, password_hash) VALUES (?, ?, ?, ?, ?)",
        (admin.username, "admin@onestopmarket.test", "Store", "Admin",
         seed_password_hash(admin.password, admin.username)),
    )
    return emma_id, other_ids


def _insert_customer(conn: sqlite3.Connection, person: Person, password: str, created: datetime) -> int:
    customer_id = conn.execute(
        "INSERT INTO customer (email, firstname, lastname, password_hash, created_at) VALUES (?, ?, ?, ?, ?)",
        (person.email, person.firstname, person.lastname, seed_password_hash(password, person.email),
         created.strftime(TIME_FORMAT)),
    ).lastrowid
    conn.execute(
        "INSERT INTO customer_address (customer_id, firstname, lastname, street, city, region, postcode, country_id, "
        "telephone, is_default_shipping, is_default_billing) VALUES (?, ?, ?, ?, ?, ?, ?, 'US', ?, 1, 1)",
        (customer_id, person.firstname, person.lastname, person.street, person.city, person.region,
         person.postcode, person.telephone),
    )
    return customer_id


# ---- orders ----


@dataclass
class PlannedOrder:
    customer_id: int
    person: Person
    created_at: datetime
    status: str
    lines: list[tuple[SeedProduct, int, dict[str, str]]]


def _insert_orders(
    conn: sqlite3.Connection, rng: random.Random, products: list[SeedProduct], emma_id: int, other_ids: list[int]
) -> None:
    with_options = [p for p in products if p.options]
    plans: list[PlannedOrder] = []
    for created, status, distinct, wants_options in EMMA_ORDER_PLAN:
        chosen = rng.sample(products, distinct)
        if wants_options and not any(p.options for p in chosen):
            chosen[0] = rng.choice([p for p in with_options if p not in chosen])
        plans.append(
            PlannedOrder(emma_id, EMMA, datetime.strptime(created, TIME_FORMAT), status, _lines(rng, chosen))
        )
    for _ in range(OTHER_ORDER_COUNT):
        index = rng.randrange(len(other_ids))
        chosen = rng.sample(products, rng.randint(1, 3))
        status = rng.choices(("complete", "processing", "pending", "canceled"), weights=(62, 12, 10, 16))[0]
        created = _random_time(rng, datetime(2022, 1, 3), datetime(2023, 12, 20))
        plans.append(PlannedOrder(other_ids[index], OTHER_CUSTOMERS[index], created, status, _lines(rng, chosen)))
    plans.sort(key=lambda plan: plan.created_at)
    for entity_id, plan in enumerate(plans, start=1):
        _insert_order(conn, rng, entity_id, plan)


def _lines(rng: random.Random, chosen: list[SeedProduct]) -> list[tuple[SeedProduct, int, dict[str, str]]]:
    lines = []
    for product in chosen:
        qty = rng.choices((1, 2, 3), weights=(70, 22, 8))[0]
        options = {label: rng.choice(values) for label, values in product.options}
        lines.append((product, qty, options))
    return lines


def _insert_order(conn: sqlite3.Connection, rng: random.Random, entity_id: int, plan: PlannedOrder) -> None:
    subtotal = sum(p.price_cents * qty for p, qty, _ in plan.lines)
    total_qty = sum(qty for _, qty, _ in plan.lines)
    method = FREE_SHIPPING if free_shipping_available(subtotal) and rng.random() < 0.6 else FLAT_RATE
    shipping = shipping_cost_cents(method, total_qty)
    updated = plan.created_at + timedelta(hours=rng.randint(2, 96)) if plan.status != "pending" else plan.created_at
    person = plan.person
    conn.execute(
        "INSERT INTO sales_order (entity_id, increment_id, customer_id, customer_email, customer_firstname, "
        "customer_lastname, status, created_at, updated_at, subtotal_cents, shipping_cents, grand_total_cents, "
        "total_qty, shipping_method, shipping_description, payment_method, ship_firstname, ship_lastname, "
        "ship_street, ship_city, ship_region, ship_postcode, ship_country_id, ship_telephone) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'checkmo', ?, ?, ?, ?, ?, ?, 'US', ?)",
        (
            entity_id, f"{entity_id:09d}", plan.customer_id, person.email, person.firstname, person.lastname,
            plan.status, plan.created_at.strftime(TIME_FORMAT), updated.strftime(TIME_FORMAT), subtotal, shipping,
            subtotal + shipping, total_qty, method.code, method.description, person.firstname, person.lastname,
            person.street, person.city, person.region, person.postcode, person.telephone,
        ),
    )
    conn.executemany(
        "INSERT INTO sales_order_item (order_id, product_id, sku, name, price_cents, qty_ordered, row_total_cents, "
        "options_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (entity_id, p.id, p.sku, p.name, p.price_cents, qty, p.price_cents * qty, json.dumps(options))
            for p, qty, options in plan.lines
        ],
    )


# ---- reviews, wish list, featured ----


def _insert_reviews(
    conn: sqlite3.Connection, rng: random.Random, products: list[SeedProduct], emma_id: int, other_ids: list[int]
) -> None:
    rows = []
    for product in products:
        roll = rng.random()
        # About a fifth have none, a few have many.
        if roll < 0.2:
            count = 0
        elif roll < 0.55:
            count = rng.randint(1, 3)
        elif roll < 0.85:
            count = rng.randint(4, 8)
        else:
            count = rng.randint(9, 15)
        quality = rng.uniform(2.4, 4.9)
        start = max(product.created_at, datetime(2021, 1, 1))
        times = sorted(_random_time(rng, start, datetime(2023, 12, 20)) for _ in range(count))
        for created in times:
            rating = min(5, max(1, round(rng.gauss(quality, 0.9))))
            if rng.random() < 0.35:
                index = rng.randrange(len(other_ids))
                customer_id, nickname = other_ids[index], OTHER_CUSTOMERS[index].firstname
            else:
                customer_id, nickname = None, rng.choice(GUEST_NICKNAMES)
            rows.append((product.id, customer_id, nickname, *_review_text(rng, product, rating), rating, created))
    # Emma reviewed a few things she bought.
    bought = conn.execute(
        "SELECT i.product_id, MAX(o.created_at) FROM sales_order_item i JOIN sales_order o ON o.entity_id = i.order_id "
        "WHERE o.customer_id = ? AND o.status = 'complete' GROUP BY i.product_id ORDER BY i.product_id",
        (emma_id,),
    ).fetchall()
    by_id = {p.id: p for p in products}
    for product_id, ordered_at in rng.sample(bought, EMMA_REVIEW_COUNT):
        rating = rng.choice((5, 4, 2))
        created = datetime.strptime(ordered_at, TIME_FORMAT) + timedelta(days=rng.randint(6, 20), hours=3)
        title, detail = _review_text(rng, by_id[product_id], rating)
        rows.append((product_id, emma_id, EMMA.firstname, title, detail, rating, created))
    rows.sort(key=lambda row: (row[-1], row[0]))
    conn.executemany(
        "INSERT INTO review (product_id, customer_id, nickname, title, detail, rating, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(*row[:-1], row[-1].strftime(TIME_FORMAT)) for row in rows],
    )


def _review_text(rng: random.Random, product: SeedProduct, rating: int) -> tuple[str, str]:
    mood = "good" if rating >= 4 else "mixed" if rating == 3 else "bad"
    values = {
        "thing": product.item.noun.lower(),
        "purpose": rng.choice(product.sub.purposes),
        "aspect": rng.choice(product.sub.aspects),
        "weeks": rng.randint(2, 12),
    }
    parts = (rng.choice(REVIEW_OPENINGS[mood]), rng.choice(REVIEW_MIDDLES[mood]), rng.choice(REVIEW_CLOSINGS[mood]))
    detail = " ".join(part.format(**values) for part in parts if part)
    return rng.choice(REVIEW_TITLES[rating]), detail


def _insert_wishlist(conn: sqlite3.Connection, rng: random.Random, products: list[SeedProduct], emma_id: int) -> None:
    for n, product in enumerate(rng.sample(products, EMMA_WISHLIST_COUNT)):
        conn.execute(
            "INSERT INTO wishlist_item (customer_id, product_id, added_at) VALUES (?, ?, ?)",
            (emma_id, product.id, (datetime(2023, 10, 2, 20, 15) + timedelta(days=9 * n)).strftime(TIME_FORMAT)),
        )


def _mark_featured(conn: sqlite3.Connection) -> None:
    """The home page shows the best-reviewed product of each top category."""
    conn.execute(
        """
        UPDATE product SET featured = 1 WHERE id IN (
            SELECT product_id FROM (
                SELECT r.product_id, c.parent_id AS top_id,
                       ROW_NUMBER() OVER (
                           PARTITION BY c.parent_id ORDER BY AVG(r.rating) DESC, COUNT(*) DESC, r.product_id
                       ) AS rank_in_top
                FROM review r JOIN product p ON p.id = r.product_id JOIN category c ON c.id = p.category_id
                GROUP BY r.product_id HAVING COUNT(*) >= 3
            ) WHERE rank_in_top = 1
        )
        """
    )
