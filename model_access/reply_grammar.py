"""A reply schema as a GBNF grammar, for servers that constrain decoding by grammar.

llama.cpp's servers read GBNF in a `grammar` field; vLLM (xgrammar) and SGLang read the same
notation. The schemas of our replies use a small part of JSON Schema (objects with fixed
properties, strings, integers, numbers, booleans, null, enums, arrays, type lists), and this
turns exactly that part into rules; anything else is a clear error naming the schema, never a
looser grammar. Strings and arrays are bounded (`maxLength`, `maxItems`, else the defaults
below) so a small model cannot loop inside an open string until the length limit.
"""

from __future__ import annotations

import json
import re
from typing import Any

from foundation.errors import UserError

DEFAULT_MAX_STRING = 400  # characters of a string without maxLength: a reason, a target, an objective
DEFAULT_MAX_ITEMS = 60  # entries of an array without maxItems: labeled actions of one clip

_BASE_RULES = {
    "ws": '[ \\t\\n]{0,4}',
    "char": '[^"\\\\\\x7F\\x00-\\x1F] | "\\\\" ["\\\\/bfnrt]',
    "integer": '"-"? ([0-9] | [1-9] [0-9]{1,15})',
    "number": '"-"? ([0-9] | [1-9] [0-9]{1,15}) ("." [0-9]{1,10})?',
    "boolean": '"true" | "false"',
    "null": '"null"',
}


class _Grammar:
    def __init__(self, name: str) -> None:
        self.name = name
        self.rules: dict[str, str] = {}
        self.used: set[str] = set()

    def rule(self, hint: str, body: str) -> str:
        """A rule holding `body`, reusing one with the same body."""
        for existing, text in self.rules.items():
            if text == body:
                return existing
        hint = re.sub(r"[^a-zA-Z0-9-]", "-", hint)  # GBNF rule names: letters, digits, dashes
        name = hint
        count = 1
        while name in self.rules:
            count += 1
            name = f"{hint}{count}"
        self.rules[name] = body
        return name

    def base(self, name: str) -> str:
        self.used.add(name)
        return name

    def value(self, schema: dict[str, Any], hint: str) -> str:
        if "enum" in schema:
            return self.rule(hint, " | ".join(_literal(json.dumps(v)) for v in schema["enum"]))
        if "const" in schema:
            return self.rule(hint, _literal(json.dumps(schema["const"])))
        kinds = schema.get("type")
        if "anyOf" in schema:
            return self.rule(hint, " | ".join(self.value(s, f"{hint}-{i}") for i, s in enumerate(schema["anyOf"])))
        if isinstance(kinds, list):
            return self.rule(hint, " | ".join(self.value({**schema, "type": k}, f"{hint}-{k}") for k in kinds))
        if kinds == "object":
            return self.rule(hint, self._object(schema, hint))
        if kinds == "array":
            return self.rule(hint, self._array(schema, hint))
        if kinds == "string":
            limit = int(schema.get("maxLength", DEFAULT_MAX_STRING))
            return self.rule(f"string{limit}", f'"\\"" {self.base("char")}{{0,{limit}}} "\\""')
        if kinds in ("integer", "number", "boolean", "null"):
            return self.base(kinds)
        raise UserError(f"reply schema {self.name}: cannot make a grammar for {json.dumps(schema)[:120]}")

    def _object(self, schema: dict[str, Any], hint: str) -> str:
        properties: dict[str, Any] = schema.get("properties", {})
        if set(schema.get("required", [])) != set(properties):
            raise UserError(f"reply schema {self.name}: every property of {hint} must be required for a grammar")
        ws = self.base("ws")
        if not properties:
            return f'"{{" {ws} "}}"'
        parts = [
            f'{_literal(json.dumps(key))} {ws} ":" {ws} {self.value(sub, f"{hint}-{key}")}'
            for key, sub in properties.items()
        ]
        return f'"{{" {ws} ' + f' {ws} "," {ws} '.join(parts) + f' {ws} "}}"'

    def _array(self, schema: dict[str, Any], hint: str) -> str:
        item = self.value(schema.get("items", {"type": "string"}), f"{hint}-item")
        ws = self.base("ws")
        most = int(schema.get("maxItems", DEFAULT_MAX_ITEMS))
        if most < 1:
            return f'"[" {ws} "]"'
        return f'"[" {ws} ({item} ({ws} "," {ws} {item}){{0,{most - 1}}})? {ws} "]"'


def grammar_for(schema: dict[str, Any], name: str = "reply") -> str:
    """GBNF text whose `root` admits exactly the JSON values of `schema` (within the length bounds)."""
    grammar = _Grammar(name)
    root_body = grammar.value(schema, "value")
    lines = [f"root ::= {root_body}"]
    lines += [f"{rule} ::= {body}" for rule, body in grammar.rules.items()]
    lines += [f"{rule} ::= {_BASE_RULES[rule]}" for rule in sorted(grammar.used)]
    return "\n".join(lines) + "\n"


def _literal(text: str) -> str:
    """A GBNF string literal of `text`."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
