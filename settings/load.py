"""Build a `Settings` from defaults, an optional YAML file and dotted overrides."""

from __future__ import annotations

import dataclasses
import types
import typing
from pathlib import Path
from typing import Any

import yaml

from foundation.errors import UserError
from settings.schema import Settings


class SettingsError(UserError):
    """A config file or override that does not fit the settings schema."""


PRESETS_DIR = Path(__file__).resolve().parent / "presets"


def harness_names() -> list[str]:
    """The shipped harness presets (`settings/presets/<name>.yaml`)."""
    return sorted(path.stem for path in PRESETS_DIR.glob("*.yaml"))


def preset_path(name: str) -> Path:
    path = PRESETS_DIR / f"{name}.yaml"
    if not path.is_file():
        raise SettingsError(f"no harness preset {name!r}; known: {', '.join(harness_names())}")
    return path


def load_settings(
    config_file: str | Path | None = None, overrides: list[str] | None = None, harness: str | None = None
) -> Settings:
    """Defaults, then the harness preset, then the config file, then the overrides (later ones win)."""
    settings = Settings()
    if harness:
        _merge_file(settings, preset_path(harness))
    if config_file is not None:
        path = Path(config_file)
        if not path.is_file():
            raise SettingsError(f"config file {path} not found; pass an existing YAML file to --config")
        _merge_file(settings, path)
    for item in overrides or []:
        apply_override(settings, item)
    return settings


def load_settings_from_args(args: Any) -> Settings:
    """The settings a command runs with: its `--harness NAME`, `--config FILE` and `--set KEY=VALUE` applied."""
    return load_settings(
        getattr(args, "config", None), getattr(args, "overrides", None), harness=getattr(args, "harness", None)
    )


def _merge_file(settings: Settings, path: Path) -> None:
    try:
        data = yaml.safe_load(path.read_text()) or {}
    except yaml.YAMLError as exc:
        raise SettingsError(f"config file {path} is not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise SettingsError(f"config file {path} must hold a mapping of sections")
    _merge(settings, data, prefix="")


def apply_override(settings: Settings, item: str) -> None:
    """Apply one `section.key=value` override; the value is parsed as YAML (numbers, bools, lists)."""
    if "=" not in item:
        raise SettingsError(f"override {item!r} must look like section.key=value")
    dotted, raw = item.split("=", 1)
    parts = dotted.strip().split(".")
    target: Any = settings
    for part in parts[:-1]:
        if not dataclasses.is_dataclass(target) or not hasattr(target, part):
            raise SettingsError(f"unknown setting {dotted!r}; see `videodemo settings show`")
        target = getattr(target, part)
    _set_field(target, parts[-1], yaml.safe_load(raw) if raw != "" else "", dotted)


def _merge(target: Any, data: dict, prefix: str) -> None:
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        current = getattr(target, key, None) if dataclasses.is_dataclass(target) else None
        if dataclasses.is_dataclass(current) and isinstance(value, dict):
            _merge(current, value, prefix=dotted + ".")
        else:
            _set_field(target, key, value, dotted)


def _set_field(target: Any, key: str, value: Any, dotted: str) -> None:
    fields = {f.name: f for f in dataclasses.fields(target)} if dataclasses.is_dataclass(target) else {}
    if key not in fields:
        raise SettingsError(f"unknown setting {dotted!r}; see `videodemo settings show`")
    hint = typing.get_type_hints(type(target))[key]
    setattr(target, key, _coerce(value, hint, dotted))


def _coerce(value: Any, hint: Any, dotted: str) -> Any:
    origin = typing.get_origin(hint)
    if hint is Path:
        return Path(value)
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise SettingsError(f"setting {dotted!r} wants true or false, got {value!r}")
    if hint in (int, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise SettingsError(f"setting {dotted!r} wants a number, got {value!r}")
        if hint is int and float(value) != int(value):
            raise SettingsError(f"setting {dotted!r} wants a whole number, got {value!r}")
        return hint(value)
    if hint is str:
        return "" if value is None else str(value)
    if origin in (list, tuple):
        if not isinstance(value, list):
            raise SettingsError(f"setting {dotted!r} wants a list, got {value!r}")
        return list(value)
    if origin in (typing.Union, types.UnionType):
        return value
    if dataclasses.is_dataclass(hint):
        raise SettingsError(f"setting {dotted!r} is a section; set its keys, e.g. {dotted}.KEY=VALUE")
    return value


def settings_as_dict(settings: Settings) -> dict:
    """Plain dict (paths as strings) for printing and for recording with run results."""

    def convert(obj: Any) -> Any:
        if dataclasses.is_dataclass(obj):
            return {f.name: convert(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
        if isinstance(obj, Path):
            return str(obj)
        if isinstance(obj, list):
            return [convert(x) for x in obj]
        return obj

    return convert(settings)
