"""Which demonstrated steps the task itself explains: the words of the task, and its values in the tutorial's place.

A tutorial performs each intent template once with other values, so the steps that serve a task are of two sorts:
- steps on an element the task names in its own words: "sort by Price" for "... sorted by price ...", "Most
  commented" for "... the most commented ones first", "My Orders" for "... my order ...", "Add to Cart" for
  "... to my cart" (every word of a name of one or two words among the task's, two thirds of a longer one,
  compared by stem, small words aside: "Office Products" is not explained by "... products ...");
- steps where the tutorial's value stands in for one the task names (tasks/reference/names.py's rule, the one the
  coverage engine uses): another forum, category, product, colour, size or rating; and typing where the task has
  a value for that field (a search term, a quoted title or body, a number), as the replay would put it in
  (agent/replay/values.py). A control named by a verb ("Set Descending Direction") or an account page ("My Wish
  List") stands in for no value, though the coverage engine's name shapes cannot tell them apart.
Anything else (a detour, another sub-task of the tutorial, navigation the task does not mention) is unexplained.
Scrolls, hovers and pauses are neither: the replay does not carry them out.

Each explaining thing explains one step of a trajectory: a second "sort by Price" in the same trajectory is a
repeat, not more evidence (the tutorial going on to its next example).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from agent.replay.values import IntentValue, choose_typed_value, intent_values
from processing.objectives.wording import starts_with_verb
from foundation.records.trajectory import LabeledAction
from tasks.reference.coverage import NOT_REPLAYED
from tasks.reference.names import STANDING_IN, names_match, normalise_name

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


@dataclass(frozen=True)
class TaskTerms:
    """What a task says: its intent, the stems of its words and its values (agent/replay/values.py)."""

    intent: str
    stems: frozenset[str]
    values: tuple[IntentValue, ...]

    @classmethod
    def of(cls, intent: str) -> TaskTerms:
        return _terms(intent)


@lru_cache(maxsize=512)
def _terms(intent: str) -> TaskTerms:
    return TaskTerms(intent, frozenset(content_stems(intent)), tuple(intent_values(intent)))


def explanation(action: LabeledAction, terms: TaskTerms) -> str | None:
    """What of the task explains `action` ("words: price", "value: Shoes", "typed: title"), "" for a step that is
    neither explained nor carried out (a scroll, a hover), or None for an unexplained step."""
    if action.kind in NOT_REPLAYED:
        return ""
    if action.kind == "press":
        return ""  # the Enter after typing belongs to the typing; other keys say little either way
    if action.kind == "type":
        search = "search" in action.target.lower()
        found = choose_typed_value(action.text, action.target, terms.intent, list(terms.values), set(), search)
        if found is not None or _named(action.target, terms):
            return f"typed: {normalise_name(action.target) or 'field'}"
        return None
    names = [action.text, action.target] if action.kind == "select" else [action.target]
    for name in names:
        if not name.strip():
            continue
        if _named(name, terms):
            return f"words: {normalise_name(name)}"
        if starts_with_verb(name) or name.split()[0].lower() in ACCOUNT_WORDS:
            continue  # a control ("Set Descending Direction") or an account page ("My Wish List"), not a value
        for value in terms.values:
            if names_match(name, value.text, terms.intent, choice=action.kind == "select") == STANDING_IN:
                return f"value: {value.text}"
    return None


def _named(name: str, terms: TaskTerms) -> bool:
    """The task says the name: all its words when it has one or two, two thirds of a longer one (by stem)."""
    words = content_stems(name)
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
    typed = pending_typing(done)
    for action in actions:
        why = _explained_here(action, terms, typed)
        if why == "":
            continue
        repeat = bool(why) and why in used
        yield why, repeat
        if why:
            used.add(why)
        typed = why is not None and not repeat and why.startswith("typed:")  # a repeated typing sends nothing


def pending_typing(done: frozenset[str] | set[str]) -> bool:
    """Explained typing was done and nothing has sent it yet."""
    return any(why.startswith("typed:") for why in done) and COMMIT not in done


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
    if why and why in done:
        return None
    return why


def undoes_unasked(action: LabeledAction, terms: TaskTerms) -> bool:
    """Whether `action` presses a control that takes something back ("Remove", "Delete item") which the task does
    not ask for in its own words: a detour the replay never follows (the tutorial emptying its cart)."""
    if action.kind not in ("click", "right_click"):
        return False
    words = _WORD.findall((action.target or "").lower())
    return bool(words) and words[0] in UNDOING_VERBS and stem(words[0]) not in terms.stems
