"""A grammar admitting only well-formed AgentOccam replies (`agentoccam.reply_grammar`, off by default).

AgentOccam's runner sends no constraint, so the preset that claims it sends none either. Turned on, each
policy call carries a GBNF grammar (model_access/structured_output.py says which field each server
reads) that admits exactly: the prompt's sections in their order, each heading on its own line and its
text on one line; an ACTION of one offered command whose element ids are ids of the current observation;
and, when the format asks for it, an OBSERVATION HIGHLIGHT of such ids. What the model says inside a
section is free; only the shape and the ids are held.
"""

from __future__ import annotations

import re

ACTION, HIGHLIGHT = "ACTION", "OBSERVATION HIGHLIGHT"
_HEADING = re.compile(r"^([A-Z][A-Z ]+):\s*$", re.M)
SECTION_CHARS = 600  # one section's line: AgentOccam's summaries and reasons run to a few sentences
ARGUMENT_CHARS = 200  # a typed text, an answer, a note
MAX_HIGHLIGHTS = 8

_COMMANDS = {
    "click": '"click [" id "]"',
    "type": '"type [" id "] [" argument "]" (" [" [01] "]")?',
    "go_back": '"go_back"',
    "go_home": '"go_home"',
    "stop": '"stop [" argument "]"',
    "scroll": '"scroll [" ("down" | "up") "]" (" [" argument "]")?',
    "note": '"note [" argument "]"',
    "branch": '"branch [" [0-9]{1,3} "] [" argument "]"',
    "prune": '"prune [" [0-9]{1,3} "] [" argument "]"',
}


def headings(output_format: str) -> list[str]:
    """The section headings an output-format text asks for, in order ("INTERACTION HISTORY SUMMARY", ...)."""
    return _HEADING.findall(output_format)


def policy_grammar(section_headings: list[str], commands: list[str], element_ids: list[str]) -> str:
    """GBNF for one step's reply: `section_headings` in order, ACTION one of `commands` on `element_ids`."""
    if ACTION not in section_headings:
        raise ValueError("the output format has no ACTION section")
    ids = [element_id for element_id in element_ids if element_id.isdigit()]
    known = [name for name in commands if name in _COMMANDS and (ids or name not in ("click", "type"))]
    parts = []
    for heading in section_headings:
        body = {ACTION: "command", HIGHLIGHT: "highlights" if ids else "line"}.get(heading, "line")
        parts.append(f'"{heading}:\\n" {body}')
    rules = [
        "root ::= " + ' "\\n" '.join(parts) + ' "\\n"?',
        f"line ::= [^\\n]{{1,{SECTION_CHARS}}}",
        "command ::= " + " | ".join(_COMMANDS[name] for name in known),
        f"argument ::= [^\\]\\n]{{0,{ARGUMENT_CHARS}}}",
    ]
    if ids:  # a page without ids offers no click or type at all
        rules.append("id ::= " + " | ".join(f'"{element_id}"' for element_id in ids))
        rules.append(f'highlights ::= id (", " id){{0,{MAX_HIGHLIGHTS - 1}}}')
    return "\n".join(rules) + "\n"
