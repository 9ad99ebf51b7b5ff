"""What the model-free selection reads of a task (agent/replay/evidence.py): which demonstrated steps the task's words
or values explain, and the evidence a span carries once the episode has done some of the task."""

from __future__ import annotations

from agent.replay.evidence import TaskTerms, evidence, explanation, undoes_unasked
from foundation.records.trajectory import LabeledAction

SORT_TASK = "Show me the products in the Shoes category sorted by price from highest to lowest."
POST_TASK = "Create a post in the travel forum titled 'Packing list for a week of hiking?' with the text 'I leave soon.'"


def click(target: str) -> LabeledAction:
    return LabeledAction("click", target)


def test_a_step_the_task_names_is_explained_and_a_detour_is_not() -> None:
    terms = TaskTerms.of(SORT_TASK)
    assert explanation(LabeledAction("select", "Sort By", "Price"), terms) is not None
    assert explanation(click("My Wish List"), terms) is None
    # One of two words in common is not enough: the task says "products", not "compare products".
    assert explanation(click("Compare products"), terms) is None
    assert explanation(click("Sort by price"), terms) == "words: sort by price"


def test_the_tutorials_category_stands_in_for_the_tasks_but_a_verb_named_control_does_not() -> None:
    terms = TaskTerms.of(SORT_TASK)
    assert explanation(click("Electronics"), terms) is not None
    assert explanation(click("Set Descending Direction"), terms) is None


def test_a_repeat_or_a_detour_costs_and_what_the_episode_did_is_not_counted_again() -> None:
    terms = TaskTerms.of(SORT_TASK)
    sort = LabeledAction("select", "Sort By", "Price")
    assert evidence([click("Electronics"), sort], terms, gain=1.0, cost=0.5) == 2.0
    assert evidence([click("Electronics"), sort, sort], terms, gain=1.0, cost=0.5) == 1.5
    assert evidence([click("Electronics"), click("My Wish List")], terms, gain=1.0, cost=0.5) == 0.5
    done = frozenset({explanation(sort, terms)})
    assert evidence([sort], terms, gain=1.0, cost=0.5, done=done) == -0.5


def test_the_click_that_sends_explained_typing_counts_for_the_task() -> None:
    terms = TaskTerms.of(POST_TASK)
    title = LabeledAction("type", "Title", "Best tents for rain?")
    submit = click("Create submission")
    assert evidence([title, submit], terms, gain=1.0, cost=0.5) == 2.0
    assert evidence([submit], terms, gain=1.0, cost=0.5) == -0.5  # nothing typed: a button like any other
    typed = frozenset({explanation(title, terms)})
    assert evidence([submit], terms, gain=1.0, cost=0.5, done=typed) == 1.0


def test_a_control_that_takes_back_is_followed_only_when_the_task_asks_for_it() -> None:
    add = TaskTerms.of("Add the Stride Theory Women's High Waist Yoga Leggings in Forest Green, size M, to my cart.")
    assert undoes_unasked(click("Remove"), add) and undoes_unasked(click("Delete item"), add)
    assert not undoes_unasked(click("Add to Cart"), add) and not undoes_unasked(click("My Cart"), add)
    remove = TaskTerms.of("Remove the Copperleaf Waterproof Mattress Protector from my wish list.")
    assert not undoes_unasked(click("Remove item"), remove)
    assert not undoes_unasked(LabeledAction("type", "Remove", "x"), add)  # only a press takes back
