"""Scoring a finished episode: the evaluators (string, URL, page contents, page images), the judge, the sites' helpers, their state and resets."""

from evaluation.scoring.errors import ConfigError, JudgeReplyError, Unscorable
from evaluation.scoring.intermediate import intermediate_details, intermediate_score
from evaluation.scoring.string_match import Check, string_match, string_match_details
from evaluation.scoring.url_match import url_match

__all__ = [
    "Check",
    "ConfigError",
    "JudgeReplyError",
    "Unscorable",
    "intermediate_details",
    "intermediate_score",
    "string_match",
    "string_match_details",
    "url_match",
]
