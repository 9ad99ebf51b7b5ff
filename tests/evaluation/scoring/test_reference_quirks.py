"""The reference runner's scoring quirks as settings (`evaluation.reference_quirks`, on under `--harness videowa`):
its reddit comment helpers read "" (a naive comment time compared with an aware one raises, and is caught), and a
program_html without entries passes. Configs are written here in VideoWA's format, shaped like its test_reddit:1
and test_shopping:27."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from evaluation.scoring.evaluate import Verdict, evaluate_task, rescore_from_evidence
from evaluation.scoring.reference_quirks import EMPTY_PROGRAM_HTML, REDDIT_COMMENT_TIME, quirk_set
from evaluation.reports.report import summarize, summary_text
from foundation.records.task_record import TaskRecord
from foundation.errors import UserError
from settings import load_settings

USER = "MarvelsGrantMan136"
LATEST = f"func:reddit_get_latest_comment_content_by_username(__page__, '{USER}')"
PARENT = f"func:reddit_get_parent_comment_username_of_latest_comment_by_username(__page__, '{USER}')"

# A Postmill post page, as the comment helpers read it: the user's reply under Candid-Mine5119's comment.
POST_PAGE = f"""
<main id="main">
  <div class="submission"><a class="fg-inherit" href="/user/Poster">Poster</a>
    <span class="vote__net-score">12</span></div>
  <article class="comment" data-level="1">
    <div class="comment__main"><header><h1><a class="fg-inherit">Candid-Mine5119</a>
      <span><time datetime="2023-03-01T09:00:00+00:00">a year ago</time></span></h1></header>
      <div class="comment__content">What a view.</div><span class="vote__net-score">4</span></div>
    <article class="comment" data-level="2">
      <div class="comment__main"><header><h1><a class="fg-inherit">{USER}</a>
        <span><time datetime="2024-06-01T12:00:00+00:00">now</time></span></h1></header>
        <div class="comment__content">I just bought one too</div><span class="vote__net-score">1</span></div>
    </article>
  </article>
