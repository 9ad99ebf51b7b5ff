"""A task and a trajectory with their values taken out: what each does, not with which product, post or forum.

A tutorial performs each task template once with its own values, and a task names other values by construction,
so the cosine of a derived objective ('Search for "throw pillows", click "Emberly Outdoor Throw Pillows ..."') with
a task ('Buy one Nestwell Electric Kettle ...') is dominated by words that must differ. With
`replay.match_abstracted` stage 1 also compares the two with their values replaced by what kind of thing each is
('Search for "item", click "item", add to cart ...' against 'Buy one item ...'), and a trajectory is as
close to the task as the nearer of the two comparisons says.

Which of a trajectory's names are values is read from the names alone, the same for every task: typed text, a
chosen option, a title of four or more words (a product, a post), a name the page counts ("Computer Accessories
(7)"), a one-word name in lower case (a forum such as "science"). Controls, account pages and short capitalised
names ("Add to Cart", "My Cart", "Electronics") stay as they are.
"""

from __future__ import annotations

from dataclasses import replace

from agent.videos.intent_values import intent_values
from foundation.records.trajectory import LabeledAction, Trajectory
from processing.objectives.wording import derived_objective, starts_with_verb
from tasks.reference.names import LONG_NAME_WORDS, normalise_name, shape, without_count

# What a task's value of each kind is called once taken out (agent/videos/intent_values.py's kinds).
# Bare nouns, as the intent keeps its own article ("the item", "one item").
KIND_WORDS = {
    "entity": "item", "quoted": "text", "topic": "item", "forum": "forum", "category": "category",
    "colour": "option", "size": "option", "stars": "rating", "number": "number",
    "long_number": "number", "money": "amount", "url": "address", "email": "address",
}  # fmt: skip


def abstract_intent(intent: str) -> str:
    """The intent with each value it names replaced by its kind's words."""
    text, offset = intent, 0
    for value in intent_values(intent):
        at = text.find(value.text, value.start + offset)
        if at < 0:
            continue
        begin, end = at, at + len(value.text)
        if value.kind == "quoted" and begin > 0 and end < len(text) and text[begin - 1] in "'\"“":
            begin, end = begin - 1, end + 1  # the quotes go with the text
        words = KIND_WORDS.get(value.kind, "value")
        if text[end:].lstrip().startswith(words):
            words = "some"  # "the science forum": "the some forum", not "the forum forum"
        text = text[:begin] + words + text[end:]
        offset += len(words) - (end - begin)
    return text


def abstract_action(action: LabeledAction) -> LabeledAction:
    """The action with its value taken out (module docstring), or as it is."""
    if action.kind == "type" and action.text.strip():
        return replace(action, text="item" if "search" in action.target.lower() else "text")
    if action.kind == "select" and action.text.strip():
        return replace(action, text="option")
    if action.kind in ("click", "right_click", "hover") and _is_value(action.target):
        return replace(action, target="category" if without_count(action.target) != action.target else "item")
    return action


def _is_value(name: str) -> bool:
    name = " ".join((name or "").split())
    if not name or starts_with_verb(name):
        return False
    if without_count(name) != name:
        return True  # "Computer Accessories (7)": a category the page counts
    if len(normalise_name(name).split()) >= LONG_NAME_WORDS:
        return True  # a product, a post
    return shape(name) == "word" and name.islower()  # a forum ("science")


def abstract_objective(trajectory: Trajectory) -> str:
    """The trajectory's actions in words with their values taken out, without the tutorial's page titles."""
    key = trajectory.trajectory_id, trajectory.objective
    if key not in _ABSTRACTED:
        _ABSTRACTED[key] = derived_objective([abstract_action(action) for action in trajectory.actions])
    return _ABSTRACTED[key]


_ABSTRACTED: dict[tuple[str, str], str] = {}
