"""One scorer per rule set, chosen once per evaluation; a raw config's unreadable eval block is a config error."""

from __future__ import annotations

from evaluation.scoring.agentoccam_scoring import AgentOccamScorer
from evaluation.scoring.evaluate import evaluate_task
from evaluation.scoring.scorer import Scorer
from evaluation.scoring.scorers import scorer_for
from evaluation.scoring.scoring_rules import AGENTOCCAM, ScoringRules
from evaluation.scoring.videowa_scoring import VideoWAScorer


def test_each_rule_set_has_its_scorer() -> None:
    videowa = scorer_for(None, quirks=frozenset({"empty_program_html"}))
    assert isinstance(videowa, VideoWAScorer) and videowa.quirks == {"empty_program_html"}
    assert isinstance(scorer_for(ScoringRules()), VideoWAScorer)
    assert isinstance(scorer_for(ScoringRules(AGENTOCCAM)), AgentOccamScorer)
    assert all(isinstance(scorer, Scorer) for scorer in (videowa, scorer_for(ScoringRules(AGENTOCCAM))))


def test_a_raw_config_with_a_key_no_config_has_is_a_config_error_naming_it() -> None:
    config = {"intent": "x", "eval": {"eval_types": ["string_match"], "reference_answers": {"exact_match": "x"},
                                      "string_notes": ""}}  # fmt: skip
    [verdict] = evaluate_task(config, None, "x", "http://shop/", base_url=str).verdicts
    assert (verdict.eval_type, verdict.status) == ("eval", "config_error") and "'string_notes'" in verdict.message
