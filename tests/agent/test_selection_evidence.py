"""What the model-free selection reads of a task (agent/videos/evidence.py): which demonstrated steps the task's words
or values explain, and the evidence a span carries once the episode has done some of the task."""

from __future__ import annotations

from agent.videos.abstraction import abstract_intent, abstract_objective
from agent.videos.evidence import (
    TaskTerms,
    acts_before_reaching,
    does_what_is_left,
    evidence,
    explanation,
    reached,
    undoes_unasked,
)
from foundation.records.trajectory import LabeledAction, Trajectory

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


# ---- round 3: values of their own kind, the task's verbs, reaching the task's thing first ----

BUY_TASK = "Buy one Nestwell Electric Kettle, shipped to my default address."
CART_TASK = "Add the Harbor & Hale Women's Cable Knit Cardigan Sweater in Navy Blue, size S, to my cart."
UPVOTE_TASK = "Upvote the post 'Why did the Bronze Age collapse happen?'"


def test_a_tutorials_value_stands_in_only_for_a_task_value_of_its_kind() -> None:
    strict, loose = TaskTerms.of(CART_TASK, by_kind=True), TaskTerms.of(CART_TASK)
    category = click("Clothing, Shoes & Jewelry")
    assert explanation(category, loose) is not None  # before: the shapes alone let a category stand in for a product
    assert explanation(category, strict) is None
    assert explanation(click("Men's Clothing"), strict) is None  # no colour is a link
    product = click("Wovenly Women's Crewneck T-Shirt 3-Pack, Classic Fit")
    assert explanation(product, strict) == "value: Harbor & Hale Women's Cable Knit Cardigan Sweater"
    assert explanation(LabeledAction("select", "Color", "Sky Blue"), strict) == "value: Navy Blue"
    # A product named by three words still has a four-word title stand in for it.
    buy = TaskTerms.of(BUY_TASK, by_kind=True)
    assert explanation(click("Fernway Hammock with Stand, Double Size"), buy) == "value: Nestwell Electric Kettle"


def test_searching_for_what_a_click_already_stood_in_for_is_a_repeat() -> None:
    terms = TaskTerms.of(UPVOTE_TASK, by_kind=True)
    post, upvote = click("What's a scientific fact that sounds fake but is true?"), click("Upvote")
    search = LabeledAction("type", "Search", "reading stats")
    # Search, open the result, upvote: three steps of the task. Open, upvote, then search again: the search repeats.
    assert evidence([search, click("My reading stats for 2022: 52 books"), upvote], terms, 1.0, 0.5) == 3.0
    assert evidence([post, upvote, search], terms, 1.0, 0.5) == 1.5


def test_the_tasks_verbs_name_the_controls_that_carry_them_out() -> None:
    plain, verbs = TaskTerms.of(BUY_TASK, by_kind=True), TaskTerms.of(BUY_TASK, by_kind=True, verb_controls=True)
    for control in ("Add to Cart", "Proceed to Checkout", "Place Order"):
        assert explanation(click(control), plain) is None
        assert explanation(click(control), verbs) is not None
    assert explanation(click("Remove"), verbs) is None


def test_acting_on_the_tasks_thing_waits_until_it_is_reached() -> None:
    terms = TaskTerms.of(UPVOTE_TASK, by_kind=True)
    assert acts_before_reaching([click("Upvote"), LabeledAction("type", "Search", "x")], terms)
    assert not acts_before_reaching([LabeledAction("scroll", "", "down"), click("Forums"), click("Upvote")], terms)
    assert not reached(terms, frozenset(), ["Millpond: all forums", "Forums", "Wiki"])
    assert reached(terms, frozenset(), ["Why did the Bronze Age collapse happen? : history"])
    assert reached(terms, frozenset({"value: Why did the Bronze Age collapse happen?"}), ["Search"])
    # A post to write is no thing to find.
    assert reached(TaskTerms.of(POST_TASK, by_kind=True), frozenset(), ["Create submission"])


def test_taking_the_values_out_leaves_what_a_task_and_a_trajectory_do() -> None:
    assert abstract_intent(BUY_TASK) == "Buy one item, shipped to my default address."
    assert abstract_intent("Show me the top posts of all time in the science forum.").endswith("in the some forum.")
    steps = [LabeledAction("type", "Search entire store here", "hammock"), LabeledAction("press", "", "Enter"),
             click("Fernway Hammock with Stand, Double Size"), click("Add to Cart"), click("Computer Accessories (7)"),
             click("science"), click("Electronics")]  # fmt: skip
    trajectory = Trajectory("v/0-6", "v", "", steps, [], "", "", 0.0, 1.0, (0, 6))
    assert abstract_objective(trajectory) == (
        'Search for "item", click "item", add to cart, click "category", click "item" and click "Electronics"'
    )


def test_a_search_sent_with_enter_leaves_nothing_for_a_later_button_to_send() -> None:
    terms = TaskTerms.of(UPVOTE_TASK, by_kind=True)
    searched = frozenset({"typed: search", "value: Why did the Bronze Age collapse happen?", "words: upvote"})
    # The upvote is done: the tutorial's Downvote is no step of the task, though a search was typed before it.
    assert not does_what_is_left([click("Downvote")], terms, searched)
    assert evidence([click("Downvote")], terms, 1.0, 0.5, searched) == -0.5
    assert does_what_is_left([LabeledAction("scroll", "", "down"), click("Upvote")], terms, frozenset({"typed: search"}))


def test_a_control_named_by_the_tasks_verb_and_a_plain_noun_is_the_tasks() -> None:
    task = "Remove the Copperleaf Waterproof Mattress Protector from my wish list."
    assert explanation(click("Remove item"), TaskTerms.of(task, by_kind=True)) is None
    assert explanation(click("Remove item"), TaskTerms.of(task, by_kind=True, verb_controls=True)) is not None
    assert explanation(click("Remove coupon code"), TaskTerms.of(task, by_kind=True, verb_controls=True)) is None
