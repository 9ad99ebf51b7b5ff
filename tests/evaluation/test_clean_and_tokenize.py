"""clean() and the offline NLTK word tokenizer."""

from __future__ import annotations

from evaluation.text import clean, sent_tokenize, word_tokenize


def test_clean_strips_one_pair_of_matching_quotes_then_lowercases() -> None:
    assert clean('"Hello World"') == "hello world"
    assert clean("'Hello'") == "hello"
    assert clean("\"'nested'\"") == "'nested'"


def test_clean_leaves_unpaired_or_mismatched_quotes() -> None:
    assert clean('"Hello') == '"hello'
    assert clean("'Hello\"") == "'hello\""


def test_clean_does_not_strip_whitespace() -> None:
    assert clean("  Yes ") == "  yes "
    assert clean(' "Yes" ') == ' "yes" '


def test_clean_drops_a_lone_quote() -> None:
    assert clean("'") == ""
    assert clean("") == ""


def test_word_tokenize_splits_the_final_period_off_a_number() -> None:
    assert word_tokenize("the answer is 42.") == ["the", "answer", "is", "42", "."]


def test_lowercase_word_after_a_number_and_period_keeps_one_sentence() -> None:
    # Punkt reads "23750." before a lowercase word as an ordinal, so the period stays on the number.
    assert sent_tokenize("23750. it was listed yesterday.") == ["23750. it was listed yesterday."]
    assert "23750" not in word_tokenize("23750. it was listed yesterday.")
    assert "23750." in word_tokenize("23750. it was listed yesterday.")


def test_capitalised_next_sentence_splits_after_the_number() -> None:
    assert word_tokenize("23750. It was listed yesterday.")[:2] == ["23750", "."]


def test_known_abbreviations_do_not_end_sentences() -> None:
    # "dr" is in NLTK's English abbreviation table; "$5.99." ends the first sentence.
    assert sent_tokenize("Dr. Smith paid $5.99. He left.") == ["Dr. Smith paid $5.99.", "He left."]
    assert word_tokenize("Dr. Smith paid $5.99. He left.") == ["Dr.", "Smith", "paid", "$", "5.99", ".", "He", "left", "."]


def test_treebank_rules_apply_within_a_sentence() -> None:
    assert word_tokenize("don't stop") == ["do", "n't", "stop"]
    assert word_tokenize('"quoted" word') == ["``", "quoted", "''", "word"]
    assert word_tokenize("n/a") == ["n/a"]
