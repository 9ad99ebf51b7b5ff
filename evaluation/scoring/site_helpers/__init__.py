"""The helpers a task config may call with `func:NAME(...)`, by name.

    value = call_helper("shopping_get_order_product_quantity(__page__, 'B07X')", context)

Each entry says which site's base URL the helper needs (given to it as `base_url`,
resolved the way the environment resolves sites: the `SHOPPING`-style variable, or the
sandbox that stands for the site). The sandbox sites mirror the real ones, so one
helper serves both.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Callable

from evaluation.scoring.errors import ConfigError
from evaluation.scoring.site_helpers import generic, gitlab, reddit, shopping
from evaluation.scoring.site_helpers.calls import HelperCall, parse_call
from evaluation.scoring.site_helpers.rest import SiteHelperError


@dataclass(frozen=True)
class SiteHelper:
    function: Callable[..., Any]
    site: str | None = None  # VideoWA site whose base URL the helper is given as `base_url`


def _entries() -> dict[str, SiteHelper]:
    rest = {
        shopping.shopping_get_latest_order_url,
        shopping.shopping_get_sku_latest_review_author,
        shopping.shopping_get_sku_latest_review_rating,
        shopping.shopping_get_sku_latest_review_text,
        shopping.shopping_get_sku_latest_review_title,
        shopping.shopping_get_sku_product_page_url,
    }
    readers = [
        shopping.shopping_get_all_product_order,
        shopping.shopping_get_order_product_name_list,
        shopping.shopping_get_order_product_quantity,
        shopping.shopping_get_order_product_option,
        shopping.shopping_get_product_attributes,
        shopping.shopping_get_product_price,
        shopping.shopping_get_num_reviews,
        shopping.shopping_get_rating_as_percentage,
        reddit.reddit_get_post_url,
        reddit.reddit_get_post_comment_tree,
        reddit.reddit_get_latest_comment_obj_by_username,
        reddit.reddit_get_latest_comment_content_by_username,
        reddit.reddit_get_parent_comment_obj_of_latest_comment_by_username,
        reddit.reddit_get_parent_comment_username_of_latest_comment_by_username,
        gitlab.gitlab_get_project_memeber_role,
        generic.get_query_text,
        generic.get_query_text_lowercase,
    ]
    entries = {function.__name__: SiteHelper(function, site="shopping") for function in rest}
    entries.update({function.__name__: SiteHelper(function) for function in readers})
    return entries


HELPERS: dict[str, SiteHelper] = _entries()


@dataclass
class HelperContext:
    """What a `func:` call may use: the page, the agent's final URL, and how to find a site."""

    page: Any
    last_url: str
    base_url: Callable[[str], str]  # VideoWA site name -> base URL


def prepare_call(text: str) -> tuple[HelperCall, SiteHelper]:
    """Parse and look up a call; ConfigError for anything a config cannot mean."""
    call = parse_call(text)
    helper = HELPERS.get(call.name)
    if helper is None:
        raise ConfigError(f"func:{text.strip()!r} names no known helper (known: {', '.join(sorted(HELPERS))})")
    return call, helper


def call_helper(text: str, context: HelperContext) -> Any:
    """Run the helper call `text` (what follows `func:`); its result as the helper gives it.

    ConfigError: unknown helper, bad syntax or arguments. SiteHelperError: the site could not be read.
    """
    call, helper = prepare_call(text)
    args, kwargs = call.bind(context.page, context.last_url)
    if helper.site is not None:
        kwargs["base_url"] = context.base_url(helper.site)
    try:
        inspect.signature(helper.function).bind(*args, **kwargs)
    except TypeError as exc:
        raise ConfigError(f"func:{text.strip()!r} has the wrong arguments for {call.name}: {exc}") from None
    return helper.function(*args, **kwargs)


__all__ = ["HELPERS", "HelperContext", "SiteHelper", "SiteHelperError", "call_helper", "prepare_call"]
