"""Soundness checks of one task config: each defect becomes a short message, nothing raises.

Messages start with the field they concern ("eval: missing eval_types") so a list
of them reads like a checklist of what to fix in the config.

Problems stop a task from running (it is recorded as a config error). Notes are
oddities the reference runner runs anyway, so the task runs too and the note is
kept with it: an `intermediate_eval` without usable `eval_types` (the reference
string-matches the intermediate answer whatever they say), and a `program_html`
list with no entries (that one score is a config error here, a free pass in the
reference and under `evaluation.reference_quirks: [empty_program_html]`; the task's
other scores run).
"""

from __future__ import annotations

from typing import Any

from foundation.records.eval_block import EVAL_TYPES, EvalBlock
from tasks.placeholders import KNOWN_SITES

URL_NOTES = ("EXACT", "GOLD in PRED")
REFERENCE_ANSWER_KEYS = ("exact_match", "must_include", "must_exclude", "one_of", "required_values", "fuzzy_match")
REQUIRED_CONTENT_KEYS = ("exact_match", "must_include", "must_exclude", "required_values", "fuzzy_match")
PROGRAM_HTML_KEYS = ("url", "locator", "required_contents")


def task_problems(
    config: dict[str, Any], eval_block: EvalBlock | None, intermediate_block: EvalBlock | None
) -> list[str]:
    """Everything wrong with a task config (a dict, with its `eval` and `intermediate_eval` blocks typed), in
    field order."""
    problems: list[str] = []
    problems += _text_problems(config, "intent")
    problems += _text_problems(config, "start_url")
    problems += _site_problems(config)
    problems += _video_problems(config)
    if "viewport_size" in config and config["viewport_size"] is not None and not isinstance(
        config["viewport_size"], dict
    ):
        problems.append('viewport_size: must be an object like {"width": 1280, "height": 720}')
    if config.get("eval") is None:
        problems.append("eval: missing")
    else:
        problems += eval_block_problems(eval_block, "eval")
    problems += _intermediate_problems(config, intermediate_block)
    return problems


def task_notes(config: dict[str, Any], eval_block: EvalBlock | None, intermediate_block: EvalBlock | None) -> list[str]:
    """Oddities of a task config that the reference runs anyway (see the module docstring)."""
    notes = []
    if eval_block is not None and _empty_program_html(eval_block):
        notes.append("eval: program_html without entries (that score is a config error; the other scores run)")
    if config.get("intermediate_intent") is not None and intermediate_block is not None:
        eval_types = intermediate_block.eval_types
        ignored = "the intermediate answer is string-matched anyway, as the reference does"
        if not isinstance(eval_types, list) or not eval_types:
            notes.append(f"intermediate_eval: no eval_types ({ignored})")
        else:
            unknown = [t for t in eval_types if t not in EVAL_TYPES]
            if unknown:
                notes.append(f"intermediate_eval: unknown eval type {unknown[0]!r} ({ignored})")
            elif "string_match" not in eval_types:
                notes.append(f"intermediate_eval: eval_types lack string_match ({ignored})")
    return notes


def _empty_program_html(block: EvalBlock) -> bool:
    return "program_html" in block.listed_types and isinstance(block.program_html, list) and not block.program_html


def _text_problems(config: dict[str, Any], key: str) -> list[str]:
    if key not in config or config[key] is None:
        return [f"{key}: missing"]
    if not isinstance(config[key], str):
        return [f"{key}: must be a string"]
    if not config[key].strip():
        return [f"{key}: empty"]
    return []


def _site_problems(config: dict[str, Any]) -> list[str]:
    sites = config.get("sites")
    if sites is None:
        return ["sites: missing"]
    if not isinstance(sites, list):
        return ["sites: must be a list of site names"]
    if not sites:
        return ["sites: empty"]
    return [
        f"sites: unknown site {site!r} (known: {', '.join(KNOWN_SITES)})" for site in sites if site not in KNOWN_SITES
    ]


def _video_problems(config: dict[str, Any]) -> list[str]:
    video = config.get("video")
    if video is None or isinstance(video, str):
        return []
    if isinstance(video, list) and all(isinstance(name, str) for name in video):
        return []
    return ["video: must be a video name or a list of names"]


def _intermediate_problems(config: dict[str, Any], block: EvalBlock | None) -> list[str]:
    has_intent = config.get("intermediate_intent") is not None
    has_eval = config.get("intermediate_eval") is not None
    if has_intent and not has_eval:
        return ["intermediate_eval: missing (the task has an intermediate_intent)"]
    if has_eval and not has_intent:
        return ["intermediate_intent: missing (the task has an intermediate_eval)"]
    if not has_intent:
        return []
    problems = _text_problems(config, "intermediate_intent")
    if block is None:
        return problems + ["intermediate_eval: must be an object"]
    # The answer is always string-matched against reference_answers (the reference ignores
    # eval_types here; odd eval_types are a note, see task_notes).
    return problems + _string_match_problems(block, "intermediate_eval")


