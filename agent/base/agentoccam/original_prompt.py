"""AgentOccam's own prompt (`agentoccam.prompt_source: original`), read at run time from the user's checkout.

`agentoccam.checkout` names a checkout of amazon-science/AgentOccam (the folder holding `AgentOccam/`).
Nothing of its text is stored here; these files are read when the policy starts:

- `AgentOccam/prompts/AgentOccam_prompt.py`: the actor's instruction and input templates (the `actor` dict,
  read as a Python literal, never run);
- `AgentOccam/prompts/output_specifications/<section>.txt`, `navigation_specifications/<command>.txt`,
  `planning_specifications/<command>.txt`: one file per reply section and per command;
- `AgentOccam/AgentOccam.py`: the texts its code writes into the prompt (the warnings, the history entry,
  the plan tree's lines, the root plan, the section headings), each found by where it stands in that code:
  the class, the method and the expressions it fills (`_CODE_TEXTS`). Its code is parsed, never run.

The prompt is assembled as its actor does (line numbers at c078ba6):

- system: the instruction template with planning when planning commands are offered (`Actor.get_actor_
  instruction`, AgentOccam.py:571-600), its `{output_specifications}` each section's heading and file joined
  by newlines (:133-135), `{planning_specifications}` and `{navigation_specifications}` "- " and each
  command's file joined by newlines (:559-569); the final-step warning added at the last step (:595-596);
  a warning added for a re-ask (:919-925);
- user: the input template's `{input}` filled with its configuration's input sections in order
  (`get_online_input`, :524-557; AgentOccam.yml:22): OBJECTIVE, PREVIOUS PLANS, INTERACTION HISTORY (left
  out while empty), CURRENT OBSERVATION, each a heading and its text. Its list names "step" first, but the
  step is a number and only text or lists are sent (:546-550), so no STEP section goes out.
"""

from __future__ import annotations

import ast
import string
from dataclasses import dataclass
from pathlib import Path

from foundation.errors import UserError

SETTING = "agentoccam.checkout"
FIX = (
    "--set agentoccam.checkout=/path/to/AgentOccam (a checkout of amazon-science/AgentOccam), "
    "or --set agentoccam.prompt_source=ours for our prompt"
)
PROMPT_FILE = "AgentOccam/prompts/AgentOccam_prompt.py"
CODE_FILE = "AgentOccam/AgentOccam.py"
SPECIFICATIONS = "AgentOccam/prompts/{kind}_specifications/{name}.txt"

# Its actor's configuration (AgentOccam/configs/AgentOccam.yml:22, :29): the reply's sections, each with a
# specification file, and the user message's sections in order ("step" left out: see above).
OUTPUT_SECTIONS = (
    "interaction history summary", "observation description", "reason", "action", "observation highlight"
)  # fmt: skip
INPUT_SECTIONS = ("objective", "previous plans", "interaction history", "current observation")
VISUAL_SECTION = "current visual observation"  # sent when its observation type holds "image" (:552-555)
PLANNING = ("branch", "prune")


@dataclass(frozen=True)
class CodeText:
    """A text of AgentOccam's code: literal pieces and the expressions (their source) it fills in between."""

    pieces: tuple[tuple[bool, str], ...]  # (is an expression, literal text or the expression's source)

    @property
    def expressions(self) -> tuple[str, ...]:
        return tuple(text for is_expression, text in self.pieces if is_expression)

    def fill(self, values: dict[str, object]) -> str:
        """The text with each expression given its value (str(), as an f-string or "{}".format writes it)."""
        return "".join(str(values[text]) if is_expression else text for is_expression, text in self.pieces)


