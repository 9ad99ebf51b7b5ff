"""Task scores from verdicts: the product of scored evaluators, never a 0 for a case that could not be
scored; the intermediate score; and scoring again from saved evidence."""

from __future__ import annotations

from evaluation.scoring.evaluate import Verdict, evaluate_task, rescore_from_evidence

SHOP = "http://127.0.0.1:7770"


def task(eval_block: dict, **extra) -> dict:
    return {"intent": "How many orders?", "eval": eval_block, **extra}


def no_sites(site: str) -> str:
    raise AssertionError("no site should be needed")


def evaluate(config: dict, answer: str | None, final_url: str = SHOP, **kwargs):
    return evaluate_task(config, None, answer, final_url, base_url=no_sites, **kwargs)


def test_score_is_the_product_of_every_listed_evaluator() -> None:
    config = task({
        "eval_types": ["string_match", "url_match"],
        "reference_answers": {"must_include": ["3"]},
        "reference_url": f"{SHOP}/sales/order/history/",
    })  # fmt: skip
    passed = evaluate(config, "3 orders", f"{SHOP}/sales/order/history/")
    half = evaluate(config, "3 orders", f"{SHOP}/")
    assert (passed.status, passed.score) == ("passed", 1.0)
    assert (half.status, half.score) == ("failed", 0.0)
    assert [v.status for v in half.verdicts] == ["passed", "failed"]


def test_url_alternatives_any_one_suffices_and_each_is_recorded() -> None:
    config = task({"eval_types": ["url_match"], "reference_url": f"{SHOP}/a |OR| {SHOP}/b", "url_note": "EXACT"})
    evaluation = evaluate(config, None, f"{SHOP}/b/")
    assert evaluation.score == 1.0
    assert [d["passed"] for d in evaluation.verdicts[0].details] == [False, True]


def test_unscorable_or_config_error_beside_a_fail_is_not_a_zero() -> None:
    unscorable = task({
        "eval_types": ["url_match", "string_match"],
        "reference_url": f"{SHOP}/cart",
        "reference_answers": {"fuzzy_match": ["three orders"]},
    })  # fmt: skip
    evaluation = evaluate(unscorable, "3", f"{SHOP}/elsewhere")
    assert (evaluation.status, evaluation.score) == ("unscorable", None)
    broken = task({"eval_types": ["string_match", "url_match"], "reference_answers": {"must_include": ["3"]},
                   "reference_url": f"{SHOP}/cart", "url_note": ""})  # fmt: skip
    evaluation = evaluate(broken, "4", f"{SHOP}/cart")
    assert (evaluation.status, evaluation.score) == ("config_error", None)
    assert "url_note" in evaluation.verdicts[1].message


def test_unknown_eval_type_and_missing_eval_block_are_config_errors() -> None:
    assert evaluate(task({"eval_types": ["html_match"]}), "x").status == "config_error"
    assert evaluate({"intent": "x"}, "x").status == "config_error"


def test_page_evaluators_without_a_page_are_errors_after_the_config_check() -> None:
    good = task({"eval_types": ["program_html"], "program_html": [
        {"url": "last", "locator": "", "required_contents": {"must_include": ["x"]}}]})  # fmt: skip
    bad = task({"eval_types": ["program_html"], "program_html": [{"url": "last", "locator": ""}]})
    assert evaluate(good, None).status == "error"
    assert evaluate(bad, None).status == "config_error"


def test_an_agent_that_never_stopped_is_scored_on_an_empty_answer() -> None:
    config = task({"eval_types": ["string_match"], "reference_answers": {"must_exclude": ["refund"]}})
    assert evaluate(config, None).score == 1.0


FACTUAL = task(
    {"eval_types": ["string_match"], "reference_answers": {"must_include": ["Pittsburgh"]}},
    intermediate_intent="Which city was the order shipped to in the video?",
    intermediate_eval={"eval_types": ["string_match"], "reference_answers": {"must_include": ["Boston"]}},
)


def test_intermediate_score_is_kept_apart_from_the_task_score() -> None:
    evaluation = evaluate(FACTUAL, "Pittsburgh", intermediate_answer="It went to Boston.")
    assert (evaluation.score, evaluation.intermediate_score) == (1.0, 1.0)
    evaluation = evaluate(FACTUAL, "Pittsburgh", intermediate_answer="Denver")
    assert (evaluation.score, evaluation.intermediate_score) == (1.0, 0.0)
    unanswered = evaluate(FACTUAL, "Pittsburgh")
    assert unanswered.intermediate.status == "unscorable" and unanswered.intermediate_score is None
    skill = task({"eval_types": ["string_match"], "reference_answers": {"must_include": ["x"]}})
    assert evaluate(skill, "x").intermediate is None


def test_rescoring_from_evidence_applies_a_fixed_config_without_the_sites() -> None:
    page_entry = {"url": "last", "locator": "document.title", "required_contents": {"must_include": ["Cart"]}}
    config = task({"eval_types": ["string_match", "program_html"], "reference_answers": {"must_include": ["4"]},
                   "program_html": [page_entry]})  # fmt: skip
    evidence = {
        "answer": "3 orders",
        "final_url": SHOP,
        "program_html": [{"url": "last", "locator": "document.title", "prep_actions": [], "content": "Shopping Cart"}],
    }
    earlier = [Verdict("string_match", "failed"), Verdict("program_html", "passed")]
    fixed = {**config, "eval": {**config["eval"], "reference_answers": {"must_include": ["3"]}}}
    again = rescore_from_evidence(fixed, evidence, earlier)
    assert (again.status, again.score) == ("passed", 1.0)
    stricter = {**fixed, "eval": {**fixed["eval"], "program_html": [
        {**page_entry, "required_contents": {"must_include": ["Checkout"]}}]}}  # fmt: skip
    assert rescore_from_evidence(stricter, evidence, earlier).score == 0.0
    elsewhere = {**fixed, "eval": {**fixed["eval"], "program_html": [{**page_entry, "url": f"{SHOP}/cart"}]}}
    moved = rescore_from_evidence(elsewhere, evidence, earlier)
    assert moved.status == "error" and "run it again" in moved.verdicts[1].message