def eval_block_problems(block: EvalBlock | None, label: str) -> list[str]:
    """Defects of an `eval` or `intermediate_eval` block (None: the config's is not an object); `label` prefixes
    the messages."""
    if block is None:
        return [f"{label}: must be an object"]
    eval_types = block.eval_types
    if eval_types is None:
        return [f"{label}: missing eval_types"]
    if not isinstance(eval_types, list) or not all(isinstance(t, str) for t in eval_types):
        return [f"{label}: eval_types must be a list of names"]
    if not eval_types:
        return [f"{label}: eval_types is empty"]
    problems = [
        f"{label}: unknown eval type {t!r} (known: {', '.join(EVAL_TYPES)})" for t in eval_types if t not in EVAL_TYPES
    ]
    if "string_match" in eval_types:
        problems += _string_match_problems(block, label)
    if "url_match" in eval_types:
        problems += _url_match_problems(block, label)
    if "program_html" in eval_types:
        problems += _program_html_problems(block, label)
    if "page_image_query" in eval_types:
        problems += _page_image_problems(block, label)
    return problems


def _string_match_problems(block: EvalBlock, label: str) -> list[str]:
    answers = block.reference_answers
    if not answers:
        return [f"{label}: string_match without reference_answers"]
    if not isinstance(answers, dict):
        return [f"{label}: reference_answers must be an object"]
    problems = [
        f"{label}: unknown reference_answers key {key!r}" for key in answers if key not in REFERENCE_ANSWER_KEYS
    ]
    keys = list(answers)
    if "required_values" in keys:
        # The reference evaluator turns the prediction into a number at required_values, so a
        # substring check listed after it fails whatever the answer (exact_match compares its text).
        later = keys[keys.index("required_values") + 1 :]
        after = [key for key in later if key in ("must_include", "must_exclude", "one_of")]
        if after:
            problems.append(f"{label}: reference_answers key {after[0]!r} comes after required_values and cannot pass")
    return problems


def _url_match_problems(block: EvalBlock, label: str) -> list[str]:
    problems = []
    reference = block.reference_url
    if not isinstance(reference, str) or not reference.strip():
        problems.append(f"{label}: url_match without reference_url")
    if block.has("url_note"):
        note = block.url_note
        if note == "":
            problems.append(f"{label}: url_note is empty (use EXACT or GOLD in PRED)")
        elif note not in URL_NOTES:
            problems.append(f"{label}: unknown url_note {note!r} (use EXACT or GOLD in PRED)")
    return problems


def _program_html_problems(block: EvalBlock, label: str) -> list[str]:
    entries = block.program_html
    if isinstance(entries, list) and not entries:
        return []  # a note, not a problem: the task's other scores run (task_notes)
    if not isinstance(entries, list):
        return [f"{label}: program_html without entries"]
    problems = []
    for index, entry in enumerate(entries):
        where = f"{label}: program_html[{index}]"
        if not isinstance(entry, dict):
            problems.append(f"{where} must be an object")
            continue
        # An empty locator means "the whole page"; an empty url means nothing.
        missing = [key for key in PROGRAM_HTML_KEYS if entry.get(key) is None or (key == "url" and not entry[key])]
        if missing:
            problems.append(f"{where} missing {', '.join(missing)}")
        contents = entry.get("required_contents")
        if isinstance(contents, dict) and not any(key in contents for key in REQUIRED_CONTENT_KEYS):
            problems.append(f"{where} required_contents has none of {', '.join(REQUIRED_CONTENT_KEYS)}")
        elif contents is not None and not isinstance(contents, dict):
            problems.append(f"{where} required_contents must be an object")
    return problems


def _page_image_problems(block: EvalBlock, label: str) -> list[str]:
    queries = block.page_image_query
    if not isinstance(queries, list) or not queries:
        return [f"{label}: page_image_query without entries"]
    problems = []
    for index, query in enumerate(queries):
        where = f"{label}: page_image_query[{index}]"
        if not isinstance(query, dict):
            problems.append(f"{where} must be an object")
            continue
        missing = [key for key in ("eval_image_url", "eval_image_class") if query.get(key) is None]
        if missing:
            problems.append(f"{where} missing {', '.join(missing)}")
        if not query.get("eval_vqa") and "eval_fuzzy_image_match" not in query:
            problems.append(f"{where} has neither eval_vqa nor eval_fuzzy_image_match")
    return problems
