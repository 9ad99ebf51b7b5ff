"""string_match: each rule of EVALUATORS.md, with the cases a naive reading gets wrong.

The fuzzy_match cases reach the judge model through the real client stack; its replies
come from the scripted OpenAI-compatible server, so they test how verdicts are routed
into the score, not a model.
"""

from __future__ import annotations

import pytest

from evaluation.scoring import Check, ConfigError, Unscorable, string_match, string_match_details

from tests.evaluation.scoring.model_helpers import scripted_judge, user_prompts

# --- exact_match and cleaning -------------------------------------------------------------


def test_exact_match_ignores_case() -> None:
    assert string_match({"exact_match": "Yes"}, "YES") == 1.0
    assert string_match({"exact_match": "yes"}, "yes.") == 0.0


def test_exact_match_does_not_strip_whitespace() -> None:
    assert string_match({"exact_match": "42"}, " 42") == 0.0
    assert string_match({"exact_match": "42"}, "42\n") == 0.0


def test_paired_quotes_are_stripped_from_answer_and_reference() -> None:
    assert string_match({"exact_match": "42"}, '"42"') == 1.0
    assert string_match({"exact_match": "'Blue'"}, "blue") == 1.0
    # Unpaired quotes stay.
    assert string_match({"exact_match": "42"}, '"42') == 0.0
    assert string_match({"exact_match": "42"}, "'42\"") == 0.0


def test_answer_is_cleaned_twice_as_in_the_reference() -> None:
    # Once up front and once inside exact_match: two pairs of quotes go, a third pair does not.
    assert string_match({"exact_match": "42"}, "\"'42'\"") == 1.0
    assert string_match({"exact_match": "42"}, "''42''") == 1.0
    assert string_match({"exact_match": "42"}, "\"''42''\"") == 0.0


def test_reference_is_cleaned_once() -> None:
    assert string_match({"exact_match": "\"'42'\""}, "42") == 0.0
    assert string_match({"exact_match": "\"'42'\""}, "'42'") == 0.0
    assert string_match({"exact_match": "\"'42'\""}, "\"''42''\"") == 1.0


# --- must_include ---------------------------------------------------------------------------


def test_single_token_item_must_be_a_whole_token() -> None:
    assert string_match({"must_include": ["42"]}, "420") == 0.0
    assert string_match({"must_include": ["42"]}, "It costs 42 dollars") == 1.0
    assert string_match({"must_include": ["42"]}, "the answer is 42.") == 1.0


def test_number_followed_by_lowercase_sentence_is_not_found() -> None:
    answer = "23750. It was listed yesterday."
    assert string_match({"must_include": ["23750"]}, answer) == 0.0
    assert string_match({"must_include": ["23750"]}, "The price is 23750") == 1.0


def test_word_before_a_sentence_break_is_found() -> None:
    # Punkt ends the sentence after "apple." (a word, unlike a number), so the period splits off;
    # a tokenizer run on the whole answer without sentence splitting would keep "apple.".
    assert string_match({"must_include": ["apple"]}, "The answer is apple. It is red.") == 1.0
    assert string_match({"must_include": ["42"]}, "I paid 42. It was cheap.") == 0.0


def test_multi_word_item_is_a_plain_substring() -> None:
    # Not token-aligned: "san fran" is found inside "San Francisco".
    assert string_match({"must_include": ["San Fran"]}, "I flew to San Francisco") == 1.0
    assert string_match({"must_include": ["New York"]}, "newyork") == 0.0


def test_item_that_tokenizes_to_several_tokens_uses_the_substring_rule() -> None:
    # "$5" is two tokens ("$", "5"), so it is found inside "$50".
    assert string_match({"must_include": ["$5"]}, "it costs $50") == 1.0


def test_every_item_must_be_found() -> None:
    reference = {"must_include": ["red", "blue"]}
    assert string_match(reference, "Red and Blue") == 1.0
    assert string_match(reference, "red only") == 0.0


def test_or_alternatives_any_one_suffices() -> None:
    reference = {"must_include": ["4 |OR| four"]}
    assert string_match(reference, "There are four.") == 1.0
    assert string_match(reference, "there are 4") == 1.0
    # Each alternative keeps the whole-token rule.
    assert string_match(reference, "there are 40") == 0.0


