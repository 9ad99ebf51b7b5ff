"""A task config's `eval` block (and a factual task's `intermediate_eval`) as a typed, frozen record.

The task loader builds it (tasks/loading.py), the config checks and the scorers read it
(tasks/checks.py, evaluation/scoring/), so it lives here below them all. The raw config stays
on the task (`Task.config`) for whatever must save it as written.

Its keys are those of every WebArena, VisualWebArena and VideoWA config (checked against
web-arena-x/webarena, web-arena-x/visualwebarena and ljang0/videowebarena d79b968, all
versions) plus AgentOccam's `or` (its config_files/test.raw.json). A key outside them is
refused when the task loads: it is a typo or a format this project does not read, and
scoring would otherwise ignore it silently.

The fields hold the values as the config wrote them. A config with a defect (eval_types that
is not a list, reference_answers that is not an object) still loads: tasks/checks.py lists the
defect and the scorers turn it into a config_error verdict that names it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

EVAL_TYPES = ("string_match", "url_match", "program_html", "page_image_query")

# The config's key of each field where the two differ ("or" is a Python keyword).
_KEY_OF = {"or_alternatives": "or"}


class UnknownEvalKeys(ValueError):
    """An eval block with keys no config of the WebArena family has."""

    def __init__(self, unknown: list[str]) -> None:
        self.unknown = unknown
        super().__init__(f"unknown key(s) {', '.join(map(repr, unknown))}; known: {', '.join(KNOWN_KEYS)}")


@dataclass(frozen=True)
class EvalBlock:
    eval_types: list[str] | None = None  # string_match, url_match, program_html, page_image_query
    # string_match: exact_match, must_include, must_exclude, one_of, required_values, fuzzy_match (in config order)
    reference_answers: dict[str, Any] | None = None
    reference_url: str | None = None  # url_match: alternatives joined by " |OR| "
    url_note: str | None = None  # "EXACT" or "GOLD in PRED"; absent and null differ (`has`)
    string_note: str | None = None  # fuzzy_match "N/A": the reason the judge compares
    program_html: list[dict[str, Any]] | None = None  # entries {url, locator, required_contents, prep_actions?}
    page_image_query: list[dict[str, Any]] | None = None  # VisualWebArena's image checks
    or_alternatives: list[dict[str, Any]] | None = None  # AgentOccam's "or": more {reference_url} for url_match
    # The annotators' notes: carried in the configs, never scored.
    reference_answer_raw_annotation: Any = None
    annotation_note: Any = None
    given: tuple[str, ...] = ()  # the config's keys, in its order

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EvalBlock:
        """The block as written; UnknownEvalKeys naming every key outside KNOWN_KEYS."""
        unknown = [str(key) for key in data if key not in _FIELD_OF]
        if unknown:
            raise UnknownEvalKeys(unknown)
        return cls(**{_FIELD_OF[key]: value for key, value in data.items()}, given=tuple(data))

    @classmethod
    def of(cls, value: Any) -> EvalBlock | None:
        """The block of a config's `eval` value; None when it is absent or not an object (a config problem)."""
        return cls.from_dict(value) if isinstance(value, Mapping) else None

    def to_dict(self) -> dict[str, Any]:
        """The block as the config wrote it, keys in their order."""
        return {key: getattr(self, _FIELD_OF[key]) for key in self.given}

    def has(self, key: str) -> bool:
        """Whether the config wrote `key` (a config key: "url_note", "or"), even as null."""
        return key in self.given

    @property
    def listed_types(self) -> list[Any]:
        """The eval types as listed; empty when eval_types is absent or not a list (the task has no evaluator)."""
        return self.eval_types if isinstance(self.eval_types, list) else []


_FIELD_OF = {_KEY_OF.get(spec.name, spec.name): spec.name for spec in fields(EvalBlock) if spec.name != "given"}
KNOWN_KEYS = tuple(_FIELD_OF)


__all__ = ["EVAL_TYPES", "KNOWN_KEYS", "EvalBlock", "UnknownEvalKeys"]
