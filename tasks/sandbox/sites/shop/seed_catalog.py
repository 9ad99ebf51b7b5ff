"""The shop's catalog as data: categories, product lines, brands, specs and option pools (`seed_catalog.yaml`).

Every product is one `Item` line (noun, selling points, price range); the seed
builder picks a brand, a price, specs and options for it with a fixed random
seed. Brands are invented. Some words recur across categories on purpose
("Wireless", "Stainless Steel", "Running", "Bamboo", "LED", "Organic") so that a
search returns more than the obvious product.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml


@dataclass(frozen=True)
class Item:
    noun: str  # "Wireless Over-Ear Headphones"
    features: str  # comma-separated selling points, also appended to the product name
    low: float  # price range in dollars
    high: float
    options: tuple[str, ...] = ()  # keys of OPTION_POOLS
    specs: tuple[tuple[str, str], ...] = ()  # fixed rows of the details table


@dataclass(frozen=True)
class Sub:
    name: str
    key: str
    materials: tuple[str, ...]
    aspects: tuple[str, ...]  # what reviewers talk about
    purposes: tuple[str, ...]  # why reviewers bought it
    pitches: tuple[str, ...]  # first sentence of a description
    items: tuple[Item, ...]


@dataclass(frozen=True)
class Top:
    name: str
    key: str
    description: str
    brands: tuple[str, ...]
    subs: tuple[Sub, ...] = field(default_factory=tuple)


_DATA = yaml.safe_load((Path(__file__).resolve().parent / "seed_catalog.yaml").read_text(encoding="utf-8"))

# Option names mapped to the pool of values a product draws 2-5 from (all, for sizes).
OPTION_POOLS: dict[str, tuple[str, ...]] = {name: tuple(values) for name, values in _DATA["option_pools"].items()}
# Pool key -> the option's label on the product page.
OPTION_LABELS: dict[str, str] = _DATA["option_labels"]
# Sizes are offered in full; colours and flavours are a sample.
FULL_POOLS: set[str] = set(_DATA["full_pools"])


def _item(row: dict) -> Item:
    return Item(row["noun"], row["features"], row["low"], row["high"], tuple(row.get("options", ())),
                tuple(row.get("specs", {}).items()))  # fmt: skip


def _sub(row: dict) -> Sub:
    lists = (tuple(row[key]) for key in ("materials", "aspects", "purposes", "pitches"))
    return Sub(row["name"], row["key"], *lists, tuple(_item(item) for item in row["items"]))


CATALOG: tuple[Top, ...] = tuple(
    Top(top["name"], top["key"], top["description"], tuple(top["brands"]), tuple(_sub(sub) for sub in top["subs"]))
    for top in _DATA["catalog"]
)
