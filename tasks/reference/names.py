"""Names of elements and values, compared the one way every reader of ground truth compares them.

The labels' rule (processing/labeling_accuracy.py scores labels with it): after
`normalise_name` (lower case, accents, punctuation and quotes dropped, role words such
as "button" or "link" dropped, spaces collapsed) two names agree when they are equal,
or the words of one appear in order inside the other, or their word sets have a
Jaccard similarity of at least 0.5. `exact=True` asks for equality after normalising:
for two names read off the same kind of page tree ("Page 2" is not "Page 3").

A demonstrated name **stands in** for the reference's when the reference's is a value
the task names and the demonstrated one is a value it does not name, of the same
`shape` (a star rating, a number, one word written as a value rather than a label such
as a forum ("history", "DIY", not "Alphabetical"), a title of four or more words such as
a product or a post; for a choice also a short capitalised name such as a colour or a
size): the tutorial's value in the place where the task has its own. A short capitalised
name the task names (a category such as "Shoes" or "Coffee & Tea") may stand in for a click
too, by another name of one to three capitalised words the task does not name; a count the page writes after
a name ("Coffee & Tea (7 items)") is not part of the value. A task names a value when all
its words stand in the intent, or, for a title, its first three (a product named short); a
rating also as "5-star". A title stands in for a title the task does not name but finds
by what it asks ("the most expensive product", "the post about ..."), and a link named by a
count for another count of the same things ("18 comments" for "1 comment").
"""

from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher
from urllib.parse import urlsplit

# Words that say what kind of element a name belongs to, not which one.
ROLE_WORDS = frozenset(
    "button link tab field textbox textarea input icon dropdown checkbox radio combobox searchbox spinbutton "
    "the a an".split()
)
SPELLING = 0.9  # names this alike letter by letter are one name misread (an OCR slip)
LONG_NAME_WORDS = 4  # a name this long (a product, a post title) is named by its first words
NAMED_BY_FIRST_WORDS = 3
EXACT, STANDING_IN = 2, 1  # how a name matches (0: it does not)
VALUE_SHAPES = frozenset({"rating", "number", "word", "title"})  # values a click may stand in for
_PLACEHOLDER = re.compile(r"__[A-Z_]+__")
_COUNTED = re.compile(r"(\d+) (\w+)")  # a link named by a count ("18 comments"), normalised
_COUNT = re.compile(r"\s*\(\s*\d+(\s+items?)?\s*\)\s*$", re.I)  # "Coffee & Tea (7 items )": the page's count


def normalise_name(name: str) -> str:
    text = unicodedata.normalize("NFKD", name or "").lower()
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"[^\w\s]|_", " ", text)
    return " ".join(word for word in text.split() if word not in ROLE_WORDS)


def names_agree(a: str, b: str, exact: bool = False) -> bool:
    """Whether two names denote the same element (module docstring)."""
    first, second = normalise_name(a), normalise_name(b)
    if not first or not second:  # nothing left of a name, e.g. only symbols: only the very same text agrees
        return not first and not second and (a or "").strip() == (b or "").strip()
    if first == second:
        return True
    if exact:
        return False
    if f" {first} " in f" {second} " or f" {second} " in f" {first} ":
        return True
    words_a, words_b = set(first.split()), set(second.split())
    return len(words_a & words_b) / len(words_a | words_b) >= 0.5


def names_match(demonstrated: str, reference: str, intent: str, choice: bool = False) -> int:
    """EXACT (the names agree, or are one misreading apart), STANDING_IN (module docstring) or 0."""
    a, b = normalise_name(demonstrated), normalise_name(reference)
    if not a or not b:
        return 0
    counted, counted_too = _COUNTED.fullmatch(a), _COUNTED.fullmatch(b)
    if counted and counted_too and counted[1] != counted_too[1] and counted_too[2].rstrip("s") != "star":
        # "18 comments" for "1 comment": another post's (a rating has its own rule, below)
        return STANDING_IN if counted[2].rstrip("s") == counted_too[2].rstrip("s") else 0
    if names_agree(demonstrated, reference) or SequenceMatcher(None, a, b).ratio() >= SPELLING:
        return EXACT
    reference, demonstrated = _COUNT.sub("", reference), _COUNT.sub("", demonstrated)
    form, other = shape(reference), shape(demonstrated)
    named_as_value = (choice or form in VALUE_SHAPES) and form == other
    short_names = _short_titles(reference, demonstrated)  # a category where the task has its own
    # A title (a product, a post) the task reaches by what it asks ("the most expensive product") is its own too.
    found_title = form == other == "title"
    standing_in = (
        (named_as_value or short_names)
        and (named_by_task(reference, intent) or found_title)
        and not named_by_task(demonstrated, intent)
    )
    return STANDING_IN if standing_in else 0


