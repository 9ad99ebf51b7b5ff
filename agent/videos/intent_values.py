"""Values a task intent carries, and putting them in place of the ones a demonstration used.

A demonstration searched for "yoga mat", chose colour "Sky Blue" and typed the
title "What are you reading this month?"; the task wants "Summitry LED Headlamp
2-Pack", "Forest Green" and 'Best knife for a beginner?'. `intent_values` finds
what the intent names, each with a kind (quoted text, product-like name, forum,
category, topic, colour, size, number, star rating, long number, URL, e-mail), and
the `choose_*` functions pick the intent's value for a demonstrated one when the
demonstrated value is not in the intent and the intent has one of the same kind.
Plain rules over the text, no model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NUMBER_WORDS = {
    "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
}  # fmt: skip
COLOURS = frozenset(
    """red blue green black white grey gray silver gold pink purple lavender burgundy navy beige brown orange
    yellow teal ivory charcoal olive coral khaki tan maroon cream mint rose turquoise violet indigo""".split()
)
SIZES = ("XXS", "XS", "S", "M", "L", "XL", "XXL", "XXXL")
# Imperative first words of intents: a capital there starts the sentence, not a name.
_IMPERATIVES = frozenset(
    """add ask buy change comment create delete downvote find give list make open order place post put remove
    reorder reply review search share show subscribe take tell turn unsubscribe update upvote write what which who
    how when where is are does do did can my i please set""".split()
)
_CONNECTORS = frozenset({"&", "and", "of", "-", "with", "for", "de"})
# Words before a quoted value that say which field it belongs to.
TITLE_CUES = frozenset({"title", "titled", "summary", "subject", "named", "called", "heading", "ask", "asking"})
BODY_CUES = frozenset(
    {"text", "body", "saying", "says", "review", "comment", "reply", "message", "content", "biography"}
)

_QUOTED = re.compile(r"""(?<![\w])'(.+?)'(?![\w])|"(.+?)"|“(.+?)”""")
_URL = re.compile(r"https?://[^\s'\"]+")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
_LONG_NUMBER = re.compile(r"\b\d{5,}\b")
_MONEY = re.compile(r"\$\s?\d[\d,]*(?:\.\d+)?")
_STARS = re.compile(r"\b(\d|one|two|three|four|five)[- ]stars?\b", re.I)
_SIZE = re.compile(r"\bsize\s+([A-Z]{1,4}|\d{1,2})\b")
_FORUM = re.compile(r"\b(?:the|a)\s+([\w-]+)\s+forum\b", re.I)
_CATEGORY = re.compile(r"((?:[A-Z][\w'’,-]*|&)(?:\s+(?:[A-Z][\w'’,-]*|&|and|of))*)\s+category\b")
_TOPIC = re.compile(r"\babout\s+(.+?)(?=\s+and\s+(?:open|show|tell|click)\b|[.?!]|$)", re.I)
_NUMBER = re.compile(r"\b(\d+(?:\.\d+)?)\b")
# Number words count as quantities only after a verb or "for" ("buy one", "put two pairs", "for two").
_NUMBER_WORD = re.compile(
    r"\b(?:buy|add|put|order|place|get|for)\s+(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b", re.I
)
_WORD = re.compile(r"[\w'’&.-]+|[^\w\s]")


@dataclass(frozen=True)
class IntentValue:
    kind: str  # quoted, entity, forum, category, topic, colour, size, stars, number, long_number, money, url, email
    text: str
    cue: str = ""  # the word just before it in the intent (for quoted values: which field they fill)
    start: int = 0  # character offset in the intent


def normalise(text: str) -> str:
    """Lower case, punctuation (and OCR's stray underscores) as spaces, spaces collapsed."""
    return " ".join(re.sub(r"[^\w\s$.]|_", " ", str(text).lower()).split())


def mentioned_in(value: str, text: str) -> bool:
    """Whether `value` occurs in `text` as whole words (ignoring case and punctuation)."""
    value, text = normalise(value), normalise(text)
    return bool(value) and f" {value} " in f" {text} "


def intent_values(intent: str) -> list[IntentValue]:
    """Every value the intent names, in order of appearance (overlaps resolved toward the more specific kind)."""
    found: list[IntentValue] = []
    taken: list[tuple[int, int]] = []

    def add(kind: str, text: str, start: int, end: int) -> None:
        text = text.strip() if kind == "quoted" else text.strip().strip(",.")  # a quoted text is typed as written
        if not text or any(start < b and a < end for a, b in taken):
            return
        taken.append((start, end))
        found.append(IntentValue(kind, text, _cue_before(intent, start), start))

    for match in _QUOTED.finditer(intent):
        group = next(g for g in match.groups() if g is not None)
        add("quoted", group, match.start(), match.end())
    for pattern, kind in ((_URL, "url"), (_EMAIL, "email"), (_MONEY, "money"), (_LONG_NUMBER, "long_number")):
        for match in pattern.finditer(intent):
            add(kind, match.group(0), match.start(), match.end())
    for match in _STARS.finditer(intent):
        add("stars", NUMBER_WORDS.get(match.group(1).lower(), match.group(1)), match.start(), match.end())
    for match in _SIZE.finditer(intent):
        add("size", match.group(1), match.start(1), match.end(1))
    for match in _FORUM.finditer(intent):
        if match.group(1).lower() not in {"same", "this", "that", "every", "new", "whole"}:
            add("forum", match.group(1), match.start(1), match.end(1))
    for match in _CATEGORY.finditer(intent):
        add("category", match.group(1), match.start(1), match.end(1))
    for match in _TOPIC.finditer(intent):
        add("topic", match.group(1), match.start(1), match.end(1))
    for start, end in _colour_spans(intent):
        add("colour", intent[start:end], start, end)
    for start, end in _name_spans(intent):
        add("entity", intent[start:end], start, end)
    for match in _NUMBER_WORD.finditer(intent):
        add("number", NUMBER_WORDS[match.group(1).lower()], match.start(1), match.end(1))
    for match in _NUMBER.finditer(intent):
        add("number", match.group(1), match.start(), match.end())
    return sorted(found, key=lambda value: value.start)


def _cue_before(intent: str, start: int) -> str:
    words = re.findall(r"[a-z]+", intent[:start].lower())
    return words[-1] if words else ""


def _colour_spans(intent: str) -> list[tuple[int, int]]:
    """Colour names, with the capitalised word before them when it is part of the name ("Forest Green")."""
    spans = []
    words = list(re.finditer(r"[A-Za-z]+", intent))
    for n, word in enumerate(words):
        if word.group(0).lower() not in COLOURS:
            continue
        following = words[n + 1] if n + 1 < len(words) else None
        if following and following.group(0).lower() in COLOURS and intent[word.end() : following.start()] == " ":
            continue  # "Coral Red": the next word names the colour with this one
        lead = words[n - 1] if n else None
        joined = lead is not None and intent[lead.end() : word.start()] == " "
        if joined and lead.group(0)[0].isupper() and lead.group(0).lower() not in _IMPERATIVES | {"in", "the"}:
            spans.append((lead.start(), word.end()))
        else:
            spans.append((word.start(), word.end()))
    return spans


def _name_spans(intent: str) -> list[tuple[int, int]]:
    """Runs of capitalised words (numbers and connectors inside) naming a thing: "Summitry LED Headlamp 2-Pack"."""
    spans = []
    tokens = [(m.start(), m.end(), m.group(0)) for m in re.finditer(r"[\w'’&-]+", intent)]
    run: list[tuple[int, int, str]] = []

    def close() -> None:
        while run and run[-1][2].lower() in _CONNECTORS:
            run.pop()
        if run:
            spans.append((run[0][0], run[-1][1]))
        run.clear()

    for n, (start, end, word) in enumerate(tokens):
        if run and intent[run[-1][1] : start] != " ":
            close()  # a comma or other mark between words ends a name
        capital = word[0].isupper() or (word[0].isdigit() and bool(run))
        first_word = n == 0 or intent[tokens[n - 1][1] : start].strip() in (".", "?", "!")
        if capital and not (first_word and word.lower() in _IMPERATIVES) and word.lower() not in {"i", "my"}:
            run.append((start, end, word))
        elif run and word.lower() in _CONNECTORS:
            run.append((start, end, word))
        else:
            close()
    close()
    return spans


# ---- choosing the intent's value for a demonstrated one ----


@dataclass(frozen=True)
class Substitution:
    demonstrated: str
    used: str
    kind: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"from": self.demonstrated, "to": self.used, "kind": self.kind, "reason": self.reason}


