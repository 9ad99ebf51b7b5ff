"""Typed settings: defaults in `settings.schema`, loading and overrides in `settings.load`."""

from settings.load import SettingsError, apply_override, load_settings, load_settings_from_args, settings_as_dict
from settings.schema import PROJECT_ROOT, Settings

__all__ = [
    "PROJECT_ROOT",
    "Settings",
    "SettingsError",
    "apply_override",
    "load_settings",
    "load_settings_from_args",
    "settings_as_dict",
]
