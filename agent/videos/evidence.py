"""Which demonstrated steps the task itself explains: the words of the task, and its values in the tutorial's place.

A tutorial performs each intent template once with other values, so the steps that serve a task are of two sorts:
- steps on an element the task names in its own words: "sort by Price" for "... sorted by price ...", "Most
  commented" for "... the most commented ones first", "My Orders" for "... my order ...", "Add to Cart" for
  "... to my cart" (every word of a name of one or two words among the task's, two thirds of a longer one,
  compared by stem, small words aside: "Office Products" is not explained by "... products ...");
- steps where the tutorial's value stands in for one the task names (tasks/reference/names.py's rule, the one the
  coverage engine uses): another forum, category, product, colour, size or rating; and typing where the task has
  a value for that field (a search term, a quoted title or body, a number), as the replay would put it in
  (agent/videos/intent_values.py). A control named by a verb ("Set Descending Direction") or an account page ("My Wish
  List") stands in for no value, though the coverage engine's name shapes cannot tell them apart.
Anything else (a detour, another sub-task of the tutorial, navigation the task does not mention) is unexplained.
Scrolls, hovers and pauses are neither: the replay does not carry them out.

Each explaining thing explains one step of a trajectory: a second "sort by Price" in the same trajectory is a
repeat, not more evidence (the tutorial going on to its next example).

With `by_kind` (`replay.evidence_by_kind`), a tutorial's value stands in only for a task value of its own kind: a
title of four or more words (a product, a post) for the task's product or quoted post, a choice for its colour or
size, one word for its forum, a short capitalised name for its category, a number for a number. Without it the
name shapes alone decide, and a category link ("Clothing, Shoes & Jewelry") stood in for a product, a "Women's
Clothing" link for a colour. Typing a value that a click already stood in for repeats it (the tutorial searching for
its next example after opening this one). With `verb_controls` (`replay.task_verb_controls`) the task's verbs also
name the controls that carry them out: "buy" the cart, checkout and order buttons, "put ... in my cart" Add to Cart,
"take ... off" Remove, and a control named by the task's verb and a word for no particular thing ("Remove item")
is named by the task.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from agent.videos.intent_values import BODY_CUES, TITLE_CUES, IntentValue, choose_typed_value, intent_values
from processing.objectives.wording import starts_with_verb
from foundation.records.trajectory import LabeledAction
from tasks.reference.coverage import NOT_REPLAYED
from tasks.reference.names import (
    LONG_NAME_WORDS,
    NAMED_BY_FIRST_WORDS,
    STANDING_IN,
    named_by_task,
    names_match,
    normalise_name,
    shape,
    without_count,
)

# Small words that say nothing of what an element does.
STOP_WORDS = frozenset(
    """a an the my me i of to in on for at by from with and or is are was were be it its this that these those
    all any each every one ones your our their his her what which who how when where do does did can please
    show tell give find list get make let""".split()
)
# A name starting so is one of the account's pages, which the coverage engine's name shapes cannot tell from a value.
ACCOUNT_WORDS = frozenset({"my", "your"})
_WORD = re.compile(r"[a-z0-9]+")
# First words of controls that take back what was done: a tutorial shows them to tidy up after its example.
UNDOING_VERBS = frozenset("cancel clear delete discard empty remove reset retract undo unsubscribe".split())


def stem(word: str) -> str:
    """A word's plain stem: lower case, a plural's -s or -es and a past -ed or -ing dropped ("orders", "sorted")."""
    word = word.lower()
    for ending, keep in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", "e"), ("s", "")):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: len(word) - len(ending)] + keep
    return word


def content_stems(text: str) -> list[str]:
    return [stem(word) for word in _WORD.findall(normalise_name(text)) if word not in STOP_WORDS]


# Words after a control's verb that name no particular thing ("Remove item", "Delete this post").
GENERIC_OBJECTS = frozenset(stem(word) for word in "item product post comment this it selected".split())
# What a task's verb asks of a shop or forum beyond its own word: the words of the controls that carry it out.
_BUYING = "add cart proceed checkout place order"
VERB_CONTROLS: dict[str, str] = {"buy": _BUYING, "purchase": _BUYING, "put": "add", "take": "remove"}
# The value kinds a long title (four words or more) stands in for: a product, a post, a topic.
TITLE_KINDS = frozenset({"entity", "quoted", "topic"})
NUMBER_KINDS = frozenset({"number", "long_number", "money", "stars"})


@dataclass(frozen=True)
class TaskTerms:
    """What a task says: its intent, the stems of its words and its values (agent/videos/intent_values.py), and how a
    tutorial's value may stand in for one of them (module docstring)."""

    intent: str
    stems: frozenset[str]
    values: tuple[IntentValue, ...]
    by_kind: bool = False
    verb_controls: bool = False

    @classmethod
    def of(cls, intent: str, by_kind: bool = False, verb_controls: bool = False) -> TaskTerms:
        return _terms(intent, by_kind, verb_controls)


