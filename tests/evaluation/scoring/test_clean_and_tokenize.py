"""clean() and the offline NLTK word tokenizer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from foundation.errors import UserError
from evaluation.scoring.matching import found
from evaluation.scoring.text import check_nltk_version, clean, sent_tokenize, word_tokenize


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


# Each row: an input and the tokens a real nltk 3.8.1 gave for it (scripts/nltk381_token_table.py).
_TABLE = json.loads((Path(__file__).parent / "data" / "nltk_3_8_1_tokens.json").read_text())


@pytest.mark.parametrize(("text", "tokens"), _TABLE, ids=[repr(text)[:40] for text, _ in _TABLE])
def test_word_tokenize_gives_nltk_3_8_1_tokens(text: str, tokens: list[str]) -> None:
    assert word_tokenize(text) == tokens


def test_a_word_in_single_quotes_keeps_its_opening_quote() -> None:
    # 3.8.1's rule; newer releases split the quote off and "shoes" would be a whole token.
    assert word_tokenize("the item is 'shoes'") == ["the", "item", "is", "'shoes", "'"]
    assert not found("shoes", "the item is 'shoes'")
    assert found("shoes", 'the item is "shoes"')


def test_another_nltk_release_is_refused_with_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import metadata

    installed = metadata.version
    monkeypatch.setattr(metadata, "version", lambda name: "3.9.1" if name == "nltk" else installed(name))
    with pytest.raises(UserError, match=r"pip install nltk==3\.8\.1"):
        check_nltk_version()


def test_tokenizing_in_a_fresh_process_loads_no_more_of_nltk_than_its_tokenizers() -> None:
    """`import nltk` imports all of NLTK (seconds a process); the tokens are the same without it, and a later
    `import nltk` in that process still gets the whole package."""
    import subprocess
    import sys

    code = (
        "import sys; from evaluation.scoring.text import word_tokenize; "
        "tokens = word_tokenize(\"the item is 'shoes'. 23750. it was\"); "
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] == 'nltk'); "
        "import nltk; print(tokens, loaded, hasattr(nltk, 'FreqDist'))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parents[3])  # fmt: skip
    assert done.stdout.strip() == (
        str(word_tokenize("the item is 'shoes'. 23750. it was")) + " [] True"
    ), done.stdout + done.stderr
