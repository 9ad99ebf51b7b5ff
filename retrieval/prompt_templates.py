"""The prompt templates of retrieval's model calls, kept as text files in `retrieval/prompts/`."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from string import Template

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"


@lru_cache(maxsize=None)
def template(name: str) -> Template:
    return Template((PROMPTS_DIR / f"{name}.txt").read_text(encoding="utf-8").rstrip("\n"))


def render(name: str, **values: object) -> str:
    """The template filled in; a missing value is an error (`substitute`), never a silent `$name`."""
    return template(name).substitute({key: str(value) for key, value in values.items()})
