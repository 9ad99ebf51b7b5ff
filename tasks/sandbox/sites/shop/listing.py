"""Product grids as Magento builds them: sorting, paging, layered filters and search relevance.

Query parameters are Magento's: `product_list_order`, `product_list_dir`,
`product_list_limit`, `p` (page), and the filters `cat` and `price` ("100-200").
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from urllib.parse import urlencode

from tasks.sandbox.sites.shop.catalog import Category, RatingSummary, category_tree, products_by_ids, rating_summaries
from tasks.sandbox.sites.shop.db import db, static_cache
from tasks.sandbox.sites.shop.pricing import money

PAGE_SIZES = (12, 24, 36)
SORT_LABELS = {"position": "Position", "relevance": "Relevance", "name": "Product Name", "price": "Price"}
STOPWORDS = frozenset("a an and the for with of in on to by from or".split())


@dataclass
class ListingRequest:
    """What the shopper asked for, read from the query string."""

    order: str
    direction: str
    page: int
    limit: int
    category_filter: int | None
    price_filter: tuple[int, int] | None  # dollars: [low, high)
    sort_choices: tuple[str, ...]
    base_args: dict[str, str] = field(default_factory=dict)  # e.g. {"q": "..."} kept in every link

    @classmethod
    def from_args(
        cls, args, sort_choices: tuple[str, ...], base_args: dict[str, str] | None = None
    ) -> "ListingRequest":
        default_order = sort_choices[0]
        order = args.get("product_list_order", default_order)
        if order not in sort_choices:
            order = default_order
        default_dir = "desc" if order == "relevance" else "asc"
        direction = args.get("product_list_dir", default_dir)
        if direction not in ("asc", "desc"):
            direction = default_dir
        limit = _int(args.get("product_list_limit"), PAGE_SIZES[0])
        if limit not in PAGE_SIZES:
            limit = PAGE_SIZES[0]
        return cls(
            order=order,
            direction=direction,
            page=max(1, _int(args.get("p"), 1)),
            limit=limit,
            category_filter=_int(args.get("cat"), None),
            price_filter=_price_range(args.get("price", "")),
            sort_choices=sort_choices,
            base_args=dict(base_args or {}),
        )

    def url(self, path: str, **changes) -> str:
        """This listing's URL with some parameters changed (None removes one)."""
        params: dict[str, object] = dict(self.base_args)
        current = {
            "cat": self.category_filter,
            "price": f"{self.price_filter[0]}-{self.price_filter[1]}" if self.price_filter else None,
            "product_list_order": self.order if self.order != self.sort_choices[0] else None,
            "product_list_dir": self.direction if self.direction != self._default_dir() else None,
            "product_list_limit": self.limit if self.limit != PAGE_SIZES[0] else None,
            "p": self.page if self.page > 1 else None,
        }
        current.update(changes)
        params.update({k: v for k, v in current.items() if v is not None})
        return f"{path}?{urlencode(params)}" if params else path

    def _default_dir(self) -> str:
        return "desc" if self.order == "relevance" else "asc"


@dataclass
class FilterOption:
    label: str
    url: str
    count: int


@dataclass
class Listing:
    request: ListingRequest
    path: str
    products: list  # sqlite3.Row for this page
    ratings: dict[int, RatingSummary]
    total: int
    page: int
    pages: int
    category_options: list[FilterOption]
    price_options: list[FilterOption]
    active_filters: list[tuple[str, str, str]]  # (filter name, value label, url without it)

    @property
    def first(self) -> int:
        return 0 if self.total == 0 else (self.page - 1) * self.request.limit + 1

    @property
    def last(self) -> int:
        return min(self.total, self.page * self.request.limit)

    def page_url(self, page: int) -> str:
        return self.request.url(self.path, p=page if page > 1 else None)

    def sort_url(self, order: str) -> str:
        return self.request.url(self.path, product_list_order=order, product_list_dir=None, p=None)

    def direction_url(self) -> str:
        flipped = "desc" if self.request.direction == "asc" else "asc"
        return self.request.url(self.path, product_list_dir=flipped, p=None)

    def limit_url(self, limit: int) -> str:
        return self.request.url(self.path, product_list_limit=limit, p=None)


def build_listing(
    request: ListingRequest, path: str, product_ids: list[int], relevance: dict[int, float] | None = None,
    category_facets: list[Category] | None = None,
) -> Listing:
    """Filter, sort and page the given products; `category_facets` are the categories offered as filters."""
    tree = category_tree()
    rows = _brief_rows(product_ids)
    top_of = {cid: tree.top_of(cid).id for cid in {r[2] for r in rows}}

    def in_category(row, category_id: int) -> bool:
        return row[2] == category_id or top_of[row[2]] == category_id

    def in_price(row, price_range) -> bool:
        return price_range is None or price_range[0] * 100 <= row[1] < price_range[1] * 100

    by_category = [r for r in rows if request.category_filter is None or in_category(r, request.category_filter)]
    chosen = [r for r in by_category if in_price(r, request.price_filter)]
    chosen.sort(key=_sort_key(request.order, relevance or {}))
    if request.direction == "desc":
        chosen = _reverse_keeping_ties(chosen, _sort_key(request.order, relevance or {}))

    total = len(chosen)
    pages = max(1, math.ceil(total / request.limit))
    page = min(request.page, pages)
    page_ids = [r[0] for r in chosen[(page - 1) * request.limit : page * request.limit]]
    rows_by_id = products_by_ids(page_ids)

    category_options: list[FilterOption] = []
    if request.category_filter is None and category_facets:
        for category in category_facets:
            count = sum(1 for r in rows if in_category(r, category.id) and in_price(r, request.price_filter))
            if count:
                category_options.append(FilterOption(category.name, request.url(path, cat=category.id, p=None), count))
    price_options: list[FilterOption] = []
    if request.price_filter is None and by_category:
        price_options = _price_options(request, path, [r[1] for r in by_category])
    active: list[tuple[str, str, str]] = []
    if request.category_filter is not None and request.category_filter in tree.by_id:
        active.append(("Category", tree.by_id[request.category_filter].name, request.url(path, cat=None, p=None)))
    if request.price_filter is not None:
        active.append(("Price", _price_label(*request.price_filter), request.url(path, price=None, p=None)))

    return Listing(
        request=request,
        path=path,
        products=[rows_by_id[i] for i in page_ids],
        ratings=rating_summaries(page_ids),
        total=total,
        page=page,
        pages=pages,
        category_options=category_options,
        price_options=price_options,
        active_filters=active,
    )