# Where each text stands in AgentOccam.py: (class, method, the expressions it fills, which of those matches).
_CODE_TEXTS = {
    "output_heading": ("Agent", "get_output_specifications", ("o.upper()",), 0),  # :134
    "section": ("Actor", "get_online_input", ("input_type.upper()", "input_content"), 0),  # :547
    "section_heading": ("Actor", "get_online_input", ("input_type.upper()",), 0),  # :549
    "final_step": ("Actor", "get_actor_instruction", ("self.config.others.max_steps",), 0),  # :596
    "repeated_note": ("Actor", "predict_action", ("getattr(self, 'note_buffer', '')",), 0),  # :921
    "invalid": ("Actor", "predict_action", ("invalid_action_str",), 0),  # :923
    "history_with_plan": ("Actor", "get_interaction_history", ("step", "obs", "plan", "reason", "action", "step"), 0),
    "history": ("Actor", "get_interaction_history", ("step", "obs", "reason", "action", "step"), 0),  # :515, :517
    "active_plan_line": ("Actor", "get_previous_plans", ("node.id", "node.text"), 0),  # :432
    "plan_line": ("Actor", "get_previous_plans", ("node.id", "node.text"), 1),  # :434
    "resumed": ("Actor", "get_previous_plans", ("len(node.resume_reason)",), 0),  # :436
    "resume_reason": ("Actor", "get_previous_plans", ("i", "reason"), 0),  # :438
    "note_line": ("Actor", "get_previous_plans", ("i", "note"), 0),  # :441
    "active_plan": ("Actor", "get_active_plan", ("self.active_node.id", "self.active_node.text"), 0),  # :448
    "note": ("Actor", "take_note", ("self.get_step()", "note"), 0),  # :843
    "root_plan": ("AgentOccam", "init_actor", ("self.objective",), 0),  # :1330
    "invalid_plan": ("Actor", "planning", ("action",), 0),  # :699
}


@dataclass
class HistoryEntry:
    """One past step as its history shows it."""

    observation: str
    plan: str
    reason: str
    action: str


