"""Browser environment, evaluators, task runner and reports."""

from evaluation.errors import ConfigError, JudgeReplyError, Unscorable
from evaluation.intermediate import intermediate_details, intermediate_score
from evaluation.string_match import Check, string_match, string_match_details
from evaluation.url_match import url_match

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
