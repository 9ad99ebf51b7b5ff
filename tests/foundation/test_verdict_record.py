"""A verdict is a typed record that reads every verdict an earlier version wrote and writes it back unchanged."""

from __future__ import annotations

from foundation.records.verdict import CONFIG_ERROR, FAILED, PASSED, Verdict, combined_status


def test_a_verdict_made_now_writes_the_keys_it_always_did() -> None:
    plain = Verdict("url_match", PASSED, details=[{"key": "url_match", "passed": True}])
    assert plain.to_dict() == {"eval_type": "url_match", "status": "passed", "message": "",
                               "details": [{"key": "url_match", "passed": True}]}  # fmt: skip
    quirked = Verdict("program_html", PASSED, "m", [], ["empty_program_html"], CONFIG_ERROR)
    assert list(quirked.to_dict()) == ["eval_type", "status", "message", "details", "quirks", "without_quirks"]
    assert Verdict.from_dict(quirked.to_dict()) == quirked and Verdict.from_dict(plain.to_dict()) == plain


def test_an_old_verdict_keeps_its_keys_absent_and_unknown_ones_in_place() -> None:
    short = {"eval_type": "config", "status": "config_error"}  # an early config-error verdict: no message, no details
    verdict = Verdict.from_dict(short)
    assert (verdict.message, verdict.details, verdict.score) == ("", [], None)
    assert list(verdict.to_dict().items()) == list(short.items())
    odd = {"status": "failed", "judge_seed": 7, "eval_type": "string_match", "message": "no", "details": []}
    assert list(Verdict.from_dict(odd).to_dict().items()) == list(odd.items())


def test_the_task_status_is_the_first_unscored_status_else_the_product() -> None:
    assert combined_status([Verdict("a", PASSED), Verdict("b", FAILED)]) == FAILED
    unscored = [Verdict("a", FAILED), Verdict("b", "unscorable"), Verdict("c", CONFIG_ERROR)]
    assert combined_status(unscored) == CONFIG_ERROR
    assert combined_status([]) == CONFIG_ERROR
