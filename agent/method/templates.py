"""The method's prompts (trajectory selection, the whole-video choice): text files in
`agent/method/prompts/` with `$name` placeholders."""

from __future__ import annotations

from pathlib import Path

from agent.base.templates import text_block
from foundation.prompt_folder import PromptFolder
from model_access.reply_schema import ReplySchema, load_reply_schema

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"
PROMPTS = PromptFolder(PROMPTS_DIR, filled_by="the method")


def reply_schema(name: str) -> ReplySchema:
    """The schema of prompt `name`'s reply (`NAME.schema.json` beside it)."""
    return load_reply_schema(PROMPTS_DIR / f"{name}.schema.json")


def render(name: str, **values: object) -> str:
    """Template `name` with its placeholders filled, without the file's trailing newline."""
    return PROMPTS.render(name, **values)


def block(name: str, **values: object) -> dict[str, str]:
    """`render(name, ...)` as a text content part."""
    return text_block(render(name, **values))
