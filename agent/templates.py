"""The agent's prompt templates: text files in `agent/prompts/` with `$name` placeholders.

Every word the policy and the selection send to a model lives in those files, so a
prompt can be read and changed without reading code. A template is read once per
process.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from string import Template

from foundation.errors import UserError

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"


@lru_cache(maxsize=None)
def _template(name: str) -> Template:
    path = PROMPTS_DIR / f"{name}.txt"
    if not path.is_file():
        raise UserError(f"prompt template {path} is missing: restore it from the repository")
    return Template(path.read_text(encoding="utf-8"))


def render(name: str, **values: object) -> str:
    """Template `name` with its placeholders filled, without the trailing newline of the file."""
    try:
        return _template(name).substitute({key: str(value) for key, value in values.items()}).rstrip("\n")
    except KeyError as exc:
        raise UserError(
            f"prompt template {name}.txt uses ${exc.args[0]}, which the agent does not fill; "
            f"remove it (placeholders: {', '.join(sorted(values)) or 'none'})"
        ) from None
    except ValueError as exc:
        raise UserError(f"prompt template {name}.txt has a stray '$' ({exc}); write a literal dollar as $$") from None


def text_block(text: str) -> dict[str, str]:
    """A text content part ending in a blank line: servers join a message's parts without a separator."""
    return {"type": "text", "text": text.rstrip("\n") + "\n\n"}


def block(name: str, **values: object) -> dict[str, str]:
    """`render(name, ...)` as a text content part."""
    return text_block(render(name, **values))
