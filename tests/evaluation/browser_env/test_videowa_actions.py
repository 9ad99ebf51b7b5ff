"""`agent.action_parser: videowa` reads replies as VideoWA's runner does (agent.py's extract_action, then
browser_env/actions.py's create_id_based_action); each expectation below is what those regexes give."""

from __future__ import annotations

import pytest

from evaluation.browser_env.actions import ActionParseError, format_action, parse_action
from evaluation.browser_env.videowa_actions import parse_videowa_action, reply_parser
from settings import load_settings

SUMMARY = "In summary, the next action I will perform is "

# (reply, the action the reference runs, or None for a parse failure)
TABLE = [
    # accepted: trailing words after the pattern, a bracketless scroll
    (SUMMARY + "```stop [N/A] because the page lists no such order```", "stop [N/A]"),
    (SUMMARY + "```click [12] to open the account menu```", "click [12]"),
    (SUMMARY + "```scroll down```", "scroll [down]"),
    (SUMMARY + "```scroll [up]```", "scroll [up]"),
    ("```\nclick [7]\n```", "click [7]"),
    ("Let's think. ```hover [3]``` and later ```click [4]```", "hover [3]"),  # the first block only
    ("```type [5] [red kettle]```", "type [5] [red kettle] [1]"),  # Enter unless [0]
    ("```type [5] [red kettle] [0]```", "type [5] [red kettle] [0]"),
    ("```type [5] [a] [2]```", "type [5] [a] [2] [1]"),  # "[2]" is not a flag: it becomes text
    ("```stop```", "stop []"),
    ("```stop []```", "stop []"),  # `(.+)` needs a character: no answer
    ("```stop [$25.99]```", "stop [$25.99]"),
    ("```press [Enter]```", "press [Enter]"),
    ("```goto [http://localhost:7770/sales/order/history/]```", "goto [http://localhost:7770/sales/order/history/]"),
    ("```go_back to the results```", "go_back"),
    ("```tab_focus [1]```", "tab_focus [1]"),
    # rejected: no fence, an unclosed fence, a language tag, a capital, a prefix, WebArena's direction= spelling
    (SUMMARY + "click [12]", None),
    ("click [12]", None),
    (SUMMARY + "```click [12]", None),
    ("```python\nclick [12]\n```", None),
    ("```Click [12]```", None),
    ("```I will click [12]```", None),
    ("```scroll [direction=down]```", None),
    ("```click [the cart]```", None),
    ("``````", None),
    ("```dance [3]```", None),
]


@pytest.mark.parametrize(("reply", "expected"), TABLE)
def test_the_reference_parser_accepts_and_rejects_as_the_reference(reply: str, expected: str | None) -> None:
    if expected is None:
        with pytest.raises(ActionParseError):
            parse_videowa_action(reply)
    else:
        assert format_action(parse_videowa_action(reply)) == expected


def test_the_two_parsers_differ_where_the_reference_differs_from_ours() -> None:
    # Ours takes a bare action and a language-tagged fence, and refuses trailing words.
    assert format_action(parse_action("click [12]")) == "click [12]"
    assert format_action(parse_action("```python\nclick [12]\n```")) == "click [12]"
    with pytest.raises(ActionParseError):
        parse_action("```click [12] to open the account menu```")


def test_the_videowa_harness_picks_the_reference_parser() -> None:
    assert reply_parser(load_settings(harness="videowa").agent.action_parser) is parse_videowa_action
    assert reply_parser(load_settings().agent.action_parser) is parse_action
    with pytest.raises(ValueError, match="agent.action_parser is 'loose'"):
        reply_parser("loose")
