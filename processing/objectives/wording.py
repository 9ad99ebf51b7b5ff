"""Plain wording of a run of actions: `search for "yoga mat", click "Velocore Yoga Mat" and add to wish list`.

No model: each action becomes a short phrase by fixed rules, and the phrases are
joined in order. Element names that start with a verb ("Add to Cart", "Subscribe
to food") already say what happens, so they are used as the phrase itself; other
names are clicked, opened or typed into. The page titles around the run, when
known, are appended so that spans starting on different pages read differently.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from foundation.records.trajectory import LabeledAction

# First words of element names that describe an operation rather than a thing.
CONTROL_VERBS = frozenset(
    """add apply back buy cancel change checkout close continue create delete downvote edit filter follow go
    hide jump load log login logout next open order place post preview proceed publish remove reorder reply report
    reset retract return save search see select send set share show sign skip sort submit subscribe unsubscribe
    update upload upvote view vote write""".split()
)
TEXT_LIMIT = 60  # characters of typed text quoted in an objective; the rest is "..."


def url_path(text: str) -> str:
    """The path (and query) of an address as typed or read off an address bar, with or without its scheme:
    "127.0.0.1:7770/customer/account/" -> "/customer/account/"."""
    text = "".join(str(text).split())
    if "://" in text:
        parts = urlsplit(text)
        return parts.path + (f"?{parts.query}" if parts.query else "")
    slash = text.find("/")
    return text[slash:] if slash >= 0 else ""


def quote(text: str, limit: int = TEXT_LIMIT) -> str:
    text = " ".join(str(text).split())
    if len(text) > limit:
        text = text[: limit - 3].rstrip() + "..."
    return f'"{text}"'


def starts_with_verb(name: str) -> bool:
    words = name.strip().split()
    return bool(words) and words[0].lower().strip(".,:;!?") in CONTROL_VERBS


def action_phrase(action: LabeledAction) -> str:
    """One action as a short lower-case phrase ("" for an action that says nothing on its own)."""
    target = " ".join((action.target or "").split())
    text = " ".join((action.text or "").split())
    kind = action.kind
    if kind == "type":
        if "search" in target.lower():
            return f"search for {quote(text)}"
        return f"enter {quote(text)} as {target}" if target else f"type {quote(text)}"
    if kind == "select":
        if "sort" in target.lower():
            return f"sort by {quote(text)}" if text else "change the sort order"
        if not text:  # the video did not show which option
            return f"choose an option for {target}" if target else "choose an option"
        return f"choose {quote(text)} for {target}" if target else f"choose {quote(text)}"
    if kind in ("click", "right_click"):
        if not target:
            return ""
        if starts_with_verb(target) and len(target.split()) <= 5:
            return target.lower()
        verb = "click" if kind == "click" else "right-click"
        return f"{verb} {quote(target)}"
    if kind == "hover":
        return f"look at {quote(target)}" if target else ""
    if kind == "scroll":
        return f"scroll {text or 'down'}"
    if kind == "press":
        return f"press {text}" if text else ""
    if kind == "goto":
        return f"go to {url_path(text) or text}"
    if kind == "drag":
        return f"drag {quote(target)}" if target else "drag"
    return f"{kind} {quote(target)}" if target else kind


def describe_actions(actions: list[LabeledAction]) -> str:
    """The phrases of `actions` joined in order, repeats and Enter after typing folded in."""
    phrases: list[str] = []
    for n, action in enumerate(actions):
        previous = actions[n - 1] if n else None
        enter = action.kind == "press" and action.text.lower() in ("enter", "return")
        if enter and previous is not None and previous.kind == "type":
            continue  # typing then Enter is one step for a person: "search for ..."
        phrase = action_phrase(action)
        if phrase and (not phrases or phrases[-1] != phrase):
            phrases.append(phrase)
    if not phrases:
        return "look at the page"
    if len(phrases) == 1:
        return phrases[0]
    return ", ".join(phrases[:-1]) + " and " + phrases[-1]


def derived_objective(actions: list[LabeledAction], first_title: str = "", last_title: str = "") -> str:
    """The objective of a span: its actions in words, then the pages it starts and ends on."""
    words = describe_actions(actions)
    words = words[0].upper() + words[1:]
    first_title, last_title = first_title.strip(), last_title.strip()
    if first_title and last_title and first_title != last_title:
        return f'{words} (starting on "{first_title}", ending on "{last_title}")'
    if first_title or last_title:
        return f'{words} (on "{first_title or last_title}")'
    return words


_TITLES = re.compile(r' \((?:starting on "(?P<first>.*)", ending on "(?P<last>.*)"|on "(?P<only>.*)")\)$')


def objective_titles(objective: str) -> tuple[str, str]:
    """The page titles a derived objective names (what `derived_objective` appended): (first, last), "" unknown."""
    found = _TITLES.search(objective)
    if not found:
        return "", ""
    if found["only"] is not None:
        return found["only"], found["only"]
    return found["first"], found["last"]