@lru_cache(maxsize=512)
def _terms(intent: str, by_kind: bool, verb_controls: bool) -> TaskTerms:
    stems = set(content_stems(intent))
    if verb_controls:
        for verb in list(stems):
            stems |= {stem(word) for word in VERB_CONTROLS.get(verb, "").split()}
    return TaskTerms(intent, frozenset(stems), tuple(intent_values(intent)), by_kind, verb_controls)


def terms_for(intent: str, replay: Any) -> TaskTerms:
    """The task's terms as `replay` (ReplaySettings) reads them."""
    return TaskTerms.of(intent, replay.evidence_by_kind, replay.task_verb_controls)


def explanation(action: LabeledAction, terms: TaskTerms) -> str | None:
    """What of the task explains `action` ("words: price", "value: Shoes", "typed: title"), "" for a step that is
    neither explained nor carried out (a scroll, a hover), or None for an unexplained step."""
    if action.kind in NOT_REPLAYED:
        return ""
    if action.kind == "press":
        return ""  # the Enter after typing belongs to the typing; other keys say little either way
    if action.kind == "type":
        if typed_value(action, terms) is not None or _named(action.target, terms):
            return f"typed: {normalise_name(action.target) or 'field'}"
        return None
    names = [action.text, action.target] if action.kind == "select" else [action.target]
    for name in names:
        if not name.strip():
            continue
        if _named(name, terms):
            return f"words: {normalise_name(name)}"
        if starts_with_verb(name) or (name.split()[0].lower() in ACCOUNT_WORDS and not _long_title(name, terms)):
            continue  # a control ("Set Descending Direction") or an account page ("My Wish List"), not a value
        for value in terms.values:
            if terms.by_kind and not _of_its_kind(action, name, value):
                continue
            if terms.by_kind and value.kind in TITLE_KINDS and not named_by_task(name, terms.intent):
                return f"value: {value.text}"  # the tutorial's product or post where the task has its own
            if names_match(name, value.text, terms.intent, choice=action.kind == "select") == STANDING_IN:
                return f"value: {value.text}"
    return None


def _long_title(name: str, terms: TaskTerms) -> bool:
    """With `by_kind`: a name of four or more words, punctuation aside (a product, a post; "My reading stats for
    2022: ..." is a post, not an account page; "Clothing, Shoes & Jewelry" is a category)."""
    return terms.by_kind and _title_length(name)


def _title_length(name: str) -> bool:
    """Four or more words once punctuation and the page's count are dropped."""
    return len(normalise_name(without_count(name)).split()) >= LONG_NAME_WORDS


def _of_its_kind(action: LabeledAction, name: str, value: IntentValue) -> bool:
    """Whether a demonstrated name could be a value of `value`'s kind (module docstring)."""
    form = shape(without_count(name))
    if value.kind in TITLE_KINDS:
        return _title_length(name) and action.kind == "click"
    if value.kind in ("colour", "size"):
        return action.kind == "select"
    if value.kind == "forum":
        return form == "word" and action.kind == "click"
    if value.kind == "category":
        words = without_count(name).split()
        capitalised = all(not word[:1].isalpha() or word[:1].isupper() for word in words)
        return action.kind == "click" and 0 < len(words) < LONG_NAME_WORDS and capitalised
    if value.kind in NUMBER_KINDS:
        return form in ("number", "rating") or action.kind == "select"
    return True


def typed_value(action: LabeledAction, terms: TaskTerms) -> str | None:
    """The task's value the replay would type where `action` typed (None: none)."""
    if action.kind != "type":
        return None
    search = "search" in action.target.lower()
    found = choose_typed_value(action.text, action.target, terms.intent, list(terms.values), set(), search)
    return found.used if found is not None else None


def _named(name: str, terms: TaskTerms) -> bool:
    """The task says the name: all its words when it has one or two, two thirds of a longer one (by stem)."""
    words = content_stems(name)
    if terms.verb_controls and len(words) > 1 and words[0] in terms.stems and starts_with_verb(name):
        if all(word in GENERIC_OBJECTS for word in words[1:]):
            return True  # "Remove item" for "Remove the Copperleaf ... from my wish list"
    said = sum(word in terms.stems for word in words)
    return bool(words) and (said == len(words) if len(words) <= 2 else 3 * said >= 2 * len(words))


COMMIT = "commit"  # the click that sends what was typed (Submit, Save, Post, Place Order)


def evidence(
    actions: list[LabeledAction], terms: TaskTerms, gain: float, cost: float, done: frozenset[str] = frozenset()
) -> float:
    """The steps' evidence for the task: `gain` for each step a thing of the task explains (each thing once, counting
    what this episode has `done` already), less `cost` for each step nothing explains or that repeats; scrolls,
    hovers and keys count nothing. A click on a control named by a verb right after explained typing sends it, and
    is explained by it."""
    total = 0.0
    for why, repeat in _walk(actions, terms, done):
        total += gain if why and not repeat else -cost
    return total


