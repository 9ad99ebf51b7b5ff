"""program_html rules that need no browser: which required_contents key counts, how content is read,
and how `func:` calls are parsed (never run as Python)."""

from __future__ import annotations

import pytest

from evaluation.scoring.errors import ConfigError, Unscorable
from evaluation.scoring.program_html import check_entries, check_required_contents
from evaluation.scoring.site_helpers.calls import Token, parse_call

from tests.evaluation.scoring.model_helpers import scripted_judge, user_prompts


def checked(required_contents: dict, content) -> tuple[str, bool]:
    key, checks = check_required_contents(required_contents, content)
    return key, all(check.passed for check in checks)


# ---- the first present key ----


def test_only_the_first_present_key_in_rule_order_is_checked() -> None:
    # Config order puts must_include first, but exact_match comes first in the rule order; checking
    # both (the naive reading) would fail this content on must_include.
    contents = {"must_include": ["not on the page"], "exact_match": "Order #000000187"}
    assert checked(contents, "Order #000000187") == ("exact_match", True)


def test_must_exclude_outranks_required_values() -> None:
    contents = {"required_values": ["== 5"], "must_exclude": ["error"]}
    assert checked(contents, "3 items") == ("must_exclude", True)


def test_unknown_keys_beside_a_known_one_are_ignored_like_the_reference() -> None:
    assert checked({"note": "for humans", "must_include": ["blue"]}, "a blue mug") == ("must_include", True)


@pytest.mark.parametrize("contents", [{}, {"one_of": ["x"]}, {"must_includes": ["x"]}, "x", None])
def test_required_contents_without_a_known_key_is_a_config_error(contents) -> None:
    with pytest.raises(ConfigError):
        check_required_contents(contents, "x")


# ---- each rule on page content ----


def test_must_include_uses_the_token_rule_and_alternatives() -> None:
    assert checked({"must_include": ["42"]}, "Qty 420") == ("must_include", False)
    assert checked({"must_include": ["42"]}, "Qty 42 pcs") == ("must_include", True)
    assert checked({"must_include": ["Red |OR| Crimson"]}, "Color: crimson") == ("must_include", True)


def test_must_exclude_fails_when_found_and_rejects_alternatives() -> None:
    assert checked({"must_exclude": ["Armor3"]}, "Armor3 Headset") == ("must_exclude", False)
    assert checked({"must_exclude": ["Armor3"]}, "Briess DME") == ("must_exclude", True)
    with pytest.raises(ConfigError, match="OR"):
        check_required_contents({"must_exclude": ["a |OR| b"]}, "c")


def test_exact_match_cleans_the_content_once() -> None:
    assert checked({"exact_match": "Pending"}, "'pending'") == ("exact_match", True)
    assert checked({"exact_match": "Pending"}, "Pending ") == ("exact_match", False)


def test_required_values_reads_text_and_numbers() -> None:
    assert checked({"required_values": ["== 1234"]}, "1,234") == ("required_values", True)
    assert checked({"required_values": [">= 10"]}, 12) == ("required_values", True)
    assert checked({"required_values": ["< 20 |OR| == 100"]}, 19.99) == ("required_values", True)
    assert checked({"required_values": ["== 1"]}, True) == ("required_values", True)  # the reference compares True as 1


def test_required_values_on_content_that_is_no_number_fails_even_with_no_items() -> None:
    assert checked({"required_values": [">= 0"]}, "Ordered 2") == ("required_values", False)
    assert checked({"required_values": []}, "none") == ("required_values", False)


def test_non_text_content_is_matched_as_python_writes_it() -> None:
    # A lambda or helper result that is not a string reaches the text rules as str(value).
    assert checked({"exact_match": "true"}, True) == ("exact_match", True)
    assert checked({"must_include": ["'size': 'M'"]}, {"size": "M"}) == ("must_include", True)


def test_fuzzy_match_without_a_judge_is_unscorable() -> None:
    with pytest.raises(Unscorable):
        check_required_contents({"fuzzy_match": "a polite reply"}, "thanks a lot!")


def test_fuzzy_match_grades_every_or_part_and_all_must_pass(tmp_path) -> None:
    # The reference multiplies the grade of each " |OR| " part (an AND, despite the name).
    with scripted_judge(["correct", "incorrect", "correct", "correct"], tmp_path) as (judge, server):
        key, checks = check_required_contents(
            {"fuzzy_match": "thanks |OR| asks for a refund"}, "Thanks! Please refund me.", intent="Reply", judge=judge
        )
        assert (key, [c.passed for c in checks]) == ("fuzzy_match", [True, False])
        _, checks = check_required_contents(
            {"fuzzy_match": "thanks |OR| asks for a refund"}, "Thanks! Please refund me.", intent="Reply", judge=judge
        )
        assert all(c.passed for c in checks)
        prompts = user_prompts(server)
    assert "Reference answer: thanks" in prompts[0] and "Reference answer: asks for a refund" in prompts[1]
    assert all("Thanks! Please refund me." in prompt for prompt in prompts)


# ---- config shape ----


@pytest.mark.parametrize(
    "entry",
    [
        {"url": "", "locator": "", "required_contents": {"must_include": ["x"]}},
        {"url": "last", "locator": None, "required_contents": {"must_include": ["x"]}},
        {"url": "last", "locator": "window.title", "required_contents": {"must_include": ["x"]}},
        {"url": "last", "locator": " document.title", "required_contents": {"must_include": ["x"]}},
        {"url": "func:no_such_helper()", "locator": "", "required_contents": {"must_include": ["x"]}},
        {"url": "last", "locator": "func:os.system('ls')", "required_contents": {"must_include": ["x"]}},
        {"url": "last", "locator": "", "required_contents": {"exact_match": ["x"]}},
        {"url": "last", "locator": "document.title", "prep_actions": "go()", "required_contents": {"exact_match": "x"}},
    ],
)
def test_entries_that_cannot_be_applied_are_config_errors(entry) -> None:
    with pytest.raises(ConfigError):
        check_entries([entry])


def test_empty_program_html_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        check_entries([])


# ---- func: calls are parsed, not evaluated ----


def test_calls_keep_literals_and_runtime_tokens() -> None:
    call = parse_call("shopping_get_order_product_option(__page__, 'B07X', \"Size\")")
    assert (call.name, call.args) == ("shopping_get_order_product_option", (Token.PAGE, "B07X", "Size"))
    args, _ = parse_call("reddit_get_post_url('__last_url__')").bind(page="PAGE", last_url="http://f/x/1/y")
    assert args == ["http://f/x/1/y"]
    args, _ = parse_call("helper(__page__, __last_url__, -2, 1.5)").bind(page="PAGE", last_url="U")
    assert args == ["PAGE", "U", -2, 1.5]


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('true')",
        "helper(open('x'))",
        "helper(a)",
        "helper(*args)",
        "helper()()",
        "x + 1",
        "helper(",
    ],
)
def test_anything_but_one_call_with_literals_is_rejected(text: str) -> None:
    with pytest.raises(ConfigError):
        parse_call(text)
