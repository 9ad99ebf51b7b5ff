"""The base agents' prompt templates: text files in `agent/base/prompts/` with `$name` placeholders.

Every word a policy sends to a model lives in a `prompts/` folder beside the code that
sends it (each room of agent/ has its own and a `templates.py` like this one), so a
prompt can be read and changed without reading code. A template is read once per
process. `text_block` is shared: the rooms above build their blocks with it.
"""

from __future__ import annotations

from pathlib import Path

from foundation.prompt_folder import PromptFolder

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"
PROMPTS = PromptFolder(PROMPTS_DIR, filled_by="the agent")


def render(name: str, **values: object) -> str:
    """Template `name` with its placeholders filled, without the trailing newline of the file."""
    return PROMPTS.render(name, **values)


def text_block(text: str) -> dict[str, str]:
    """A text content part ending in a blank line: servers join a message's parts without a separator."""
    return {"type": "text", "text": text.rstrip("\n") + "\n\n"}


def block(name: str, **values: object) -> dict[str, str]:
    """`render(name, ...)` as a text content part."""
    return text_block(render(name, **values))
