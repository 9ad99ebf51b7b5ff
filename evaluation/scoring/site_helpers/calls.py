"""Reading the `NAME(...)` call after `func:` in a task config, without running Python.

The reference evaluators hand that text to Python's `eval`. Here it is parsed with
`ast` and only ever becomes a call of a registered helper with literal arguments:
strings, numbers, True/False/None, and the two runtime tokens `__page__` (the page
being evaluated) and `__last_url__` (the URL the agent ended on). Configs also write
the URL token inside a string (`reddit_get_post_url('__last_url__')`); it is
replaced there too, as the reference's text substitution does.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from evaluation.scoring.errors import ConfigError

PAGE_TOKEN = "__page__"
LAST_URL_TOKEN = "__last_url__"


class Token(Enum):
    PAGE = PAGE_TOKEN
    LAST_URL = LAST_URL_TOKEN


@dataclass(frozen=True)
class HelperCall:
    name: str
    args: tuple[Any, ...]  # literal values and `Token`s
    kwargs: dict[str, Any] = field(default_factory=dict)

    def bind(self, page: Any, last_url: str) -> tuple[list[Any], dict[str, Any]]:
        """The arguments with the tokens replaced by the page and the agent's final URL."""

        def value(item: Any) -> Any:
            if item is Token.PAGE:
                return page
            if item is Token.LAST_URL:
                return last_url
            if isinstance(item, str):
                return item.replace(LAST_URL_TOKEN, last_url)
            return item

        return [value(item) for item in self.args], {key: value(item) for key, item in self.kwargs.items()}


def parse_call(text: str) -> HelperCall:
    """`shopping_get_order_product_quantity(__page__, 'B07X')` -> HelperCall; ConfigError when it is anything else."""
    source = text.strip()
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        raise ConfigError(f"func:{source!r} is not a call like NAME(arg, ...)") from None
    call = tree.body
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
        raise ConfigError(f"func:{source!r} must be one helper call like NAME(arg, ...)")
    args = tuple(_literal(node, source) for node in call.args)
    kwargs = {}
    for keyword in call.keywords:
        if keyword.arg is None:
            raise ConfigError(f"func:{source!r}: ** arguments are not supported")
        kwargs[keyword.arg] = _literal(keyword.value, source)
    return HelperCall(call.func.id, args, kwargs)


def _literal(node: ast.expr, source: str) -> Any:
    if isinstance(node, ast.Name) and node.id in (PAGE_TOKEN, LAST_URL_TOKEN):
        return Token(node.id)
    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, (str, int, float, bool))):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        if isinstance(node.operand.value, (int, float)) and not isinstance(node.operand.value, bool):
            return -node.operand.value
    raise ConfigError(
        f"func:{source!r}: argument {ast.unparse(node)!r} is not a literal, {PAGE_TOKEN} or {LAST_URL_TOKEN}"
    )
