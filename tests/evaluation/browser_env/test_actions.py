"""Parsing the text action space out of model replies, and writing actions back as text."""

from __future__ import annotations

import pytest

from evaluation.browser_env.actions import Action, ActionKind, ActionParseError, format_action, parse_action


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("click [12]", Action(ActionKind.CLICK, element_id="12")),
        ("hover [7]", Action(ActionKind.HOVER, element_id="7")),
        ("clear [3]", Action(ActionKind.CLEAR, element_id="3")),
        ("type [5] [blue shirt] [1]", Action(ActionKind.TYPE, element_id="5", text="blue shirt", press_enter=True)),
        ("type [5] [blue shirt] [0]", Action(ActionKind.TYPE, element_id="5", text="blue shirt", press_enter=False)),
        ("type [5] [blue shirt]", Action(ActionKind.TYPE, element_id="5", text="blue shirt", press_enter=True)),
        ("press [Enter]", Action(ActionKind.PRESS, keys="Enter")),
        ("press [Control+a]", Action(ActionKind.PRESS, keys="Control+a")),
        ("scroll [down]", Action(ActionKind.SCROLL, direction="down")),
        ("scroll [up]", Action(ActionKind.SCROLL, direction="up")),
        ("new_tab", Action(ActionKind.NEW_TAB)),
        ("tab_focus [2]", Action(ActionKind.TAB_FOCUS, tab_index=2)),
        ("close_tab", Action(ActionKind.CLOSE_TAB)),
        ("goto [http://127.0.0.1:7770/checkout/]", Action(ActionKind.GOTO, url="http://127.0.0.1:7770/checkout/")),
        ("go_back", Action(ActionKind.GO_BACK)),
        ("go_forward", Action(ActionKind.GO_FORWARD)),
        ("stop [$25.99]", Action(ActionKind.STOP, answer="$25.99")),
    ],
)
def test_every_action_kind_parses(text: str, expected: Action) -> None:
    assert parse_action(text) == expected


def test_every_action_kind_is_covered_above() -> None:
    covered = {"click", "hover", "clear", "type", "press", "scroll", "new_tab", "tab_focus", "close_tab", "goto"}
    covered |= {"go_back", "go_forward", "stop"}
    assert covered == {kind.value for kind in ActionKind}


def test_action_is_taken_from_the_first_fenced_block() -> None:
    reply = (
        "Let's think step by step. The search box has id 12.\n"
        "In summary, the next action I will perform is ```type [12] [red mug] [1]```\n"
        "Afterwards I might ```click [99]```"
    )
    assert parse_action(reply) == Action(ActionKind.TYPE, element_id="12", text="red mug", press_enter=True)


def test_fence_with_a_language_tag() -> None:
    assert parse_action("Next:\n```text\nclick [4]\n```") == Action(ActionKind.CLICK, element_id="4")
    assert parse_action("```\nscroll [down]\n```") == Action(ActionKind.SCROLL, direction="down")


def test_one_word_fence_body_is_the_action_not_a_language_tag() -> None:
    assert parse_action("```go_back```") == Action(ActionKind.GO_BACK)
    assert parse_action("```stop\n```") == Action(ActionKind.STOP, answer="")


def test_bare_action_without_fence_is_accepted() -> None:
    assert parse_action("  click [8]\n") == Action(ActionKind.CLICK, element_id="8")


def test_prose_without_fence_is_rejected_not_guessed() -> None:
    with pytest.raises(ActionParseError, match="unknown action"):
        parse_action("I think I should click [8] to open the cart.")


def test_typed_text_may_hold_spaces_and_brackets() -> None:
    action = parse_action("```type [9] [size [L] or [XL]] [0]```")
    assert action.text == "size [L] or [XL]"
    assert action.press_enter is False


def test_typed_text_that_looks_like_a_flag_without_flag() -> None:
    action = parse_action("type [9] [1]")
    assert (action.text, action.press_enter) == ("1", True)


def test_stop_answer_may_be_empty_or_hold_brackets_and_keeps_spacing() -> None:
    assert parse_action("stop []").answer == ""
    assert parse_action("stop").answer == ""
    assert parse_action("```stop [The items are [A] and [B]]```").answer == "The items are [A] and [B]"
    assert parse_action("stop [ 42 ]").answer == " 42 "  # evaluators see the answer exactly as given


def test_multi_line_answer_is_kept_whole() -> None:
    assert parse_action("```\nstop [line one\nline two]\n```").answer == "line one\nline two"


def test_first_line_is_used_when_a_block_holds_extra_lines() -> None:
    assert parse_action("```\nclick [3]\n# this opens the cart\n```") == Action(ActionKind.CLICK, element_id="3")


def test_webarena_scroll_spelling_and_key_aliases() -> None:
    assert parse_action("scroll [direction=down]").direction == "down"
    assert parse_action("press [ctrl+A]").keys == "Control+A"
    assert parse_action("press [cmd+shift+k]").keys == "Meta+Shift+k"
    assert parse_action("press [esc]").keys == "Escape"


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("click [abc]", "expected `click [id]`"),
        ("click 12", "expected `click [id]`"),
        ("type [3]", "expected `type [id] [text] [0|1]`"),
        ("scroll [left]", "expected `scroll [up|down]`"),
        ("tab_focus [first]", "expected `tab_focus [index]`"),
        ("goto []", "expected `goto [url]`"),
        ("press []", "expected `press [keys]`"),
        ("new_tab [1]", "expected `new_tab`"),
        ("jump [3]", "unknown action"),
        ("```\n\n```", "holds no action"),
        ("", "holds no action"),
        ("```click [3]", "never closes"),
        ("stop [unclosed", "expected `stop [answer]`"),
    ],
)
def test_bad_syntax_raises_with_a_reason(reply: str, reason: str) -> None:
    with pytest.raises(ActionParseError) as raised:
        parse_action(reply)
    assert reason in raised.value.reason


@pytest.mark.parametrize(
    "text",
    [
        "click [12]",
        "hover [7]",
        "clear [3]",
        "type [5] [a [b] c] [0]",
        "type [5] [] [1]",
        "press [Control+Shift+k]",
        "scroll [up]",
        "new_tab",
        "tab_focus [0]",
        "close_tab",
        "goto [http://x.test/a?b=[1]]",
        "go_back",
        "go_forward",
        "stop [answer with [brackets]]",
        "stop []",
    ],
)
def test_format_round_trips(text: str) -> None:
    action = parse_action(text)
    assert format_action(action) == text
    assert parse_action(format_action(action)) == action


def test_action_dict_round_trip() -> None:
    action = parse_action("type [5] [hello] [0]")
    assert Action.from_dict(action.to_dict()) == action
    assert action.to_dict()["kind"] == "type"