class OriginalPrompt:
    """AgentOccam's texts from a checkout, and its actor's way of putting them together."""

    def __init__(self, checkout: str, commands: list[str]) -> None:
        """Read every file the prompt needs for `commands` (the page and planning commands that may be offered);
        a missing checkout, file or text is one line naming it."""
        if not checkout:
            raise UserError(f"agentoccam.prompt_source is original but {SETTING} is not set: {FIX}")
        self.root = Path(checkout).expanduser()
        if not self.root.is_dir():
            raise UserError(f"{SETTING}: {self.root} is not a folder; {FIX}")
        actor = self._actor_templates()
        try:
            self.with_planning = actor["instruction_template"]["with_planning"]
            self.without_planning = actor["instruction_template"]["without_planning"]
            self.input_template = actor["input_template"]
        except (KeyError, TypeError) as exc:
            raise UserError(f"{SETTING}: {self.root / PROMPT_FILE} has no actor template {exc}; {FIX}") from None
        if actor.get("examples"):
            raise UserError(f"{SETTING}: {self.root / PROMPT_FILE} gives the actor examples, which are not sent here")
        if self.input_template.count("{input}") != 1:
            raise UserError(f"{SETTING}: {self.root / PROMPT_FILE}: its actor's input_template has no single {{input}}")
        self.output = {name: self._specification("output", name.replace(" ", "_")) for name in OUTPUT_SECTIONS}
        self.commands = {
            name: self._specification("planning" if name in PLANNING else "navigation", name) for name in commands
        }
        self.code = self._code_texts()

    # ---- reading the checkout ----

    def _read(self, relative: str) -> str:
        path = self.root / relative
        if not path.is_file():
            raise UserError(f"{SETTING}: {path} does not exist; {FIX}")
        return path.read_text(encoding="utf-8")  # text mode, as its `open(..., "r")`

    def _specification(self, kind: str, name: str) -> str:
        return self._read(SPECIFICATIONS.format(kind=kind, name=name))

    def _actor_templates(self) -> dict:
        source = self._read(PROMPT_FILE)
        try:
            module = ast.parse(source)
            for node in module.body:
                if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "actor" for t in node.targets):
                    return ast.literal_eval(node.value)
        except (SyntaxError, ValueError) as exc:
            raise UserError(f"{SETTING}: {self.root / PROMPT_FILE} is not a Python literal ({exc}); {FIX}") from None
        raise UserError(f"{SETTING}: {self.root / PROMPT_FILE} assigns no `actor`; {FIX}")

    def _code_texts(self) -> dict[str, CodeText]:
        path = self.root / CODE_FILE
        try:
            module = ast.parse(self._read(CODE_FILE))
        except SyntaxError as exc:
            raise UserError(f"{SETTING}: {path} does not parse ({exc}); {FIX}") from None
        classes = {node.name: node for node in module.body if isinstance(node, ast.ClassDef)}
        texts = {}
        for name, (cls, method, expressions, nth) in _CODE_TEXTS.items():
            function = _method(classes, cls, method)
            found = [text for text in _texts_in(function) if text.expressions == expressions] if function else []
            if len(found) <= nth:
                raise UserError(
                    f"{SETTING}: {path} has no text filling {', '.join(expressions)} in {cls}.{method} "
                    f"(read against AgentOccam c078ba6); {FIX}"
                )
            texts[name] = found[nth]
        same = next((text for text in _dict_texts(_method(classes, "Actor", "get_interaction_history"))), None)
        if same is None:
            raise UserError(f"{SETTING}: {path} has no same-page text in Actor.get_interaction_history; {FIX}")
        texts["same_page"] = same
        return texts

    # ---- the texts put together ----

    def system_prompt(self, commands: list[str], final_step_of: int | None) -> str:
        """The actor's instruction for the offered `commands`; with the final-step warning when `final_step_of`
        (the step budget) is given."""
        planning = [name for name in commands if name in PLANNING]
        navigation = [name for name in commands if name not in PLANNING]
        heading = self.code["output_heading"]
        output = "\n".join(heading.fill({"o.upper()": name.upper()}) + self.output[name] for name in OUTPUT_SECTIONS)
        text = self.with_planning if planning else self.without_planning
        text = text.replace("{output_specifications}", output)
        text = text.replace("{planning_specifications}", "\n".join("- " + self.commands[n] for n in planning))
        text = text.replace("{navigation_specifications}", "\n".join("- " + self.commands[n] for n in navigation))
        if final_step_of is not None:
            text += self.code["final_step"].fill({"self.config.others.max_steps": final_step_of})
        return text

    def invalid_warning(self, action: str) -> str:
        return self.code["invalid"].fill({"invalid_action_str": action})

    def repeated_note_warning(self, note: str) -> str:
        return self.code["repeated_note"].fill({"getattr(self, 'note_buffer', '')": note})

    def invalid_plan_note(self, action: str) -> str:
        """The note a plan command it cannot apply leaves on the active plan (AgentOccam.py:696-699); `action` is
        the reply's whole ACTION, as its planning() receives it (:1003-1005)."""
        return self.code["invalid_plan"].fill({"action": action})

    def root_plan(self, objective: str) -> str:
        return self.code["root_plan"].fill({"self.objective": objective})

    def note_record(self, step: int, note: str) -> str:
        """A note as kept on its plan; `step` counts from 0, as its get_step()."""
        return self.code["note"].fill({"self.get_step()": step, "note": note})

    def active_plan(self, plan_id: int, text: str) -> str:
        return self.code["active_plan"].fill({"self.active_node.id": plan_id, "self.active_node.text": text})

    def plans(self, tree) -> str:
        """The visible plans as its get_previous_plans(verbose=True) writes them (AgentOccam.py:429-445)."""
        lines = []
        for node in tree.root.walk():
            if not node.visible:
                continue
            indent = "\t" * node.level
            line = self.code["active_plan_line" if node is tree.active else "plan_line"]
            text = indent + line.fill({"node.id": node.plan_id, "node.text": node.intent})
            if node.resume_reasons:
                text += self.code["resumed"].fill({"len(node.resume_reason)": len(node.resume_reasons)})
                for i, reason in enumerate(node.resume_reasons):
                    text += self.code["resume_reason"].fill({"i": i, "reason": reason})
            for i, note in enumerate(node.notes):
                text += "\n" + indent + self.code["note_line"].fill({"i": i, "note": note})
            lines.append(text)
        return "\n".join(lines)

    @property
    def same_page(self) -> str:
        return self.code["same_page"].fill({})

    def history(self, entries: list[HistoryEntry], show_plan: bool) -> str:
        """The steps of the active plan, numbered from 0 (AgentOccam.py:511-518); the plan only when the active
        plan is not the root (:514)."""
        text = self.code["history_with_plan" if show_plan else "history"]
        return "".join(
            text.fill({"step": n, "obs": e.observation, "plan": e.plan, "reason": e.reason, "action": e.action})
            for n, e in enumerate(entries)
        )

    def user_text(self, sections: dict[str, str], visual: bool) -> tuple[str, str]:
        """(the text before the screenshot, the text after it) of the user message; a section with no text is
        left out, as its actor leaves out an empty one."""
        prefix, suffix = self.input_template.split("{input}")
        text = prefix
        for name in INPUT_SECTIONS:
            content = sections.get(name, "")
            if not content:
                continue
            if name == "interaction history":  # a list of message parts there: its heading, then the entries
                text += self.code["section_heading"].fill({"input_type.upper()": name.upper()}) + content
            else:
                text += self.code["section"].fill({"input_type.upper()": name.upper(), "input_content": content})
        if visual:
            text += self.code["section_heading"].fill({"input_type.upper()": VISUAL_SECTION.upper()})
            return text, suffix
        return text + suffix, ""