</main>
"""

REDDIT_TASK = {  # shaped like VideoWA's test_reddit:1 (its URL entries read the page the agent left here)
    "sites": ["reddit"],
    "task_id": 1,
    "intent": "Reply to Candid-Mine5119's comment with what the person in the video said.",
    "eval": {
        "eval_types": ["program_html"],
        "reference_answers": None,
        "reference_url": "",
        "program_html": [
            {"url": "last", "locator": PARENT, "required_contents": {"exact_match": "Candid-Mine5119"}},
            {"url": "last", "locator": LATEST, "required_contents": {"exact_match": "I just bought one too"}},
        ],
        "string_note": "",
    },
}

EMPTY_TASK = {  # shaped like VideoWA's test_shopping:27: its only eval type has no entries
    "sites": ["shopping"],
    "task_id": 27,
    "intent": "Can you return the preview image urls of all the items the person in the video added to their cart.",
    "intermediate_intent": "What were the names of the items the person in the video added to their cart?",
    "intermediate_eval": {"eval_types": ["string_match"], "reference_answers": {"must_include": ["PlayStation 4"]}},
    "eval": {
        "eval_types": ["program_html"],
        "reference_answers": {"must_include": ["__SHOPPING__/media/catalog/product/cache/B/0/B09LCDGBDY.0.jpg"]},
        "reference_url": "",
        "program_html": [],
        "string_note": "",
    },
}

VIDEOWA = quirk_set(load_settings(harness="videowa").evaluation.reference_quirks)


def no_sites(site: str) -> str:
    raise AssertionError("no site should be needed")


def test_the_videowa_preset_turns_both_quirks_on_and_the_default_none() -> None:
    assert VIDEOWA == {REDDIT_COMMENT_TIME, EMPTY_PROGRAM_HTML}
    assert load_settings().evaluation.reference_quirks == []
    assert load_settings(harness="method").evaluation.reference_quirks == []
    with pytest.raises(UserError, match="reddit_comment_times.*known: empty_program_html, reddit_comment_time"):
        quirk_set(["reddit_comment_times"])


def test_a_reddit_comment_task_that_passes_here_fails_as_in_the_reference(page: Page) -> None:
    page.set_content(POST_PAGE)
    ours = evaluate_task(REDDIT_TASK, page, None, page.url, base_url=no_sites)
    assert (ours.status, ours.score) == ("passed", 1.0)
    assert "quirks" not in ours.to_dict() and "quirks" not in ours.verdicts[0].to_dict()

    reference = evaluate_task(REDDIT_TASK, page, None, page.url, base_url=no_sites, quirks=VIDEOWA)
    assert (reference.status, reference.score) == ("failed", 0.0)
    record = reference.to_dict()
    assert record["quirks"] == [REDDIT_COMMENT_TIME]
    [verdict] = record["verdicts"]
    assert (verdict["quirks"], verdict["without_quirks"]) == ([REDDIT_COMMENT_TIME], "passed")
    # Both entries were read from the page and checked against "" as the reference's helpers give it.
    assert [d["content"] for d in verdict["details"]] == ["Candid-Mine5119", "I just bought one too"]
    assert [(d["passed"], d["without_quirk_passed"]) for d in verdict["details"]] == [(False, True), (False, True)]
    assert all(REDDIT_COMMENT_TIME in d["note"] for d in verdict["details"])
    # The other quirk alone leaves the comment helpers as they are.
    other = evaluate_task(REDDIT_TASK, page, None, page.url, base_url=no_sites, quirks=frozenset({EMPTY_PROGRAM_HTML}))
    assert other.status == "passed"


def test_the_comment_quirk_applies_when_scoring_again_from_saved_contents() -> None:
    title = {"url": "last", "locator": "document.title", "required_contents": {"must_include": ["Eatonville"]}}
    entries = [*REDDIT_TASK["eval"]["program_html"], title]
    config = {**REDDIT_TASK, "eval": {**REDDIT_TASK["eval"], "program_html": entries}}
    saved = [
        {"url": "last", "locator": PARENT, "prep_actions": [], "content": "Candid-Mine5119"},
        {"url": "last", "locator": LATEST, "prep_actions": [], "content": "I just bought one too"},
        {"url": "last", "locator": "document.title", "prep_actions": [], "content": "Eatonville view"},
    ]
    evidence = {"answer": None, "final_url": "http://127.0.0.1:9999/f/Washington/37077", "program_html": saved}
    earlier = [Verdict("program_html", "passed")]
    assert rescore_from_evidence(config, evidence, earlier).status == "passed"
    again = rescore_from_evidence(config, evidence, earlier, quirks=VIDEOWA)
    assert again.status == "failed" and again.quirks == [REDDIT_COMMENT_TIME]
    details = again.verdicts[0].details
    assert [d["passed"] for d in details] == [False, False, True]  # document.title is not a comment helper
    assert "quirk" not in details[2]


def test_an_empty_program_html_is_a_config_error_here_and_a_pass_in_the_reference() -> None:
    ours = evaluate_task(EMPTY_TASK, None, "no idea", "", base_url=no_sites)
    assert (ours.status, ours.score) == ("config_error", None)
    assert "quirks" not in ours.to_dict()

    reference = evaluate_task(EMPTY_TASK, None, "no idea", "", base_url=no_sites, quirks=VIDEOWA)
    assert (reference.status, reference.score) == ("passed", 1.0)  # whatever the episode did, no page read
    [verdict] = reference.to_dict()["verdicts"]
    assert (verdict["quirks"], verdict["without_quirks"]) == ([EMPTY_PROGRAM_HTML], "config_error")
    assert EMPTY_PROGRAM_HTML in verdict["message"]
    # Only an empty list: a missing one stays a config error under the quirk too.
    missing = {**EMPTY_TASK, "eval": {key: v for key, v in EMPTY_TASK["eval"].items() if key != "program_html"}}
    assert evaluate_task(missing, None, "x", "", base_url=no_sites, quirks=VIDEOWA).status == "config_error"
    # Scoring again from the saved record follows the quirks named then.
    previous = [Verdict.from_dict(verdict)]
    assert rescore_from_evidence(EMPTY_TASK, {"answer": "no idea"}, previous).status == "config_error"
    assert rescore_from_evidence(EMPTY_TASK, {"answer": "no idea"}, previous, quirks=VIDEOWA).score == 1.0


def test_the_report_names_every_task_a_quirk_decided() -> None:
    failed_comment = evaluate_task(REDDIT_TASK, None, None, "", base_url=no_sites)  # no page: an error, no quirk
    records = [
        {"task_key": "videowa/test_shopping:27", "eval_types": ["program_html"],
         **evaluate_task(EMPTY_TASK, None, "x", "", base_url=no_sites, quirks=VIDEOWA).to_dict()},
        {"task_key": "videowa/test_reddit:1", "eval_types": ["program_html"],
         **rescore_from_evidence(REDDIT_TASK, {"program_html": [
             {"url": "last", "locator": PARENT, "prep_actions": [], "content": "Candid-Mine5119"},
             {"url": "last", "locator": LATEST, "prep_actions": [], "content": "I just bought one too"}]},
             [], quirks=VIDEOWA).to_dict()},
        {"task_key": "videowa/test_reddit:5", "eval_types": ["program_html"],
         **rescore_from_evidence(REDDIT_TASK, {"program_html": [
             {"url": "last", "locator": PARENT, "prep_actions": [], "content": ""},
             {"url": "last", "locator": LATEST, "prep_actions": [], "content": ""}]},
             [], quirks=VIDEOWA).to_dict()},
        {"task_key": "videowa/test_reddit:2", "eval_types": ["program_html"], **failed_comment.to_dict()},
    ]  # fmt: skip
    records = [TaskRecord.from_dict(item) for item in records]
    summary = summarize(records)
    assert summary["reference_quirks"] == {
        EMPTY_PROGRAM_HTML: ["videowa/test_shopping:27 (program_html would be config_error)"],
        REDDIT_COMMENT_TIME: ["videowa/test_reddit:1 (program_html would be passed)", "videowa/test_reddit:5"],
    }
    text = summary_text(summary)
    assert ("tasks decided by the reference quirk reddit_comment_time (2): videowa/test_reddit:1 "
            "(program_html would be passed), videowa/test_reddit:5") in text  # fmt: skip
    assert "tasks decided by the reference quirk empty_program_html (1): videowa/test_shopping:27" in text
    assert "reference quirk" not in summary_text(summarize(records[3:]))
