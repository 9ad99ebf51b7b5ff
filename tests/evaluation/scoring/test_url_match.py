"""url_match: normalisation, EXACT vs GOLD in PRED, alternatives and bad notes."""

from __future__ import annotations

import pytest

from evaluation.scoring import ConfigError, url_match

SHOP = "http://127.0.0.1:7770"


def test_exact_needs_the_whole_url_query_string_included() -> None:
    reference = f"{SHOP}/catalogsearch/result/?q=shoes"
    assert url_match(reference, "EXACT", f"{SHOP}/catalogsearch/result/?q=shoes") == 1.0
    assert url_match(reference, "EXACT", f"{SHOP}/catalogsearch/result/?q=shoes&p=2") == 0.0
    assert url_match(reference, "EXACT", f"{SHOP}/catalogsearch/result/") == 0.0


def test_absent_note_means_exact() -> None:
    assert url_match(f"{SHOP}/wishlist", None, f"{SHOP}/wishlist") == 1.0
    # A substring would pass under GOLD in PRED, but not here.
    assert url_match(f"{SHOP}/wishlist", None, f"{SHOP}/wishlist/index/index") == 0.0


def test_gold_in_pred_is_a_substring_test() -> None:
    reference = f"{SHOP}/checkout/cart"
    assert url_match(reference, "GOLD in PRED", f"{SHOP}/checkout/cart/?utm=x") == 1.0
    assert url_match(reference, "GOLD in PRED", f"{SHOP}/checkout/") == 0.0


def test_localhost_and_127_0_0_1_are_the_same_host_on_both_sides() -> None:
    assert url_match("http://localhost:7770/wishlist", None, f"{SHOP}/wishlist") == 1.0
    assert url_match(f"{SHOP}/wishlist", None, "http://localhost:7770/wishlist") == 1.0
    # Every occurrence is replaced, as in the reference, so a query naming localhost still matches itself.
    assert url_match(f"{SHOP}/search?q=localhost", None, "http://localhost:7770/search?q=localhost") == 1.0


def test_one_trailing_slash_is_ignored_on_both_sides() -> None:
    assert url_match(f"{SHOP}/wishlist/", None, f"{SHOP}/wishlist") == 1.0
    assert url_match(f"{SHOP}/wishlist", None, f"{SHOP}/wishlist/") == 1.0
    # Only one: a doubled slash still differs.
    assert url_match(f"{SHOP}/wishlist", None, f"{SHOP}/wishlist//") == 0.0
    assert url_match(f"{SHOP}/wishlist/", None, f"{SHOP}/wishlist//") == 0.0


def test_bare_site_root_matches_with_or_without_its_slash() -> None:
    assert url_match(SHOP, "EXACT", f"{SHOP}/") == 1.0


def test_gold_in_pred_after_normalising_the_reference() -> None:
    # The reference's trailing slash goes first, so the pagination query still contains it.
    assert url_match("http://localhost:9999/forums/", "GOLD in PRED", "http://127.0.0.1:9999/forums?page=2") == 1.0


def test_alternatives_any_one_suffices() -> None:
    reference = f"{SHOP}/customer/account |OR| {SHOP}/customer/account/index"
    assert url_match(reference, "EXACT", f"{SHOP}/customer/account/index/") == 1.0
    assert url_match(reference, "EXACT", f"{SHOP}/customer/account/edit") == 0.0
    assert url_match(reference, "GOLD in PRED", f"{SHOP}/customer/account/edit") == 1.0


def test_url_comparison_is_case_sensitive() -> None:
    assert url_match(f"{SHOP}/Wishlist", None, f"{SHOP}/wishlist") == 0.0


@pytest.mark.parametrize("note", ["", "exact", "GOLD IN PRED", "PRED in GOLD", "fuzzy"])
def test_any_other_note_is_a_config_error(note: str) -> None:
    with pytest.raises(ConfigError, match="url_note"):
        url_match(f"{SHOP}/wishlist", note, f"{SHOP}/wishlist")


@pytest.mark.parametrize("reference", ["", "   ", f"{SHOP}/a |OR| ", None])
def test_missing_or_empty_reference_is_a_config_error(reference) -> None:
    # Under GOLD in PRED an empty reference would otherwise pass every URL.
    with pytest.raises(ConfigError, match="reference_url"):
        url_match(reference, "GOLD in PRED", f"{SHOP}/anything")
