"""The shop's people and their history as data (`seed_people.yaml`): customers, addresses, review phrases,
and the fixed plan of Emma Lopez's past orders (the account WebArena's tasks use).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml


@dataclass(frozen=True)
class Person:
    firstname: str
    lastname: str
    email: str
    street: str
    city: str
    region: str
    postcode: str
    telephone: str


_DATA = yaml.safe_load((Path(__file__).resolve().parent / "seed_people.yaml").read_text(encoding="utf-8"))

EMMA = Person(**_DATA["emma"])
OTHER_CUSTOMERS: tuple[Person, ...] = tuple(Person(**row) for row in _DATA["other_customers"])
# Everyone in the seed shares one password, so that tests and tutorials can sign in as anyone.
SEED_PASSWORD: str = _DATA["seed_password"]
# Nicknames of reviewers who wrote without an account.
GUEST_NICKNAMES: tuple[str, ...] = tuple(_DATA["guest_nicknames"])
# By stars.
REVIEW_TITLES: dict[int, tuple[str, ...]] = {stars: tuple(titles) for stars, titles in _DATA["review_titles"].items()}
# By mood ("good", "mixed", "bad"); {thing}: the product noun; {purpose}: why they bought it; {aspect}: what they
# talk about; {weeks}: a number.
REVIEW_OPENINGS: dict[str, tuple[str, ...]] = {mood: tuple(texts) for mood, texts in _DATA["review_openings"].items()}
REVIEW_MIDDLES: dict[str, tuple[str, ...]] = {mood: tuple(texts) for mood, texts in _DATA["review_middles"].items()}
REVIEW_CLOSINGS: dict[str, tuple[str, ...]] = {mood: tuple(texts) for mood, texts in _DATA["review_closings"].items()}
# Emma's order history: (created_at UTC, status, number of distinct products, wants an item with options).
EMMA_ORDER_PLAN: tuple[tuple[str, str, int, bool], ...] = tuple(
    (order["created"], order["status"], order["products"], order["with_options"]) for order in _DATA["emma_order_plan"]
)
