"""The registry of policies the runner can play: `videodemo run --policy NAME`.

The harness knows no policy package by name. A package registers its policies, and
the options it adds to `videodemo run`, from a module named in the
`videodemo.policies` entry-point group of its pyproject (the agent package:
`agent/registration.py`); the registry imports those modules the first time it is
asked for a policy or for the run options. Each policy is a "module:callable"
factory `factory(settings, args) -> Policy` (args: the command line's namespace),
imported only when that policy is chosen, so a heavy policy costs nothing to runs
of the others. `--policy package.module:callable` runs one that is not registered.

Each entry also names the settings its policy reads (`reads`, dotted names): they, with
the harness's own, make the run's identity (evaluation/running/run_identity.py), so a
run that changes one is another run. A factory run as module:callable declares them
as its `reads_settings` attribute; a policy that declares none keeps the identity
runs had before declarations.

    register_policy("video", "agent.method.policy:build_video_policy", "the method", reads=VIDEO_READS)
    register_run_options(add_agent_arguments, apply_agent_arguments)
"""

from __future__ import annotations

import argparse
import importlib
import logging
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Callable

from evaluation.running.policy import Policy
from foundation.errors import UserError
from settings import Settings

PLUGIN_GROUP = "videodemo.policies"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PolicyEntry:
    name: str
    factory: str  # "module:callable"
    summary: str  # one line for `videodemo run --help`
    reads: tuple[str, ...] | None = None  # the settings the policy reads (dotted); None: not declared


@dataclass(frozen=True)
class RunOptions:
    """Flags a policy package adds to `videodemo run`: `add` defines them, `apply` writes them into the
    settings after --config / --set (and refuses contradictory combinations with a UserError)."""

    add: Callable[[argparse.ArgumentParser], None]
    apply: Callable[[argparse.Namespace, Settings], None]


_POLICIES: dict[str, PolicyEntry] = {}
_RUN_OPTIONS: list[RunOptions] = []
_plugins_loaded = False


def register_policy(name: str, factory: str, summary: str, reads: tuple[str, ...] | None = None) -> None:
    _POLICIES[name] = PolicyEntry(name, factory, summary, None if reads is None else tuple(reads))


def register_run_options(add: Callable, apply: Callable) -> None:
    if not any(options.add is add for options in _RUN_OPTIONS):
        _RUN_OPTIONS.append(RunOptions(add, apply))


# The harness's own policies; neither reads a setting beyond the harness's own.
# Plays a fixed list of actions per task from a solutions file: tests, and checking task configs.
register_policy(
    "scripted", "evaluation.running.policies.scripted:build_scripted_policy",
    "plays reference solutions from --solutions", reads=(),
)
# Answers `stop []` at once: the do-nothing baseline, to see which tasks pass without any work.
register_policy(
    "stop", "evaluation.running.policies.stop:build_stop_policy", "stops at once, the do-nothing baseline", reads=()
)


def load_plugins() -> None:
    """Import every module registered in the `videodemo.policies` entry-point group, once."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    found = entry_points(group=PLUGIN_GROUP)
    if not found:
        log.warning(
            "no policy package is registered (entry-point group %s): is the project installed? "
            "run `make test` once or `pip install -e .`",
            PLUGIN_GROUP,
        )
    for entry in found:
        try:
            entry.load()
        except ImportError as exc:
            raise UserError(f"the policy package {entry.value} (entry point {entry.name}) cannot be imported: {exc}")


def policies() -> dict[str, PolicyEntry]:
    """Every registered policy by name, in registration order."""
    load_plugins()
    return dict(_POLICIES)


def run_options() -> list[RunOptions]:
    load_plugins()
    return list(_RUN_OPTIONS)


def policy_entry(name: str) -> str:
    """The "module:callable" of a policy name (or the name itself when it already is one)."""
    known = policies()
    if name in known:
        return known[name].factory
    if ":" in name:
        return name
    raise UserError(f"unknown policy {name!r}; choose one of: {', '.join(known)} (or give module:callable)")


def load_factory(name: str) -> Any:
    """The factory of a policy; UserError when the name or its entry does not lead to one."""
    entry = policy_entry(name)
    module_name, _, attribute = entry.partition(":")
    try:
        return getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise UserError(f"policy {name!r} points at {entry}, which cannot be loaded ({exc})") from None


def policy_reads(name: str) -> tuple[str, ...] | None:
    """The settings a policy declares it reads: its registration's, else its factory's `reads_settings`;
    None when it declares none (or cannot be loaded: the run reports that on its own)."""
    known = policies()
    if name in known:
        return known[name].reads
    try:
        declared = getattr(load_factory(name), "reads_settings", None)
    except UserError:
        return None
    return None if declared is None else tuple(declared)


def build_policy(name: str, settings: Settings, args: argparse.Namespace | None = None) -> Policy:
    return load_factory(name)(settings, args if args is not None else argparse.Namespace())


__all__ = [
    "PolicyEntry",
    "RunOptions",
    "build_policy",
    "load_factory",
    "policies",
    "policy_entry",
    "policy_reads",
    "register_policy",
    "register_run_options",
    "run_options",
]
