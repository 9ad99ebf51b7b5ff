"""The shape of a structured reply: a JSON Schema file kept beside the prompt that asks for it.

A prompt `select_stage1.txt` that ends "reply with {"picks": [...], "reason": ...}" has its
schema in `select_stage1.schema.json` next to it. The schema never changes the prompt's words:
with `models.<role>.structured_output` off it is not sent at all, and the stage's parser reads
free text either way. With it on, the client turns it into the request fields the role's server
reads (model_access/structured_output.py), and checks the reply against it so the ledger counts
replies that broke the schema (a server that ignores it).

Schemas are written for OpenAI's strict mode, the narrowest of the servers: every property listed
in `required`, `additionalProperties: false`, nullable values as a type list.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from foundation.errors import UserError
from model_access.replies import ReplyParseError, extract_json


@dataclass(frozen=True)
class ReplySchema:
    name: str  # the file's stem, sent as the schema's name (OpenAI wants one)
    schema_text: str  # the JSON text, so the dataclass stays hashable and the cache key stable

    @property
    def schema(self) -> dict[str, Any]:
        return json.loads(self.schema_text)

    def with_enum(self, path: tuple[str, ...], values: list[Any]) -> "ReplySchema":
        """This schema with the sub-schema at `path` held to `values` (e.g. the platform's action kinds)."""
        schema = self.schema
        node = schema
        for key in path:
            node = node[key]
        kinds = node.get("type")
        if isinstance(kinds, list):
            # A type list with an enum beside it: llama.cpp's schema converter reads the list and drops the enum,
            # so the choices go into one branch per type ({"type": "null"} for None).
            plain = [value for value in values if value is not None]
            branches = [{"type": kind, "enum": plain} for kind in kinds if kind != "null" and plain]
            branches += [{"type": "null"}] if None in values and "null" in kinds else []
            node.clear()
            node["anyOf"] = branches
        else:
            node["enum"] = list(values)
        return ReplySchema(self.name, json.dumps(schema))

    def violation(self, reply: str) -> str:
        """Why `reply` does not hold a JSON value of this schema ("" when it does)."""
        try:
            value = extract_json(reply)
        except ReplyParseError as exc:
            return str(exc)
        import jsonschema  # here, not at the top: a third of a second that a process checking no reply skips

        error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(self.schema).iter_errors(value))
        return "" if error is None else f"{error.message} (at {'/'.join(map(str, error.absolute_path)) or 'top'})"


@lru_cache(maxsize=None)
def load_reply_schema(path: Path) -> ReplySchema:
    if not path.is_file():
        raise UserError(f"reply schema {path} is missing: restore it from the repository")
    text = path.read_text(encoding="utf-8")
    import jsonschema  # see ReplySchema.violation

    try:
        schema = json.loads(text)
        jsonschema.Draft202012Validator.check_schema(schema)
    except (ValueError, jsonschema.exceptions.SchemaError) as exc:
        problem = str(exc).splitlines()[0]
        raise UserError(f"reply schema {path} is not a valid JSON Schema ({problem}): fix it") from None
    name = path.name.removesuffix(".schema.json")
    return ReplySchema(name, json.dumps(schema))  # the file's property order: a grammar keeps it
