"""Prompt templates of the processing stages: text files in `processing/prompts/`, `$name` placeholders.

`processing.prompts_dir` names a folder whose files replace the bundled ones of the
same name, so a prompt can be changed for an experiment without touching the code.
The template's text is part of its stage's cache key: editing a prompt reruns that stage.
"""

from __future__ import annotations

from pathlib import Path
from string import Template

from foundation.errors import UserError
from model_access.reply_schema import ReplySchema, load_reply_schema
from settings.schema import ProcessingSettings

BUNDLED_DIR = Path(__file__).resolve().parent / "prompts"


def template_text(name: str, settings: ProcessingSettings) -> str:
    """The text of template `name` (e.g. "labeling"), from the override folder when it has one."""
    if settings.prompts_dir:
        folder = Path(settings.prompts_dir).expanduser()
        if not folder.is_dir():
            raise UserError(
                f'prompt folder {folder} does not exist: fix processing.prompts_dir, or set it to "" (bundled)'
            )
        override = folder / f"{name}.txt"
        if override.is_file():
            return override.read_text(encoding="utf-8")
    bundled = BUNDLED_DIR / f"{name}.txt"
    if not bundled.is_file():
        raise UserError(f"prompt template {bundled} is missing: reinstall the project or restore the file")
    return bundled.read_text(encoding="utf-8")


def reply_schema(name: str, settings: ProcessingSettings) -> ReplySchema:
    """The schema of template `name`'s reply (`NAME.schema.json`), from the override folder when it has one."""
    if settings.prompts_dir:
        override = Path(settings.prompts_dir).expanduser() / f"{name}.schema.json"
        if override.is_file():
            return load_reply_schema(override)
    return load_reply_schema(BUNDLED_DIR / f"{name}.schema.json")


def render(name: str, settings: ProcessingSettings, **values: object) -> str:
    """Template `name` with its `$placeholders` filled; a placeholder without a value is a clear error."""
    text = template_text(name, settings)
    try:
        return Template(text).substitute({key: str(value) for key, value in values.items()}).strip()
    except KeyError as exc:
        raise UserError(
            f"prompt template {name}.txt uses ${exc.args[0]}, which this stage does not fill; "
            f"remove it from the template (placeholders: {', '.join(sorted(values))})"
        ) from exc
    except ValueError as exc:
        raise UserError(f"prompt template {name}.txt has a stray '$' ({exc}); write a literal dollar as $$") from exc