def test_or_separator_is_case_and_space_sensitive() -> None:
    assert string_match({"must_include": ["red |or| blue"]}, "red") == 0.0
    assert string_match({"must_include": ["red|OR|blue"]}, "blue") == 0.0


# --- must_exclude, one_of -------------------------------------------------------------------


def test_must_exclude_uses_the_same_finding_rule() -> None:
    assert string_match({"must_exclude": ["no"]}, "I know it") == 1.0
    assert string_match({"must_exclude": ["no"]}, "No, it is not") == 0.0
    assert string_match({"must_exclude": ["not available"]}, "It is NOT AVAILABLE.") == 0.0


def test_must_exclude_fails_if_any_item_is_found() -> None:
    assert string_match({"must_exclude": ["cat", "dog"]}, "a dog") == 0.0
    assert string_match({"must_exclude": ["cat", "dog"]}, "a bird") == 1.0


def test_must_exclude_with_or_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="must_exclude"):
        string_match({"must_exclude": ["cat |OR| dog"]}, "a bird")


def test_one_of_is_a_case_insensitive_substring_test() -> None:
    reference = {"one_of": ["Blue", "Green"]}
    assert string_match(reference, "BLUEBIRD") == 1.0  # no whole-token rule here
    assert string_match(reference, "red") == 0.0


# --- required_values ------------------------------------------------------------------------


def test_required_values_reads_the_answer_as_a_whole_number_without_commas() -> None:
    assert string_match({"required_values": ["== 1234"]}, "1,234") == 1.0
    assert string_match({"required_values": ["== 1234"]}, "'1,234'") == 1.0
    assert string_match({"required_values": [">= 10", "<= 20"]}, "15") == 1.0
    assert string_match({"required_values": [">= 10", "<= 20"]}, "25") == 0.0


def test_required_values_fails_answers_that_are_not_whole_numbers() -> None:
    assert string_match({"required_values": ["<= 20"]}, "12.5") == 0.0
    assert string_match({"required_values": ["== 1234"]}, "about 1234") == 0.0
    assert string_match({"required_values": []}, "about 1234") == 0.0


def test_required_values_alternatives() -> None:
    assert string_match({"required_values": ["== 3 |OR| == 4"]}, "4") == 1.0


@pytest.mark.parametrize("key", ["must_include", "must_exclude", "one_of"])
def test_substring_key_after_required_values_is_a_config_error(key: str) -> None:
    reference = {"required_values": ["== 3"], key: ["3"]}
    with pytest.raises(ConfigError, match=f"{key!r} after 'required_values'"):
        string_match(reference, "3")


def test_exact_match_after_required_values_compares_the_integer_as_text() -> None:
    reference = {"required_values": ["== 12"], "exact_match": "12"}
    assert string_match(reference, "12") == 1.0
    # The answer became the integer 1200: its text is "1200", not "1,200".
    assert string_match({"required_values": [">= 1000"], "exact_match": "1200"}, "1,200") == 1.0
    assert string_match({"required_values": [">= 1000"], "exact_match": "1,200"}, "1,200") == 0.0
    # " 12" reads as 12 for required_values, and as "12" afterwards; exact_match before it sees " 12".
    assert string_match(reference, " 12") == 1.0
    assert string_match({"exact_match": "12", "required_values": ["== 12"]}, " 12") == 0.0


def test_answer_that_is_no_number_stops_at_required_values() -> None:
    checks = string_match_details({"required_values": ["== 12"], "exact_match": "twelve"}, "twelve")
    assert [(check.key, check.passed) for check in checks] == [("required_values", False)]


def test_string_key_before_required_values_is_fine() -> None:
    reference = {"must_include": ["3"], "required_values": ["== 3"]}
    assert string_match(reference, "3") == 1.0


def test_malformed_required_value_is_a_config_error_whatever_the_answer() -> None:
    with pytest.raises(ConfigError, match="operator"):
        string_match({"must_include": ["x"], "required_values": ["3"]}, "not even close")


# --- fuzzy_match: "N/A" -----------------------------------------------------------------------

NOTE = "the store has no product called a sky mug"


@pytest.mark.parametrize("answer", ["N/A", "n/a", '"N/A"'])
def test_bare_na_passes_without_a_judge(answer: str) -> None:
    assert string_match({"fuzzy_match": "N/A"}, answer, string_note=NOTE) == 1.0


