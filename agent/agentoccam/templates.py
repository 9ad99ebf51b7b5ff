"""The AgentOccam prompts: text files in `agent/agentoccam/prompts/` with `$name` placeholders."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from string import Template

from agent.templates import text_block
from foundation.errors import UserError

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"


@lru_cache(maxsize=None)
def _template(name: str) -> Template:
    path = PROMPTS_DIR / f"{name}.txt"
    if not path.is_file():
        raise UserError(f"prompt template {path} is missing: restore it from the repository")
    return Template(path.read_text(encoding="utf-8"))


def render(name: str, **values: object) -> str:
    """Template `name` with its placeholders filled, without the file's trailing newline."""
    try:
        return _template(name).substitute({key: str(value) for key, value in values.items()}).rstrip("\n")
    except (KeyError, ValueError) as exc:
        raise UserError(f"prompt template {PROMPTS_DIR / name}.txt cannot be filled ({exc}); restore it") from None


def block(name: str, **values: object) -> dict[str, str]:
    return text_block(render(name, **values))
