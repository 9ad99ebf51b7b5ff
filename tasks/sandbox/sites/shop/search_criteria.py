"""Magento's `searchCriteria[...]` query parameters, turned into SQL over a whitelist of fields.

    searchCriteria[filter_groups][0][filters][0][field]=status
    searchCriteria[filter_groups][0][filters][0][value]=complete
    searchCriteria[filter_groups][0][filters][0][condition_type]=eq
    searchCriteria[sortOrders][0][field]=created_at
    searchCriteria[sortOrders][0][direction]=DESC
    searchCriteria[pageSize]=1&searchCriteria[currentPage]=1

Filters in one group are OR-ed, groups are AND-ed, as in Magento. Both the
camelCase and the snake_case spellings of the keys are accepted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

CONDITIONS = {
    "eq": "=", "neq": "!=", "gt": ">", "gteq": ">=", "lt": "<", "lteq": "<=", "like": "LIKE", "nlike": "NOT LIKE",
}
LIST_CONDITIONS = {"in": "IN", "nin": "NOT IN"}
_KEY_PART = re.compile(r"\[([^\]]*)\]")


class CriteriaError(ValueError):
    """A bad searchCriteria parameter; the message is returned to the API caller."""


@dataclass
class Filter:
    field: str
    value: str
    condition_type: str = "eq"


@dataclass
class SearchCriteria:
    filter_groups: list[list[Filter]] = field(default_factory=list)
    sort_orders: list[tuple[str, str]] = field(default_factory=list)
    page_size: int | None = None
    current_page: int = 1

    def echo(self) -> dict[str, Any]:
        """The `search_criteria` block Magento returns with a list."""
        result: dict[str, Any] = {
            "filter_groups": [
                {"filters": [{"field": f.field, "value": f.value, "condition_type": f.condition_type} for f in group]}
                for group in self.filter_groups
            ]
        }
        if self.sort_orders:
            result["sort_orders"] = [{"field": f, "direction": d} for f, d in self.sort_orders]
        if self.page_size is not None:
            result["page_size"] = self.page_size
        result["current_page"] = self.current_page
        return result

    def sql(self, columns: dict[str, str], default_order: str) -> tuple[str, list[Any], str, str]:
        """(WHERE clause, parameters, ORDER BY clause, LIMIT/OFFSET clause) over `columns` (API field -> SQL)."""
        where_parts: list[str] = []
        params: list[Any] = []
        for group in self.filter_groups:
            ors = []
            for flt in group:
                column = _column(columns, flt.field)
                condition = flt.condition_type or "eq"
                if condition in CONDITIONS:
                    ors.append(f"{column} {CONDITIONS[condition]} ?")
                    params.append(flt.value)
                elif condition in LIST_CONDITIONS:
                    values = [v.strip() for v in flt.value.split(",") if v.strip()]
                    if not values:
                        raise CriteriaError(f'"{flt.field}" needs at least one value for condition "{condition}".')
                    ors.append(f"{column} {LIST_CONDITIONS[condition]} ({', '.join('?' * len(values))})")
                    params.extend(values)
                elif condition in ("null", "notnull"):
                    ors.append(f"{column} IS {'NOT ' if condition == 'notnull' else ''}NULL")
                else:
                    raise CriteriaError(f'Invalid condition type "{condition}".')
            if ors:
                where_parts.append("(" + " OR ".join(ors) + ")")
        where = " AND ".join(where_parts) or "1"
        orders = [f"{_column(columns, f)} {'DESC' if d.upper() == 'DESC' else 'ASC'}" for f, d in self.sort_orders]
        order_by = ", ".join(orders + [default_order])
        limit = ""
        if self.page_size is not None:
            limit = f"LIMIT {int(self.page_size)} OFFSET {int(self.page_size) * (self.current_page - 1)}"
        return where, params, order_by, limit


def parse_search_criteria(args) -> SearchCriteria:
    tree: dict[str, Any] = {}
    for key in args:
        if not key.startswith("searchCriteria"):
            continue
        parts = _KEY_PART.findall(key[len("searchCriteria"):])
        if not parts:
            continue
        node = tree
        for part in parts[:-1]:
            node = node.setdefault(_snake(part), {})
            if not isinstance(node, dict):
                raise CriteriaError(f"Malformed search criteria parameter {key!r}.")
        node[_snake(parts[-1])] = args.get(key)

    criteria = SearchCriteria()
    for _, group in sorted(_indexed(tree.get("filter_groups", {})), key=lambda kv: kv[0]):
        filters = []
        raw_filters = group.get("filters", {}) if isinstance(group, dict) else {}
        for _, raw in sorted(_indexed(raw_filters), key=lambda kv: kv[0]):
            if not isinstance(raw, dict) or not raw.get("field"):
                raise CriteriaError('"field" is required for every filter.')
            filters.append(Filter(raw["field"], raw.get("value", ""), raw.get("condition_type", "eq") or "eq"))
        criteria.filter_groups.append(filters)
    for _, raw in sorted(_indexed(tree.get("sort_orders", {})), key=lambda kv: kv[0]):
        if not isinstance(raw, dict) or not raw.get("field"):
            raise CriteriaError('"field" is required for every sort order.')
        criteria.sort_orders.append((raw["field"], (raw.get("direction") or "ASC").upper()))
    criteria.page_size = _positive_int(tree.get("page_size"), "pageSize")
    criteria.current_page = _positive_int(tree.get("current_page"), "currentPage") or 1
    return criteria


def _indexed(node) -> list[tuple[int, Any]]:
    if not isinstance(node, dict):
        return []
    result = []
    for key, value in node.items():
        if not key.isdigit():
            raise CriteriaError(f"Malformed search criteria index {key!r}.")
        result.append((int(key), value))
    return result


def _positive_int(text, name: str) -> int | None:
    if text in (None, ""):
        return None
    try:
        value = int(text)
    except (TypeError, ValueError):
        raise CriteriaError(f'The "{name}" value must be a whole number.') from None
    if value < 0:
        raise CriteriaError(f'The "{name}" value must be positive.')
    return value or None


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


def _column(columns: dict[str, str], name: str) -> str:
    if name not in columns:
        raise CriteriaError(f'Column "{name}" does not exist or cannot be used to filter or sort.')
    return columns[name]
