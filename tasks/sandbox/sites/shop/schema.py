"""Tables of the sandbox shop.

Names follow Magento's vocabulary where a task or evaluator can see them
(`sku`, `increment_id`, `entity_id`, order `status`), but the layout is a small
relational one, not Magento's EAV. Money is stored in integer cents.
"""

SCHEMA = """
CREATE TABLE category (
    id          INTEGER PRIMARY KEY,
    parent_id   INTEGER REFERENCES category(id),
    name        TEXT NOT NULL,
    url_key     TEXT NOT NULL,
    url_path    TEXT NOT NULL UNIQUE,          -- "electronics" or "electronics/headphones"
    position    INTEGER NOT NULL,
    description TEXT NOT NULL DEFAULT ''
);

CREATE TABLE product (
    id                INTEGER PRIMARY KEY,
    sku               TEXT NOT NULL UNIQUE,
    name              TEXT NOT NULL,
    url_key           TEXT NOT NULL UNIQUE,
    category_id       INTEGER NOT NULL REFERENCES category(id),
    brand             TEXT NOT NULL,
    price_cents       INTEGER NOT NULL,
    stock_qty         INTEGER NOT NULL,
    short_description TEXT NOT NULL,
    description       TEXT NOT NULL,
    position          INTEGER NOT NULL,      -- order within its category ("Position" sort)
    featured          INTEGER NOT NULL DEFAULT 0,
    image_hue         INTEGER NOT NULL,      -- colour of the generated product picture
    created_at        TEXT NOT NULL
);
CREATE INDEX product_category ON product(category_id);

-- The "Product Details" table on the product page (Brand, Material, Capacity, ...).
CREATE TABLE product_attribute (
    product_id INTEGER NOT NULL REFERENCES product(id),
    position   INTEGER NOT NULL,
    label      TEXT NOT NULL,
    value      TEXT NOT NULL,
    PRIMARY KEY (product_id, position)
);

-- Choices a shopper must make before adding to the cart (Color, Size).
CREATE TABLE product_option (
    id         INTEGER PRIMARY KEY,
    product_id INTEGER NOT NULL REFERENCES product(id),
    position   INTEGER NOT NULL,
    name       TEXT NOT NULL
);
CREATE INDEX product_option_product ON product_option(product_id);

CREATE TABLE product_option_value (
    id        INTEGER PRIMARY KEY,
    option_id INTEGER NOT NULL REFERENCES product_option(id),
    position  INTEGER NOT NULL,
    value     TEXT NOT NULL
);
CREATE INDEX product_option_value_option ON product_option_value(option_id);

CREATE TABLE customer (
    id            INTEGER PRIMARY KEY,
    email         TEXT NOT NULL UNIQUE COLLATE NOCASE,
    firstname     TEXT NOT NULL,
    lastname      TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_at    TEXT NOT NULL
);

CREATE TABLE customer_address (
    id                  INTEGER PRIMARY KEY,
    customer_id         INTEGER NOT NULL REFERENCES customer(id),
    firstname           TEXT NOT NULL,
    lastname            TEXT NOT NULL,
    street              TEXT NOT NULL,
    city                TEXT NOT NULL,
    region              TEXT NOT NULL,
    postcode            TEXT NOT NULL,
    country_id          TEXT NOT NULL,
    telephone           TEXT NOT NULL,
    is_default_shipping INTEGER NOT NULL DEFAULT 0,
    is_default_billing  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX customer_address_customer ON customer_address(customer_id);

CREATE TABLE admin_user (
    id            INTEGER PRIMARY KEY,
    username      TEXT NOT NULL UNIQUE,
    email         TEXT NOT NULL,
    firstname     TEXT NOT NULL,
    lastname      TEXT NOT NULL,
    password_hash TEXT NOT NULL
);

CREATE TABLE review (
    id          INTEGER PRIMARY KEY,
    product_id  INTEGER NOT NULL REFERENCES product(id),
    customer_id INTEGER REFERENCES customer(id),   -- NULL for a guest's review
    nickname    TEXT NOT NULL,
    title       TEXT NOT NULL,
    detail      TEXT NOT NULL,
    rating      INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
    created_at  TEXT NOT NULL
);
CREATE INDEX review_product ON review(product_id, created_at);
CREATE INDEX review_customer ON review(customer_id);

CREATE TABLE wishlist_item (
    id          INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customer(id),
    product_id  INTEGER NOT NULL REFERENCES product(id),
    added_at    TEXT NOT NULL,
    UNIQUE (customer_id, product_id)
);

-- A signed-in customer's cart; guests keep theirs in the session until they sign in.
CREATE TABLE cart_item (
    id           INTEGER PRIMARY KEY,
    customer_id  INTEGER NOT NULL REFERENCES customer(id),
    product_id   INTEGER NOT NULL REFERENCES product(id),
    qty          INTEGER NOT NULL CHECK (qty > 0),
    options_json TEXT NOT NULL DEFAULT '{}',
    added_at     TEXT NOT NULL
);
CREATE INDEX cart_item_customer ON cart_item(customer_id);

-- entity_id == int(increment_id), so an order URL can be built from either.
CREATE TABLE sales_order (
    entity_id            INTEGER PRIMARY KEY,
    increment_id         TEXT NOT NULL UNIQUE,
    customer_id          INTEGER NOT NULL REFERENCES customer(id),
    customer_email       TEXT NOT NULL,
    customer_firstname   TEXT NOT NULL,
    customer_lastname    TEXT NOT NULL,
    status               TEXT NOT NULL,   -- pending, processing, complete, canceled
    created_at           TEXT NOT NULL,   -- UTC, "YYYY-MM-DD HH:MM:SS" as Magento's API writes it
    updated_at           TEXT NOT NULL,
    subtotal_cents       INTEGER NOT NULL,
    shipping_cents       INTEGER NOT NULL,
    grand_total_cents    INTEGER NOT NULL,
    total_qty            INTEGER NOT NULL,
    shipping_method      TEXT NOT NULL,
    shipping_description TEXT NOT NULL,
    payment_method       TEXT NOT NULL,
    ship_firstname       TEXT NOT NULL,
    ship_lastname        TEXT NOT NULL,
    ship_street          TEXT NOT NULL,
    ship_city            TEXT NOT NULL,
    ship_region          TEXT NOT NULL,
    ship_postcode        TEXT NOT NULL,
    ship_country_id      TEXT NOT NULL,
    ship_telephone       TEXT NOT NULL
);
CREATE INDEX sales_order_customer ON sales_order(customer_id, created_at);
CREATE INDEX sales_order_created ON sales_order(created_at);

CREATE TABLE sales_order_item (
    item_id         INTEGER PRIMARY KEY,
    order_id        INTEGER NOT NULL REFERENCES sales_order(entity_id),
    product_id      INTEGER NOT NULL REFERENCES product(id),
    sku             TEXT NOT NULL,
    name            TEXT NOT NULL,
    price_cents     INTEGER NOT NULL,
    qty_ordered     INTEGER NOT NULL,
    row_total_cents INTEGER NOT NULL,
    options_json    TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX sales_order_item_order ON sales_order_item(order_id);
"""
