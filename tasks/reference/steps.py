"""A reference solution as steps: one type for every reader (oracles, replay, ladder, loss account).

A solution is written in the scripted policy's syntax (tasks/reference/targets.py):
element actions name their element by role and name (`click [link 'science']`,
`type [searchbox 'Search'] [sourdough] [1]`, `click [button 'Remove item':nth(2)]`);
`goto [url]`, `press [keys]` and `stop [answer]` carry a value. A click on an option
(`click [option 'Price']`) is a choice: its `kind` is "select" and its value the option.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from foundation.errors import UserError
from tasks.reference.targets import Target, parse_target

# Elements a value is chosen in: Chromium names a <select> "combobox" (older versions "PopUpButton" or
# "ComboBoxMenuButton"), a list box "listbox". The replay's grounding and the tracker read this one list.
MENU_ROLES = frozenset({"combobox", "listbox", "PopUpButton", "ComboBoxMenuButton"})
OPTION_ROLES = frozenset({"option", "menuitem"})  # a click on these chooses from a menu
NOT_JUDGED = frozenset({"clear", "hover", "scroll", "wait"})  # steps that only prepare the next one
_BRACKETS = re.compile(r"\[(.*?)\]", re.S)
_VERBS = frozenset({"click", "hover", "type", "clear", "goto", "press", "stop", "scroll", "go_back", "go_forward",
                    "new_tab", "close_tab", "tab_focus", "wait"})  # fmt: skip


@dataclass(frozen=True)
class ReferenceStep:
    """One action of a reference solution, placeholders filled."""

    number: int  # 1-based place in the solution
    text: str  # as the solution writes it
    verb: str  # click, type, clear, hover, goto, press, stop, ...
    target: Target | None = None  # the element, for element actions
    value: str = ""  # typed text, URL, key or the stop's answer
    enter: bool = False  # a `type` that presses Enter after the text

    @property
    def role(self) -> str:
        return self.target.role if self.target else ""

    @property
    def name(self) -> str:
        return self.target.name if self.target else ""

    @property
    def nth(self) -> int:
        return self.target.nth if self.target else 0

    @property
    def chooses(self) -> bool:
        """A click on a menu's option: what a demonstration shows as a choice (`select`)."""
        return self.verb == "click" and self.role in OPTION_ROLES

    @property
    def types_into_menu(self) -> bool:
        """Typing an option into a menu (the replay's way of choosing)."""
        return self.verb == "type" and self.role in MENU_ROLES

    @property
    def kind(self) -> str:
        """What the step does as an episode records it: a choice is a "select" (its value the option)."""
        return "select" if self.chooses or self.types_into_menu else self.verb

    @property
    def chosen(self) -> str:
        """The option a choice picks ("" for other steps)."""
        return self.name if self.chooses else self.value if self.types_into_menu else ""

    @property
    def judged(self) -> bool:
        """Whether an episode must do it (clears, hovers and scrolls only prepare the next step; stop ends)."""
        return self.verb not in NOT_JUDGED and self.verb != "stop"

    def describe(self) -> str:
        if self.kind == "select":
            return f"choose option {self.chosen!r}"
        if self.verb == "type":
            return f"type {self.value!r} into {self.role} {self.name!r}"
        if self.verb in ("goto", "press", "stop"):
            return f"{self.verb} [{self.value}]"
        nth = f" (the {ordinal(self.nth + 1)} of that name)" if self.nth else ""
        return f"{self.verb} {self.role} {self.name!r}{nth}" if self.name else self.text


def parse_step(text: str, number: int = 0) -> ReferenceStep:
    """A solution action as a step; UserError naming it when it cannot be read."""
    text = text.strip()
    target = parse_target(text)
    verb = text.split("[", 1)[0].strip().lower()
    if verb not in _VERBS:
        raise UserError(f"reference solution action {text!r} cannot be read (unknown command {verb!r}); "
                        "fix the solutions file")  # fmt: skip
    values = _BRACKETS.findall(target.rest if target is not None else text)
    if target is not None:
        value = values[0] if values else ""
        enter = verb == "type" and (values[1].strip() != "0" if len(values) > 1 else True)
        return ReferenceStep(number, text, verb, target, value, enter)
    if verb == "stop":  # the answer may hold brackets of its own
        return ReferenceStep(number, text, verb, value=text.split("[", 1)[1].rsplit("]", 1)[0] if "[" in text else "")
    if verb == "type":  # an element by id: the field is not named
        enter = values[2].strip() != "0" if len(values) > 2 else True
        return ReferenceStep(number, text, verb, value=values[1] if len(values) > 1 else "", enter=enter)
    return ReferenceStep(number, text, verb, value=values[0] if values else "")


def reference_steps(actions: list[str]) -> list[ReferenceStep]:
    """The steps of a reference solution, numbered from 1."""
    return [parse_step(text, number) for number, text in enumerate(actions, start=1)]


def ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"