def category_product_ids(category: Category) -> list[int]:
    ids = category_tree().leaf_ids(category)
    marks = ",".join("?" * len(ids))
    return [row[0] for row in db().execute(f"SELECT id FROM product WHERE category_id IN ({marks})", ids)]


def _brief_rows(product_ids: list[int]) -> list[tuple]:
    """(id, price_cents, category_id, name, position) of every candidate: enough to filter and sort."""
    brief = static_cache().get("brief_rows")
    if brief is None:
        brief = {
            row[0]: tuple(row)
            for row in db().execute("SELECT id, price_cents, category_id, name, position FROM product")
        }
        static_cache()["brief_rows"] = brief
    return [brief[i] for i in product_ids if i in brief]


def _sort_key(order: str, relevance: dict[int, float]):
    if order == "price":
        return lambda r: (r[1], r[0])
    if order == "name":
        return lambda r: (r[3].casefold(), r[0])
    if order == "relevance":
        # Highest score first once reversed by the default "desc" direction.
        return lambda r: (relevance.get(r[0], 0.0), r[0])
    return lambda r: (r[2], r[4], r[0])  # position: subcategory by subcategory, then the shop's order


def _reverse_keeping_ties(rows: list[tuple], key) -> list[tuple]:
    """Descending order on the sort value, but equal values keep the ascending id order (as Magento does)."""
    if not rows:
        return rows
    groups: list[list[tuple]] = []
    for row in rows:
        value = key(row)[:-1]
        if groups and key(groups[-1][0])[:-1] == value:
            groups[-1].append(row)
        else:
            groups.append([row])
    return [row for group in reversed(groups) for row in group]


def _price_options(request: ListingRequest, path: str, prices_cents: list[int]) -> list[FilterOption]:
    """Equal price ranges (step 10, 100 or 1000 dollars), like Magento's automatic price navigation."""
    top = max(prices_cents) / 100
    step = 10 ** max(1, math.ceil(math.log10(max(top, 1.01))) - 1)
    counts: dict[int, int] = {}
    for cents in prices_cents:
        bucket = int(cents // (step * 100))
        counts[bucket] = counts.get(bucket, 0) + 1
    if len(counts) < 2:
        return []
    return [
        FilterOption(
            _price_label(b * step, (b + 1) * step),
            request.url(path, price=f"{b * step}-{(b + 1) * step}", p=None),
            counts[b],
        )
        for b in sorted(counts)
    ]


def _price_label(low: int, high: int) -> str:
    return f"{money(low * 100)} - {money(high * 100 - 1)}"


def _price_range(text: str) -> tuple[int, int] | None:
    match = re.fullmatch(r"(\d+)-(\d+)", text or "")
    if not match:
        return None
    low, high = int(match.group(1)), int(match.group(2))
    return (low, high) if high > low else None


def _int(text, default):
    try:
        return int(text)
    except (TypeError, ValueError):
        return default


# ---- search ----


def _stem(word: str) -> str:
    """Crude plural folding so "headphone" finds "Headphones" and "boxes" finds "box"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _words(text: str) -> list[str]:
    return [_stem(w) for w in re.findall(r"[a-z0-9]+", text.lower())]


def _search_index() -> dict[int, tuple[set[str], set[str], set[str], str]]:
    cache = static_cache()
    if "search_index" not in cache:
        tree = category_tree()
        index = {}
        for row in db().execute("SELECT id, sku, name, description, brand, category_id FROM product"):
            category = tree.by_id[row["category_id"]]
            category_words = set(_words(category.name)) | set(_words(tree.top_of(category.id).name))
            index[row["id"]] = (
                set(_words(row["name"])),
                set(_words(row["description"])),
                category_words,
                row["sku"].lower(),
            )
        cache["search_index"] = index
    return cache["search_index"]


def search(query: str) -> dict[int, float]:
    """Product id -> relevance for a free-text query over name, description, category and SKU.

    Any word may match (Magento's default OR search); products with more of the
    words, and words in the name, rank first.
    """
    terms = _words(query)
    meaningful = [t for t in terms if t not in STOPWORDS] or terms
    if not meaningful:
        return {}
    raw_words = set(re.findall(r"[a-z0-9]+", query.lower()))
    scores: dict[int, float] = {}
    for product_id, (name, description, category, sku) in _search_index().items():
        score = 0.0
        in_name = 0
        if sku in raw_words:
            score += 50
        for term in meaningful:
            if term in name:
                score += 5
                in_name += 1
            elif term in category:
                score += 2
            elif term in description:
                score += 1
        if score and in_name == len(meaningful):
            score += 10
        if score:
            scores[product_id] = score
    return scores
