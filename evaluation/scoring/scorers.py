"""The scorer of a rule set (evaluation/scoring/scorer.py), chosen once per evaluation."""

from __future__ import annotations

from evaluation.scoring.agentoccam_scoring import AgentOccamScorer
from evaluation.scoring.judge import Judge
from evaluation.scoring.scorer import Scorer
from evaluation.scoring.scoring_rules import ScoringRules
from evaluation.scoring.videowa_scoring import VideoWAScorer


def scorer_for(
    rules: ScoringRules | None, *, quirks: frozenset[str] = frozenset(), judge: Judge | None = None
) -> Scorer:
    """AgentOccam's scorer when `rules` name that set; VideoWA's (with the reference quirks on) otherwise."""
    if rules is not None and rules.agentoccam:
        return AgentOccamScorer(rules, judge)  # its evaluator has no reference quirks of VideoWA's runner
    return VideoWAScorer(judge, quirks)


__all__ = ["scorer_for"]