def _short_titles(reference: str, demonstrated: str) -> bool:
    """Both one to three words, each capitalised or a sign ("Coffee & Tea"; not "Add to Cart"); a value written
    as one word stands in only for another ("Shoes" or "Home Decor" for "Electronics", not "Subscribers" for
    "DIY"). Names alone cannot tell a category from a page's own title ("My Account"): the rule accepts that."""

    def short_title(words: list[str]) -> bool:
        return 0 < len(words) < LONG_NAME_WORDS and all(word[:1].isupper() or not word[:1].isalpha() for word in words)

    first, second = reference.split(), demonstrated.split()
    if not (short_title(first) and short_title(second)):
        return False
    forms = {shape(reference), shape(demonstrated)}
    return "word" not in forms or len(forms) == 1


def without_count(name: str) -> str:
    """The name without the count a page writes after it ("Coffee & Tea (7 items)" -> "Coffee & Tea")."""
    return _COUNT.sub("", name)


def named_by_task(name: str, intent: str) -> bool:
    """The task names it: all its words (a rating also as "5-star"), or a title's first three, stand in the intent."""
    words = normalise_name(name).split()
    if not words:
        return False
    said = f" {normalise_name(intent)} "
    spellings = [words] + ([words[:-1] + [words[-1][:-1]]] if shape(name) == "rating" else [])
    if any(f" {' '.join(spelled)} " in said for spelled in spellings):
        return True
    return len(words) >= LONG_NAME_WORDS and f" {' '.join(words[:NAMED_BY_FIRST_WORDS])} " in said


def shape(name: str) -> str:
    """What sort of value a name looks like (module docstring)."""
    text = " ".join(name.split())
    if re.fullmatch(r"\d+ stars?", text.lower()):
        return "rating"
    if re.fullmatch(r"[\d.,$]+", text):
        return "number"
    words = text.split()
    if len(words) >= LONG_NAME_WORDS:
        return "title"
    if len(words) == 1:  # "Alphabetical", "Subscribers": a page's own label; "history", "DIY", "AskReddit": a value
        return "label" if text[:1].isupper() and text[1:].islower() else "word"
    return f"name of {len(words)}" if text[:1].isupper() else "other"


def same_address(a: str, b: str) -> bool:
    """Two addresses of one page: the same path and query, whatever the host or site placeholder."""

    def key(url: str) -> tuple[str, str]:
        text = _PLACEHOLDER.sub("", url.strip())
        if "://" not in text:  # "/path" after a placeholder, or "host:port/path" written without a scheme
            text = f"http://host{text}" if text.startswith("/") else f"http://{text}"
        parts = urlsplit(text)
        return parts.path.rstrip("/") or "/", parts.query

    return key(a) == key(b)


def values_agree(typed: str, wanted: str, search: bool) -> bool:
    """Typed text as the reference's (spacing and case aside); in a search field, one holding the other's words."""
    a, b = " ".join(typed.split()).casefold(), " ".join(wanted.split()).casefold()
    if a == b:
        return True
    if not search:
        return False
    words_a, words_b = set(re.findall(r"\w+", a)), set(re.findall(r"\w+", b))
    return bool(words_a and words_b) and (words_a <= words_b or words_b <= words_a)


def answers_agree(reference: str, answer: str) -> bool:
    """Whether an answer holds every word and number of the reference answer (case and punctuation aside)."""
    wanted = _answer_tokens(reference)
    return bool(wanted) and wanted <= _answer_tokens(answer) or (not wanted and not answer.strip())


def _answer_tokens(text: str) -> set[str]:
    return set(re.findall(r"\d+(?:\.\d+)?|[^\W\d_]+", text.casefold()))
