"""The prompts of what is shown from a task's videos (demonstrations, frames, narration, the factual
question): text files in `agent/videos/prompts/` with `$name` placeholders."""

from __future__ import annotations

from pathlib import Path

from agent.base.templates import text_block
from foundation.prompt_folder import PromptFolder

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"
PROMPTS = PromptFolder(PROMPTS_DIR, filled_by="the video material")


def render(name: str, **values: object) -> str:
    """Template `name` with its placeholders filled, without the file's trailing newline."""
    return PROMPTS.render(name, **values)


def block(name: str, **values: object) -> dict[str, str]:
    """`render(name, ...)` as a text content part."""
    return text_block(render(name, **values))
