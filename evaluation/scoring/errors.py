"""Why an evaluator gave no score: the runner records these instead of a 0."""

from __future__ import annotations


class ConfigError(Exception):
    """The task's eval block cannot be applied as written (an unknown rule, a missing or malformed key).

    The message is one line naming the key and what is wrong with it.
    """


class Unscorable(Exception):
    """Scoring needs a model (LLM judge, VQA) that is not configured; the case is reported, never guessed."""


class JudgeReplyError(Exception):
    """The judge model answered something that is not one of the verdicts it was asked for."""