def value_kind(text: str) -> str:
    """The kind of a demonstrated value, with the same names as `IntentValue.kind` ("text" when none fits)."""
    text = text.strip()
    if _URL.fullmatch(text):
        return "url"
    if _EMAIL.fullmatch(text):
        return "email"
    if _LONG_NUMBER.fullmatch(text):
        return "long_number"
    if _MONEY.fullmatch(text):
        return "money"
    if re.fullmatch(r"\d+(\.\d+)?", text):
        return "number"
    if text in SIZES:
        return "size"
    words = text.lower().split()
    if words and words[-1] in COLOURS and len(words) <= 2:
        return "colour"
    return "text"


def choose_typed_value(
    demonstrated: str, field_name: str, intent: str, values: list[IntentValue], used: set[str], search_field: bool
) -> Substitution | None:
    """The intent's value to type where the demonstration typed `demonstrated` into `field_name`, or None to keep it."""
    if mentioned_in(demonstrated, intent):
        return None
    # Values not typed yet come first (a title, then a body); one already typed may be typed again (a redo).
    free = [value for value in values if value.text not in used] + [value for value in values if value.text in used]
    kind = value_kind(demonstrated)
    if search_field:
        for wanted in ("entity", "quoted", "topic", "category", "forum"):
            match = next((value for value in free if value.kind == wanted), None)
            if match:
                return Substitution(demonstrated, match.text, wanted, f"search for the task's {wanted} instead")
        return None
    if kind in ("number", "long_number", "url", "email", "money"):
        match = next((value for value in free if value.kind == kind), None)
        if match:
            return Substitution(demonstrated, match.text, kind, f"the task's {kind}")
        if kind == "number" and re.search(r"\b(qty|quantity)\b", field_name.lower()):
            return Substitution(demonstrated, "1", kind, "the task names no quantity: one")
        return None
    quoted = [value for value in free if value.kind == "quoted"]
    if quoted:
        field_words = set(re.findall(r"[a-z]+", field_name.lower()))
        if field_words & (TITLE_CUES | {"name"}):
            pick = next((value for value in quoted if value.cue in TITLE_CUES), None)
        elif field_words & BODY_CUES:
            pick = next((value for value in quoted if value.cue in BODY_CUES), None)
        else:
            pick = None
        pick = pick or quoted[0]
        reason = f"the task's quoted text for {field_name or 'the field'}"
        return Substitution(demonstrated, pick.text, "quoted", reason)
    for wanted in ("entity", "topic"):
        match = next((value for value in free if value.kind == wanted), None)
        if match:
            return Substitution(demonstrated, match.text, wanted, f"the task's {wanted}")
    return None


def choose_option(demonstrated: str, options: list[str], intent: str) -> Substitution | None:
    """The menu option the intent names instead of the demonstrated one, or None to keep it."""
    if mentioned_in(demonstrated, intent) or not options:
        return None
    named = [option for option in options if _option_named(option, intent)]
    if not named:
        return None
    pick = max(named, key=len)
    if pick.strip().lower() == demonstrated.strip().lower():
        return None
    return Substitution(demonstrated, pick, "option", "the option the task names")


def _option_named(option: str, intent: str) -> bool:
    option = option.strip()
    if not option or option.lower().startswith(("choose", "select", "-- ")):
        return False
    if len(option) <= 2:  # "M", "XL", "10": as a whole word, with the case written
        return re.search(rf"(?<![\w'’]){re.escape(option)}(?![\w'’])", intent) is not None
    return mentioned_in(option, intent)


def thing_values(values: list[IntentValue]) -> list[IntentValue]:
    """Values that name something on a page one can click: posts, products, forums, categories, numbers."""
    clickable = ("quoted", "entity", "forum", "category", "long_number", "topic")
    return [value for value in values if value.kind in clickable]
