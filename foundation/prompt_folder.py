"""A folder of prompt templates: `NAME.txt` files with `$name` placeholders, read once per process.

Each package that talks to a model keeps its prompts as text files next to its code and
renders them through one `PromptFolder`, so a prompt can be read and changed without
reading code, and a broken template says which file and how to fix it.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from string import Template

from foundation.errors import UserError


class PromptFolder:
    def __init__(self, directory: Path, filled_by: str = "the code") -> None:
        self.directory = directory
        self.filled_by = filled_by  # who fills the placeholders, for the error message
        self._template = lru_cache(maxsize=None)(self._read)

    def _read(self, name: str) -> Template:
        path = self.directory / f"{name}.txt"
        if not path.is_file():
            raise UserError(f"prompt template {path} is missing: restore it from the repository")
        return Template(path.read_text(encoding="utf-8"))

    def render(self, name: str, **values: object) -> str:
        """Template `name` with its placeholders filled, without the file's trailing newline."""
        path = self.directory / f"{name}.txt"
        try:
            return self._template(name).substitute({key: str(value) for key, value in values.items()}).rstrip("\n")
        except KeyError as exc:
            raise UserError(
                f"prompt template {path} uses ${exc.args[0]}, which {self.filled_by} does not fill; "
                f"remove it (placeholders: {', '.join(sorted(values)) or 'none'})"
            ) from None
        except ValueError as exc:
            raise UserError(f"prompt template {path} has a stray '$' ({exc}); write a literal dollar as $$") from None
