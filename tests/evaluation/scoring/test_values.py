"""required_values items: operator order, tolerance, and what counts as a number."""

from __future__ import annotations

import pytest

from evaluation.scoring.errors import ConfigError
from evaluation.scoring.values import compare_required_value, parse_integer


@pytest.mark.parametrize(
    ("content", "requirement", "expected"),
    [
        ("2", "== 2", True),
        ("3", "== 2", False),
        ("5", "<= 5", True),
        ("6", "<= 5", False),
        ("10", ">= 10", True),
        ("9", ">= 10", False),
        ("4", "< 5", True),
        ("5.1", "< 5", False),
        ("6", "> 5", True),
        ("4.9", "> 5", False),
        ("-3", "== -3", True),
        ("2.5", "== 2.5", True),
    ],
)
def test_each_operator(content: str, requirement: str, expected: bool) -> None:
    assert compare_required_value(content, requirement) is expected


def test_two_character_operators_are_found_before_their_one_character_prefix() -> None:
    # Read as "<" with bound "= 5" the item would not parse at all; read as "<=" it passes at 5.
    assert compare_required_value("5", "<= 5") is True
    assert compare_required_value("5", "<=5") is True
    assert compare_required_value("5", ">= 5") is True
    assert compare_required_value("4", ">= 5") is False


def test_strict_operators_accept_the_bound_itself_because_of_the_tolerance() -> None:
    # The reference gives "<" and ">" the same 1e-8 slack as the others, so 5 is "< 5".
    assert compare_required_value("5", "< 5") is True
    assert compare_required_value("5", "> 5") is True


def test_equality_tolerance_is_1e_minus_8() -> None:
    assert compare_required_value("0.30000000000000004", "== 0.3") is True
    assert compare_required_value("0.300000005", "== 0.3") is True
    assert compare_required_value("0.3000001", "== 0.3") is False


def test_commas_are_removed_from_the_content() -> None:
    assert compare_required_value("1,234", "== 1234") is True
    assert compare_required_value(" 12,000.50 ", ">= 12000.5") is True


def test_numbers_from_site_helpers_are_used_as_they_are() -> None:
    assert compare_required_value(3, "== 3") is True
    assert compare_required_value(19.99, "< 20") is True


@pytest.mark.parametrize("content", ["about 5", "", "N/A", "5 items", "nan", "inf"])
def test_content_that_is_not_a_number_fails(content: str) -> None:
    assert compare_required_value(content, "<= 1000000") is False


def test_alternatives_any_one_suffices() -> None:
    assert compare_required_value("2", "== 1 |OR| == 2") is True
    assert compare_required_value("3", "== 1 |OR| == 2") is False


@pytest.mark.parametrize("requirement", ["5", "!= 5", "== five", "== 1 == 2", "", "== 1 |OR| 2", "> = 5"])
def test_malformed_requirement_is_a_config_error(requirement: str) -> None:
    with pytest.raises(ConfigError):
        compare_required_value("5", requirement)


def test_malformed_requirement_is_reported_even_when_the_content_is_not_a_number() -> None:
    with pytest.raises(ConfigError, match="no operator"):
        compare_required_value("no number here", "10")


def test_requirement_must_be_a_string() -> None:
    with pytest.raises(ConfigError):
        compare_required_value("5", 5)  # type: ignore[arg-type]


def test_answers_are_read_as_whole_numbers() -> None:
    assert parse_integer("1,234") == 1234
    assert parse_integer(" 42 ") == 42
    assert parse_integer("12.5") is None
    assert parse_integer("42 items") is None