def _method(classes: dict[str, ast.ClassDef], cls: str, method: str) -> ast.FunctionDef | None:
    body = getattr(classes.get(cls), "body", [])
    return next((n for n in body if isinstance(n, ast.FunctionDef) and n.name == method), None)


def _texts_in(function: ast.AST) -> list[CodeText]:
    """The f-strings and `"...".format(...)` texts of a function, in the order they are written."""
    found: list[tuple[tuple[int, int], CodeText]] = []
    for node in ast.walk(function):
        text = None
        if isinstance(node, ast.JoinedStr):
            text = _f_string(node)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "format"
            and isinstance(node.func.value, ast.Constant)
            and isinstance(node.func.value.value, str)
        ):
            text = _format_call(node.func.value.value, [ast.unparse(arg) for arg in node.args])
        if text is not None:
            found.append(((node.lineno, node.col_offset), text))
    return [text for _, text in sorted(found, key=lambda item: item[0])]


def _f_string(node: ast.JoinedStr) -> CodeText | None:
    pieces = []
    for value in node.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            pieces.append((False, value.value))
        elif isinstance(value, ast.FormattedValue) and value.conversion == -1 and value.format_spec is None:
            pieces.append((True, ast.unparse(value.value)))
        else:
            return None  # a conversion or format spec: none of the texts read here has one
    return CodeText(tuple(pieces))


def _format_call(template: str, arguments: list[str]) -> CodeText | None:
    pieces = []
    position = 0
    for literal, field, spec, conversion in string.Formatter().parse(template):
        if literal:
            pieces.append((False, literal))
        if field is None:
            continue
        if field != "" or spec or conversion or position >= len(arguments):
            return None  # only plain "{}" fields are read here
        pieces.append((True, arguments[position]))
        position += 1
    return CodeText(tuple(pieces))


def _dict_texts(function: ast.FunctionDef | None) -> list[CodeText]:
    """The literal "text" values of the dicts a function builds, in order (its same-page observation)."""
    if function is None:
        return []
    found = []
    for node in ast.walk(function):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if (
                    isinstance(key, ast.Constant)
                    and key.value == "text"
                    and isinstance(value, ast.Constant)
                    and isinstance(value.value, str)
                ):
                    found.append(((node.lineno, node.col_offset), CodeText(((False, value.value),))))
    return [text for _, text in sorted(found, key=lambda item: item[0])]