def repeats(actions: list[LabeledAction], terms: TaskTerms, done: frozenset[str] = frozenset()) -> bool:
    """Whether a step repeats what the task explains and this episode (or an earlier step of `actions`) did: the
    tutorial going on to its next example."""
    return any(repeat for _, repeat in _walk(actions, terms, done))


def _walk(actions: list[LabeledAction], terms: TaskTerms, done: frozenset[str]):
    """Each step that counts (scrolls, hovers and keys left out): its explanation (None: unexplained) and whether it
    repeats what `done` or an earlier step holds."""
    used = set(done)
    typed = pending_typing(done, terms)
    for action in actions:
        why = _explained_here(action, terms, typed)
        if why == "":
            continue
        repeat = bool(why) and (why in used or _typed_again(action, why, terms, used))
        yield why, repeat
        if why:
            used.add(why)
        typed = why is not None and not repeat and why.startswith("typed:")  # a repeated typing sends nothing


def _typed_again(action: LabeledAction, why: str, terms: TaskTerms, used: set[str]) -> bool:
    """With `by_kind`: typing a value that a click has already stood in for (the tutorial's next search)."""
    if not (terms.by_kind and why.startswith("typed:")):
        return False
    value = typed_value(action, terms)
    return value is not None and f"value: {value}" in used


def pending_typing(done: frozenset[str] | set[str], terms: TaskTerms | None = None) -> bool:
    """Explained typing was done and nothing has sent it yet. With `by_kind` a search does not count: the replay
    sends it with Enter as it types it, so a later "Downvote" is no click that sends it."""
    searches_sent = terms is not None and terms.by_kind
    return (
        any(why.startswith("typed:") and not (searches_sent and "search" in why) for why in done)
        and COMMIT not in done
    )


def _explained_here(action: LabeledAction, terms: TaskTerms, typed: bool) -> str | None:
    """`explanation`, and the click that sends explained typing (`typed`: the step before was such typing)."""
    why = explanation(action, terms)
    if why is None and typed and action.kind == "click" and starts_with_verb(action.target):
        return COMMIT
    return why


def explained(action: LabeledAction, terms: TaskTerms, done: frozenset[str] | set[str], typed: bool) -> str | None:
    """What explains one step carried out after `done` (`typed`: the step before was explained typing): its
    explanation, "" for a step that counts nothing, None for an unexplained step or a repeat."""
    why = _explained_here(action, terms, typed)
    if why and (why in done or _typed_again(action, why, terms, set(done))):
        return None
    return why


def undoes_unasked(action: LabeledAction, terms: TaskTerms) -> bool:
    """Whether `action` presses a control that takes something back ("Remove", "Delete item") which the task does
    not ask for in its own words: a detour the replay never follows (the tutorial emptying its cart)."""
    if action.kind not in ("click", "right_click"):
        return False
    words = _WORD.findall((action.target or "").lower())
    return bool(words) and words[0] in UNDOING_VERBS and stem(words[0]) not in terms.stems


def values_to_find(terms: TaskTerms) -> list[IntentValue]:
    """The task's things that are found on the site rather than typed: its product, topic, or a quoted post that no
    title or body cue marks as text to write."""
    return [
        value for value in terms.values
        if value.kind in ("entity", "topic") or (value.kind == "quoted" and value.cue not in TITLE_CUES | BODY_CUES)
    ]  # fmt: skip


def reached(terms: TaskTerms, done: frozenset[str] | set[str], page_names: list[str]) -> bool:
    """Whether the episode has reached every thing the task is to find: a step stood in for it, or the page names it
    (its title, or an element on it: the product's own page, the wish list's row)."""
    said = [f" {normalise_name(name)} " for name in page_names if name]
    for value in values_to_find(terms):
        if f"value: {value.text}" in done:
            continue
        words = normalise_name(value.text).split()[:NAMED_BY_FIRST_WORDS]
        if not words or not any(f" {' '.join(words)} " in text for text in said):
            return False
    return True


def acts_before_reaching(actions: list[LabeledAction], terms: TaskTerms) -> bool:
    """Whether the first step that counts is a control named by a verb that the task's words explain ("Upvote", "Add
    to Cart"): done before the task's thing is reached, it acts on whatever the page shows (the tutorial's next
    example)."""
    for action in actions:
        why = explanation(action, terms)
        if why == "":
            continue
        return bool(why) and why.startswith("words:") and action.kind == "click" and starts_with_verb(action.target)
    return False


def does_what_is_left(actions: list[LabeledAction], terms: TaskTerms, done: frozenset[str] | set[str]) -> bool:
    """Whether the first step that counts does something of the task that is not done yet."""
    typed = pending_typing(done, terms)
    for action in actions:
        why = explained(action, terms, done, typed)
        if why == "":
            continue
        return bool(why)
    return False
