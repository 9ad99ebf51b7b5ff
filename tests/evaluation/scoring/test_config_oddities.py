"""Tasks the reference scores despite an odd config are scored here too (tasks.checks notes them)."""

from __future__ import annotations

from evaluation.scoring.evaluate import evaluate_task


def test_an_empty_program_html_list_is_a_config_error_for_that_score_only() -> None:
    block = {
        "eval_types": ["string_match", "program_html"],
        "reference_answers": {"must_include": ["kettle"]},
        "program_html": [],
    }
    evaluation = evaluate_task({"intent": "Which kettle?", "eval": block}, None, "the red kettle", "http://shop/")
    assert [(v.eval_type, v.status) for v in evaluation.verdicts] == [
        ("string_match", "passed"),
        ("program_html", "config_error"),
    ]


def test_the_intermediate_answer_is_string_matched_whatever_its_eval_types() -> None:
    for eval_types in (None, ["exact"], ["url_match"]):
        block = {"reference_answers": {"must_include": ["tea"]}}
        if eval_types is not None:
            block["eval_types"] = eval_types
        config = {
            "intent": "Buy it",
            "eval": {"eval_types": ["string_match"], "reference_answers": {"must_include": ["done"]}},
            "intermediate_intent": "Which drink did the video buy?",
            "intermediate_eval": block,
        }
        evaluation = evaluate_task(config, None, "done", "http://shop/", intermediate_answer="green tea")
        assert evaluation.intermediate is not None and evaluation.intermediate.status == "passed", eval_types
