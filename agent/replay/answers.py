"""Reading the answer to a question task off the page, with simple rules over the tree text.

The replay policy has no model to read a page, so when the task asks a question
(it starts with what/which/how/who... or ends with "?"), the answer is taken from
the page where the demonstration left off, by the kind of question:
- an amount ("price", "total", "how much"): the dollar amounts on the page; the lowest
  for "cheapest", the highest for "most expensive", else the one just after the
  label the question names ("Grand Total") or after the thing it names;
- a count ("how many ... canceled"): how many page items carry the question's last word;
- a score or number about a named thing: the first number after that thing;
- "who": the first user link after the thing the question names;
- a name ("which product", "what is the title"): the first content link (a name of
  three or more words that is not a control), or the first link after the named thing.
When no rule finds anything the answer is empty: the policy says it could not read one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.videos.intent_values import IntentValue, normalise, thing_values
from evaluation.browser_env.ax_tree import TreeNode
from processing.objectives.wording import starts_with_verb

_QUESTION_WORDS = ("what", "which", "who", "whom", "whose", "how", "when", "where", "is", "are", "does", "do", "did")
_MONEY = re.compile(r"\$\s?\d[\d,]*(?:\.\d{2})?")
_NUMBER = re.compile(r"^-?\d[\d,]*(?:\.\d+)?$")
_STOP = frozenset("the a an of my in on to for is are was were did do does i me what which how many much".split())


@dataclass(frozen=True)
class Answer:
    text: str
    rule: str  # which rule found it, for the record

    def to_dict(self) -> dict[str, str]:
        return {"answer": self.text, "rule": self.rule}


def is_question(intent: str) -> bool:
    words = intent.strip().lower().split()
    return intent.strip().endswith("?") or (bool(words) and words[0] in _QUESTION_WORDS)


def read_answer(intent: str, nodes: list[TreeNode], values: list[IntentValue]) -> Answer:
    lowered = intent.lower()
    texts = [node.name for node in nodes]
    anchor = _anchor_index(nodes, values)
    if re.search(r"\b(price|cost|total|spend|spent|how much|amount|pay|paid)\b", lowered):
        return _amount(lowered, texts, anchor)
    if "how many" in lowered:
        return _count(lowered, texts)
    if re.search(r"\b(score|votes?|points|rating|number)\b", lowered) and anchor is not None:
        for text in texts[anchor + 1 : anchor + 30]:
            if _NUMBER.match(text.strip()):
                return Answer(text.strip(), "first number after the thing the task names")
    if lowered.startswith("who") and anchor is not None:
        for node in nodes[anchor + 1 : anchor + 30]:
            if node.role == "link" and " " not in node.name.strip() and node.name.strip():
                return Answer(node.name.strip(), "first user link after the thing the task names")
    return _name(nodes, anchor, intent)


def _anchor_index(nodes: list[TreeNode], values: list[IntentValue]) -> int | None:
    """Where on the page the question's thing (quoted title, product, order number) is named first."""
    for value in thing_values(values):
        wanted = normalise(value.text)
        if len(wanted) < 3:
            continue
        for n, node in enumerate(nodes):
            if node.name and f" {wanted} " in f" {normalise(node.name)} ":
                return n
    return None


def _amount(lowered: str, texts: list[str], anchor: int | None) -> Answer:
    amounts = [(n, match.group(0)) for n, text in enumerate(texts) for match in _MONEY.finditer(text)]
    if not amounts:
        return Answer("", "no dollar amount on the page")
    value = lambda item: float(item[1].replace("$", "").replace(",", "").strip())  # noqa: E731
    if re.search(r"\b(cheapest|lowest|least expensive|minimum)\b", lowered):
        return Answer(min(amounts, key=value)[1], "lowest amount on the page")
    if re.search(r"\b(most expensive|highest|maximum|priciest)\b", lowered):
        return Answer(max(amounts, key=value)[1], "highest amount on the page")
    label = re.search(r"\b(grand total|subtotal|total|shipping|tax|price)\b", lowered)
    if label:
        wanted = label.group(1)
        for n, text in enumerate(texts):
            if normalise(text).startswith(wanted):
                after = [item for item in amounts if item[0] >= n]
                if after:
                    return Answer(after[0][1], f"first amount after the label {wanted!r}")
    if anchor is not None:
        after = [item for item in amounts if item[0] >= anchor]
        if after:
            return Answer(after[0][1], "first amount after the thing the task names")
    return Answer(amounts[0][1], "first amount on the page")


def _count(lowered: str, texts: list[str]) -> Answer:
    words = [word for word in re.findall(r"[a-z]+", lowered) if word not in _STOP]
    if not words:
        return Answer("", "no word to count")
    key = words[-1]
    stem = key[:-1] if key.endswith("s") else key
    count = sum(1 for text in texts if normalise(text) in (key, stem, stem + "ed", stem + "d"))
    return Answer(str(count), f"items on the page reading {key!r}")


def _name(nodes: list[TreeNode], anchor: int | None, intent: str) -> Answer:
    start = anchor + 1 if anchor is not None else 0
    for node in nodes[start:]:
        name = node.name.strip()
        if node.role != "link" or len(name.split()) < 3 or starts_with_verb(name):
            continue
        if normalise(name) in normalise(intent):
            continue
        return Answer(name, "first content link" + (" after the thing the task names" if anchor is not None else ""))
    return Answer("", "no content link on the page")
