"""Tutorial scripts: one YAML file per tutorial, read into typed steps.

A script names its site, where it starts, whether it starts signed in, and a
list of steps. Every step has a spoken-style narration line (`say`) and exactly
one action:

    goto: /checkout/cart/                      # typed into the address bar
    click: {role: button, name: Add to Cart}   # or {text: ...}, {label: ...}; optional nth
    type: {target: {role: searchbox, name: Search}, text: headphones, enter: yes, clear: no}
    select: {label: Sort By, option: Price}    # a <select>, by its label, and the option's text
    scroll: {direction: down, amount: 400}     # pixels; `scroll: down` scrolls 400
    press: Enter
    hover: {role: link, name: My Account}
    wait: 1.5                                  # seconds, cursor resting
    idle: 2                                    # seconds of small restless hand movements
    wander: 3                                  # seconds of aimless sweeps across the page

Loading never guesses: a malformed script is a `UserError` naming the file, the
step and the fix.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from foundation.errors import UserError

SCRIPTS_DIR = Path(__file__).resolve().parent / "scripts"
SITE_NAMES = ("shop", "forum")
ACTION_KINDS = ("goto", "click", "type", "select", "scroll", "press", "hover", "wait", "idle", "wander")
TARGET_KEYS = ("role", "name", "text", "label", "nth")
DEFAULT_SCROLL_PX = 400


@dataclass(frozen=True)
class Target:
    """An element as a viewer would point at it: role + accessible name, visible text, or a field's label."""

    role: str | None = None
    name: str | None = None
    text: str | None = None
    label: str | None = None
    nth: int = 0

    def describe(self) -> str:
        if self.role:
            core = f"{self.role} {self.name!r}" if self.name is not None else self.role
        elif self.text is not None:
            core = f"text {self.text!r}"
        else:
            core = f"field labelled {self.label!r}"
        return core + (f" (match {self.nth})" if self.nth else "")

    @property
    def spoken_name(self) -> str:
        """The name a person would use for the element."""
        return self.name or self.text or self.label or self.role or ""


@dataclass(frozen=True)
class Step:
    index: int
    say: str
    kind: str
    target: Target | None = None
    text: str = ""  # typed text, URL, option, key
    enter: bool = False  # type: press Enter afterwards
    clear: bool = False  # type: replace what the field holds
    direction: str = "down"
    amount: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class TutorialScript:
    name: str  # file stem, also the video's name
    path: Path
    title: str
    description: str
    site: str  # "shop" or "forum"
    start_url: str  # path on the site, e.g. "/"
    login: bool
    steps: tuple[Step, ...] = field(default_factory=tuple)

    @property
    def narration(self) -> list[str]:
        return [step.say for step in self.steps]


def script_paths(folder: Path = SCRIPTS_DIR) -> list[Path]:
    return sorted(folder.glob("*.yaml"))


def load_all(folder: Path = SCRIPTS_DIR) -> list[TutorialScript]:
    return [load_script(path) for path in script_paths(folder)]


def load_script(path: Path) -> TutorialScript:
    where = f"tutorial script {path}"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise UserError(f"{where} is not valid YAML ({str(exc).splitlines()[0]}); fix its syntax") from None
    except OSError as exc:
        raise UserError(f"{where} cannot be read ({exc.strerror}); check the file") from None
    if not isinstance(data, dict):
        raise UserError(f"{where} must hold a mapping with title, site, start_url, login and steps")
    for key in ("title", "description", "site", "start_url", "steps"):
        if key not in data:
            raise UserError(f"{where} has no `{key}`; add it")
    if data["site"] not in SITE_NAMES:
        raise UserError(f"{where}: site {data['site']!r} is unknown; use one of {', '.join(SITE_NAMES)}")
    start_url = str(data["start_url"])
    if not start_url.startswith("/"):
        raise UserError(f"{where}: start_url {start_url!r} must be a path on the site starting with /")
    raw_steps = data["steps"]
    if not isinstance(raw_steps, list) or not raw_steps:
        raise UserError(f"{where}: `steps` must be a non-empty list")
    steps = tuple(_step(raw, index, where) for index, raw in enumerate(raw_steps))
    return TutorialScript(
        name=path.stem,
        path=path,
        title=str(data["title"]).strip(),
        description=" ".join(str(data["description"]).split()),
        site=data["site"],
        start_url=start_url,
        login=bool(data.get("login", False)),
        steps=steps,
    )


