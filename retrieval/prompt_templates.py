"""The prompt templates of retrieval's model calls, kept as text files in `retrieval/prompts/`."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from string import Template

from model_access.reply_schema import ReplySchema, load_reply_schema

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"


@lru_cache(maxsize=None)
def template(name: str) -> Template:
    return Template((PROMPTS_DIR / f"{name}.txt").read_text(encoding="utf-8").rstrip("\n"))


def reply_schema(name: str) -> ReplySchema:
    """The schema of prompt `name`'s reply (`NAME.schema.json` beside it)."""
    return load_reply_schema(PROMPTS_DIR / f"{name}.schema.json")


def render(name: str, **values: object) -> str:
    """The template filled in; a missing value is an error (`substitute`), never a silent `$name`."""
    return template(name).substitute({key: str(value) for key, value in values.items()})