def test_na_with_a_reason_needs_a_judge() -> None:
    with pytest.raises(Unscorable, match="judge"):
        string_match({"fuzzy_match": "N/A"}, "N/A: there is no sky mug", string_note=NOTE)


def test_na_reason_judged_same_passes_and_different_fails(tmp_path) -> None:
    reference = {"fuzzy_match": "N/A"}
    intent = "Buy the sky mug."
    with scripted_judge(["same", "different"], tmp_path) as (judge, server):
        assert string_match(reference, "N/A: No Sky Mug exists", intent=intent, string_note=NOTE, judge=judge) == 1.0
        assert string_match(reference, "the site was down", intent=intent, string_note=NOTE, judge=judge) == 0.0
        user = user_prompts(server)[0]
    assert intent in user and NOTE in user
    # The judge sees the answer as cleaned (lowercased), like the reference's judge.
    assert "n/a: no sky mug exists" in user


def test_na_without_a_string_note_is_a_config_error_once_a_reason_must_be_judged(tmp_path) -> None:
    assert string_match({"fuzzy_match": "N/A"}, "N/A") == 1.0
    with scripted_judge([], tmp_path) as (judge, server):
        with pytest.raises(ConfigError, match="string_note"):
            string_match({"fuzzy_match": "N/A"}, "no such mug", judge=judge)
        assert user_prompts(server) == []  # found before any model call


def test_lowercase_na_value_is_not_the_na_rule() -> None:
    with pytest.raises(ConfigError, match="fuzzy_match"):
        string_match({"fuzzy_match": "n/a"}, "n/a")


# --- fuzzy_match: references graded by the judge ----------------------------------------------


def test_fuzzy_references_need_a_judge() -> None:
    with pytest.raises(Unscorable):
        string_match({"fuzzy_match": ["twelve"]}, "12", intent="How many?")


@pytest.mark.parametrize(("verdict", "score"), [("correct", 1.0), ("partially correct", 0.0), ("incorrect", 0.0)])
def test_only_correct_passes(tmp_path, verdict: str, score: float) -> None:
    with scripted_judge([verdict], tmp_path) as (judge, _):
        assert string_match({"fuzzy_match": ["twelve"]}, "12", intent="How many?", judge=judge) == score


def test_each_reference_is_graded_against_the_intent(tmp_path) -> None:
    with scripted_judge(["correct", "partially correct"], tmp_path) as (judge, server):
        checks = string_match_details(
            {"fuzzy_match": ["Alice", "Bob"]}, "Alice and Bo", intent="Who commented?", judge=judge
        )
        prompts = user_prompts(server)
    assert [(c.reference, c.passed) for c in checks] == [("Alice", True), ("Bob", False)]
    assert all("Who commented?" in user for user in prompts)
    assert "Reference answer: Alice" in prompts[0] and "Reference answer: Bob" in prompts[1]


# --- several keys, details, bad configs -------------------------------------------------------


def test_score_is_the_product_of_every_key() -> None:
    reference = {"must_include": ["blue"], "must_exclude": ["red"]}
    assert string_match(reference, "blue") == 1.0
    assert string_match(reference, "blue and red") == 0.0


def test_details_list_each_check_in_config_order() -> None:
    reference = {"must_exclude": ["red"], "must_include": ["blue", "green |OR| teal"], "exact_match": "blue teal"}
    checks = string_match_details(reference, "Blue teal")
    assert checks == [
        Check("must_exclude", "red", True, "absent"),
        Check("must_include", "blue", True, "found"),
        Check("must_include", "green |OR| teal", True, "found"),
        Check("exact_match", "blue teal", True, "equal"),
    ]
    failing = string_match_details(reference, "blue")
    assert [c.passed for c in failing] == [True, True, False, False]


@pytest.mark.parametrize(
    "reference",
    [
        None,
        {},
        {"must_includes": ["x"]},
        {"must_include": "x"},
        {"must_include": [1]},
        {"exact_match": 42},
        {"one_of": "x"},
        {"fuzzy_match": "yes"},
    ],
)
def test_configs_string_match_cannot_apply(reference) -> None:
    with pytest.raises(ConfigError):
        string_match(reference, "x")
