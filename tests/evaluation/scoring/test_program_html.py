"""program_html against the running sandbox sites: every url and locator form, prep_actions, the
rules on live content, site helpers behind `func:`, and config errors recorded as such."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from evaluation.scoring.evaluate import evaluate_task
from evaluation.scoring.program_html import program_html_details

from tests.evaluation.scoring.scoring_helpers import (
    FORUM_USER,
    comment_author,
    forum_log_in,
    open_first_result,
    place_order,
)

PRODUCT_QUERY = "yoga+leggings"


def entry(url: str, locator: str, **required) -> dict:
    return {"url": url, "locator": locator, "required_contents": required}


def run(entries: list[dict], page: Page, base_url, final_url: str | None = None):
    return program_html_details(entries, page, final_url=final_url or page.url, base_url=base_url)


def task(entries: list[dict], intent: str = "check the site") -> dict:
    return {"intent": intent, "eval": {"eval_types": ["program_html"], "program_html": entries}}


# ---- url forms ----


def test_plain_url_is_opened_and_the_whole_html_is_read(sandbox, page: Page, base_url) -> None:
    page.goto(sandbox.forum_url)
    product_url = sandbox.shop_url + "/checkout/cart/"
    [result] = run([entry(product_url, "", must_include=['id="shopping-cart-table" |OR| cart-empty'])], page, base_url)
    assert result.visited_url == product_url
    assert result.content == page.content() and "<html" in result.content
    assert result.passed


def test_last_stays_on_the_page_the_agent_left(sandbox, page: Page, base_url) -> None:
    open_first_result(page, sandbox.shop_url, PRODUCT_QUERY)
    name = page.locator("h1").inner_text()
    [result] = run([entry("last", "document.querySelector('h1').outerText", exact_match=name)], page, base_url)
    assert result.visited_url == page.url and result.content == name and result.passed


def test_func_url_gets_the_last_url_the_agent_ended_on(sandbox, page: Page, base_url) -> None:
    post = sandbox.forum_url + "/f/movies"
    page.goto(post)
    page.get_by_role("link", name="What's the best movie score of the last decade?").click()
    post_url = page.url
    comment_url = page.locator(".comment__permalink").first.get_attribute("href")
    page.goto(sandbox.forum_url + comment_url)
    page.goto(sandbox.forum_url + "/forums")  # the evaluator's page moved on; the agent's final URL did not
    url = "func:reddit_get_post_url('__last_url__')"
    entries = [entry(url, "document.title", must_include=["score"])]
    [result] = run(entries, page, base_url, sandbox.forum_url + comment_url)
    assert result.visited_url.rstrip("/") == re.sub(r"/[^/]*$", "", post_url)  # /f/movies/<id>/
    assert result.passed


# ---- locator forms ----


def test_document_locator_errors_read_as_empty_text(sandbox, page: Page, base_url) -> None:
    page.goto(sandbox.shop_url)
    results = run(
        [
            entry("last", "document.querySelector('#no-such-element').outerText", exact_match=""),
            entry("last", "document.querySelector('#no-such-element').outerText", must_include=["Market"]),
        ],
        page,
        base_url,
    )
    assert [r.content for r in results] == ["", ""]
    assert [r.passed for r in results] == [True, False]


def test_document_values_become_text_as_python_writes_them(sandbox, page: Page, base_url) -> None:
    page.goto(sandbox.shop_url)
    results = run(
        [
            entry("last", "document.querySelectorAll('.product-item').length > 0", exact_match="True"),
            entry("last", "document.body.dataset.missing", exact_match="None"),
            entry("last", "[...document.querySelectorAll('.navigation .level0 > a')].length", required_values=["> 3"]),
        ],
        page,
        base_url,
    )
    assert [r.content for r in results][:2] == ["True", "None"]
    assert all(r.passed for r in results), [r.to_dict() for r in results]


def test_prep_actions_run_first_and_stop_silently_at_the_first_failure(sandbox, page: Page, base_url) -> None:
    page.goto(sandbox.shop_url)
    prepared = {
        **entry("last", "document.querySelector('h1').outerText", exact_match="prepared"),
        "prep_actions": ["document.querySelector('h1').textContent = 'prepared'"],
    }
    halted = {
        **entry("last", "document.querySelector('h1').outerText", exact_match="prepared"),
        "prep_actions": [
            "document.querySelector('h1').textContent = 'first'",
            "document.querySelector('#missing').click()",
            "document.querySelector('h1').textContent = 'prepared'",
        ],
    }
    first, second = run([prepared, halted], page, base_url)
    assert (first.content, first.passed) == ("prepared", True)
    assert (second.content, second.passed) == ("first", False)


def test_lambda_error_or_falsy_value_fails_the_entry_whatever_the_rule(sandbox, page: Page, base_url) -> None:
    page.goto(sandbox.shop_url)
    # must_exclude of a string absent from any page would pass on any content, so only the
    # lambda's failure can fail these entries.
    results = run(
        [
            entry("last", "lambda:() => { throw new Error('no cart') }", must_exclude=["zzz-absent"]),
            entry("last", "lambda:() => document.querySelectorAll('#missing').length", must_exclude=["zzz-absent"]),
            entry("last", "lambda:() => document.querySelectorAll('.product-item').length", required_values=[">= 1"]),
        ],
        page,
        base_url,
    )
    assert [r.passed for r in results] == [False, False, True]
    assert results[0].content is None and results[1].content is None
    assert results[2].content == page.locator(".product-item").count()


def test_func_locator_reads_the_page_through_a_site_helper(sandbox, page: Page, base_url) -> None:
    open_first_result(page, sandbox.shop_url, PRODUCT_QUERY)
    shown = float(page.locator(".product-info-price .price").inner_text().lstrip("$").replace(",", ""))
    reviews = page.locator(".review-item").count()
    results = run(
        [
            entry("last", "func:shopping_get_product_price(__page__)", required_values=[f"== {shown}"]),
            entry("last", "func:shopping_get_num_reviews(__page__)", required_values=[f"== {reviews}"]),
            entry("last", "func:shopping_get_num_reviews(__page__)", required_values=[f"== {reviews + 1}"]),
        ],
        page,
        base_url,
    )
    assert [r.passed for r in results] == [True, True, False]


# ---- the state left by an episode, found through the REST API ----


def test_newest_order_is_found_through_the_rest_api_after_an_order_in_the_browser(
    fresh_sandbox, page: Page, base_url
) -> None:
    number, sku, options = place_order(page, fresh_sandbox.shop_url, PRODUCT_QUERY, qty=2)
    page.goto(fresh_sandbox.shop_url)  # the agent ended elsewhere; the helper finds the order anyway
    option, value = next(iter(options.items()))
    entries = [
        entry("func:shopping_get_latest_order_url()", "document.querySelector('.order-details-items').outerText",
              must_include=[sku]),  # fmt: skip
        entry("last", f"func:shopping_get_order_product_quantity(__page__, '{sku}')", required_values=["== 2"]),
        entry("last", f"func:shopping_get_order_product_option(__page__, '{sku}', '{option}')", exact_match=value),
        entry("last", f"func:shopping_get_order_product_quantity(__page__, '{sku}')", required_values=["== 3"]),
    ]
    results = run(entries, page, base_url)
    assert results[0].visited_url == f"{fresh_sandbox.shop_url}/sales/order/view/order_id/{int(number)}/"
    assert [r.passed for r in results] == [True, True, True, False]
    assert results[1].content == 2


def test_the_newest_comment_of_a_user_and_the_author_it_answered(fresh_sandbox, page: Page, base_url) -> None:
    forum = fresh_sandbox.forum_url
    forum_log_in(page, forum)
    page.goto(forum + "/f/movies")
    page.get_by_role("link", name="What's the best movie score of the last decade?").click()
    target = next(c for c in page.locator(".submission-comments > article.comment").all()
                  if comment_author(c) != FORUM_USER.username)  # fmt: skip
    parent = comment_author(target)
    target.locator(".comment__nav").first.get_by_role("link", name="Reply").click()
    page.get_by_label("Comment").fill("Hans Zimmer again, every time.")
    page.get_by_role("button", name="Post", exact=True).click()
    expect(page).to_have_url(re.compile(r"/comment/\d+"))
    final_url = page.url

    user = FORUM_USER.username
    post = "func:reddit_get_post_url('__last_url__')"
    results = run(
        [
            entry(post, f"func:reddit_get_latest_comment_content_by_username(__page__, '{user}')",
                  must_include=["Hans Zimmer again"]),
            entry("last", f"func:reddit_get_parent_comment_username_of_latest_comment_by_username(__page__, '{user}')",
                  exact_match=parent),
            entry("last", f"func:reddit_get_latest_comment_content_by_username(__page__, '{user}')",
                  must_include=["Interstellar"]),  # the seeded older comment is no longer the newest
        ],
        page,
        base_url,
        final_url,
    )  # fmt: skip
    assert [r.passed for r in results] == [True, True, False]


# ---- through evaluate_task: config errors, unscorable, first-key on a live page ----


def test_config_errors_are_recorded_as_such_not_as_zero(sandbox, page: Page, base_url) -> None:
    page.goto(sandbox.shop_url)
    for entries in (
        [entry("last", "func:shopping_get_favourite_colour(__page__)", must_include=["x"])],
        [{"url": "last", "locator": "", "required_contents": {"must_contain": ["x"]}}],
        [entry("last", "", must_include=["One Stop Market"]), entry("last", "xpath://h1", must_include=["x"])],
    ):
        evaluation = evaluate_task(task(entries), page, None, page.url, base_url=base_url)
        assert evaluation.status == "config_error" and evaluation.score is None
        assert evaluation.verdicts[0].message


def test_fuzzy_content_without_a_judge_is_unscorable(sandbox, page: Page, base_url) -> None:
    page.goto(sandbox.shop_url)
    entries = [entry("last", "document.querySelector('h1').outerText", fuzzy_match="a welcome message")]
    evaluation = evaluate_task(task(entries), page, None, page.url, base_url=base_url)
    assert (evaluation.status, evaluation.score) == ("unscorable", None)


def test_first_present_key_decides_on_a_live_page(sandbox, page: Page, base_url) -> None:
    open_first_result(page, sandbox.shop_url, PRODUCT_QUERY)
    name = page.locator("h1").inner_text()
    contents = {"must_include": ["this text is on no page"], "exact_match": name}
    entries = [{"url": "last", "locator": "document.querySelector('h1').outerText", "required_contents": contents}]
    evaluation = evaluate_task(task(entries), page, None, page.url, base_url=base_url)
    assert evaluation.score == 1.0
    [detail] = evaluation.verdicts[0].details
    assert detail["key"] == "exact_match" and detail["ignored_keys"] == ["must_include"]


def test_a_site_that_cannot_be_read_is_an_error_not_a_zero(sandbox, page: Page) -> None:
    page.goto(sandbox.shop_url)
    entries = [entry("func:shopping_get_latest_order_url()", "", must_include=["x"])]
    closed_port = "http://127.0.0.1:9"
    evaluation = evaluate_task(task(entries), page, None, page.url, base_url=lambda site: closed_port)
    assert (evaluation.status, evaluation.score) == ("error", None)
    assert closed_port in evaluation.verdicts[0].message


def test_evidence_keeps_what_was_read(sandbox, page: Page, base_url) -> None:
    page.goto(sandbox.shop_url)
    locator = "document.querySelector('h1').outerText"
    evaluation = evaluate_task(task([entry("last", locator, must_include=["x"])]), page, "done", page.url,
                               base_url=base_url)  # fmt: skip
    [saved] = evaluation.evidence["program_html"]
    assert saved["content"] == page.locator("h1").inner_text() and saved["locator"] == locator
    assert evaluation.evidence["answer"] == "done"