def _step(raw: Any, index: int, where: str) -> Step:
    at = f"{where}, step {index + 1}"
    if not isinstance(raw, dict):
        raise UserError(f"{at}: a step must be a mapping with `say` and one action")
    say = raw.get("say")
    if not isinstance(say, str) or not say.strip():
        raise UserError(f"{at}: every step needs a narration line in `say`")
    kinds = [key for key in raw if key != "say"]
    unknown = [key for key in kinds if key not in ACTION_KINDS]
    if unknown:
        raise UserError(f"{at}: unknown action {unknown[0]!r}; use one of {', '.join(ACTION_KINDS)}")
    if len(kinds) != 1:
        raise UserError(f"{at}: needs exactly one action besides `say` (found {len(kinds)})")
    kind = kinds[0]
    value = raw[kind]
    say = " ".join(say.split())
    if kind in ("wait", "idle", "wander"):
        return Step(index, say, kind, seconds=_positive(value, at, kind))
    if kind == "goto":
        if not isinstance(value, str) or not value.startswith("/"):
            raise UserError(f"{at}: goto needs a path on the site starting with / (got {value!r})")
        return Step(index, say, kind, text=value)
    if kind == "press":
        if not isinstance(value, str) or not value.strip():
            raise UserError(f"{at}: press needs a key name such as Enter or Tab")
        return Step(index, say, kind, text=value.strip())
    if kind in ("click", "hover"):
        return Step(index, say, kind, target=_target(value, at))
    if kind == "type":
        if not isinstance(value, dict) or "target" not in value or "text" not in value:
            raise UserError(f"{at}: type needs `target` and `text`")
        return Step(
            index, say, kind, target=_target(value["target"], at), text=str(value["text"]),
            enter=bool(value.get("enter", False)), clear=bool(value.get("clear", False)),
        )  # fmt: skip
    if kind == "select":
        if not isinstance(value, dict) or "option" not in value:
            raise UserError(f"{at}: select needs `label` (or `target`) and `option`")
        spec = value.get("target") or {"label": value.get("label")}
        if not spec.get("label") and not spec.get("role"):
            raise UserError(f"{at}: select needs the `label` of the drop-down")
        return Step(index, say, kind, target=_target(spec, at), text=str(value["option"]))
    # scroll
    if isinstance(value, str):
        value = {"direction": value}
    if not isinstance(value, dict) or value.get("direction") not in ("up", "down"):
        raise UserError(f"{at}: scroll needs direction up or down")
    amount = int(value.get("amount", DEFAULT_SCROLL_PX))
    if amount <= 0:
        raise UserError(f"{at}: scroll amount must be a positive number of pixels")
    return Step(index, say, kind, direction=value["direction"], amount=amount)


def _target(value: Any, at: str) -> Target:
    if not isinstance(value, dict):
        raise UserError(f"{at}: a target is a mapping such as {{role: button, name: Search}} or {{text: Electronics}}")
    unknown = [key for key in value if key not in TARGET_KEYS]
    if unknown:
        raise UserError(f"{at}: unknown target key {unknown[0]!r}; use {', '.join(TARGET_KEYS)}")
    if not (value.get("role") or value.get("text") is not None or value.get("label")):
        raise UserError(f"{at}: a target needs `role` (with `name`), `text` or `label`")
    nth = value.get("nth", 0)
    if not isinstance(nth, int) or nth < 0:
        raise UserError(f"{at}: target nth must be a number from 0")
    as_text = {key: (None if value.get(key) is None else str(value[key])) for key in ("role", "name", "text", "label")}
    return Target(nth=nth, **as_text)


def _positive(value: Any, at: str, kind: str) -> float:
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        seconds = -1.0
    if seconds <= 0:
        raise UserError(f"{at}: {kind} needs a positive number of seconds")
    return seconds
