"""Reading structured answers out of chatty model replies."""

from __future__ import annotations

import pytest

from model_access.replies import (
    ReplyParseError,
    extract_code_block,
    extract_json,
    extract_json_list,
    extract_json_object,
    parse_yes_no,
)


def test_fenced_json_with_chatter_around_it():
    reply = 'Sure! Here are the actions:\n```json\n[{"type": "click", "target": "Add to Cart"}]\n```\nLet me know.'
    assert extract_json(reply) == [{"type": "click", "target": "Add to Cart"}]


def test_fence_without_language_and_trailing_commas():
    reply = "Result:\n```\n{\n  \"objective\": \"Add a review\",\n  \"steps\": [1, 2, 3,],\n}\n```"
    assert extract_json_object(reply) == {"objective": "Add a review", "steps": [1, 2, 3]}


def test_json_labelled_block_wins_over_an_earlier_other_block():
    reply = "```python\nprint('x')\n```\nand the data:\n```json\n{\"ok\": true}\n```"
    assert extract_json(reply) == {"ok": True}


def test_unfenced_json_inside_prose_with_brackets_in_strings():
    reply = 'The answer is {"name": "it\'s [not] a } trap", "n": 2} as requested.'
    assert extract_json(reply) == {"name": "it's [not] a } trap", "n": 2}


def test_python_spelling_is_accepted():
    assert extract_json("{'relevant': True, 'reason': None}") == {"relevant": True, "reason": None}


def test_thinking_is_skipped_and_unclosed_fence_runs_to_the_end():
    reply = "<think>maybe {\"wrong\": 1}</think>\n```json\n{\"right\": 2}"
    assert extract_json(reply) == {"right": 2}


def test_list_wrapped_in_an_object_is_unwrapped():
    assert extract_json_list('{"actions": [{"type": "scroll"}]}') == [{"type": "scroll"}]


def test_code_block_inline_like_webarena_actions():
    reply = "The search box is [42]. In summary, the next action I will perform is ```type [42] [shoes] [1]```"
    assert extract_code_block(reply) == "type [42] [shoes] [1]"
    assert extract_code_block("Plan:\n```\nclick [7]\n```") == "click [7]"


def test_yes_no():
    assert parse_yes_no("Yes. The video operates the admin panel.") is True
    assert parse_yes_no("<think>yes or no?</think>Answer: NO, it is a slideshow") is False


@pytest.mark.parametrize(
    "parser, reply",
    [
        (extract_json, "I could not find anything relevant."),
        (extract_json, "```json\n{broken: [\n```"),
        (extract_code_block, "click [12] without a fence"),
        (extract_json_object, "[1, 2]"),
        (parse_yes_no, "Maybe, hard to say."),
    ],
)
def test_garbage_raises_a_clear_error(parser, reply):
    with pytest.raises(ReplyParseError, match="in the model's reply"):
        parser(reply)
