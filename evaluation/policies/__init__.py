"""Policies the runner can play, by name: `videodemo run --policy NAME`.

Each entry is a "module:callable" string, imported only when that policy is chosen,
so a heavy policy costs nothing to runs of the others. The callable is a factory
`factory(settings, args) -> Policy` (args: the command line's namespace, for options
such as `--solutions`). Packages add their policies to `POLICIES` here (the agent
package: base, video, replay); `--policy package.module:callable` runs one that is
not listed.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from cli.errors import UserError
from evaluation.policy import Policy
from settings import Settings

POLICIES: dict[str, str] = {
    # Plays a fixed list of actions per task from a solutions file: tests, and checking task configs.
    "scripted": "evaluation.policies.scripted:build_scripted_policy",
    # Answers `stop []` at once: the do-nothing baseline, to see which tasks pass without any work.
    "stop": "evaluation.policies.stop:build_stop_policy",
    # The method: two-stage trajectory selection before every action, ablations by flag (docs/agent.md).
    "video": "agent.video_policy:build_video_policy",
    # The base agent (agent.base_agent: AgentOccam by default) without any video material.
    "base": "agent.base_agent:build_base_policy",
    # AgentOccam (refined whole-page tree, small action space, plan tree): the paper's base agent.
    "agentoccam": "agent.agentoccam.agent:build_agentoccam_policy",
    # The generic ReAct policy: viewport tree, the full action space, one reasoned action per step.
    "react": "agent.base_policy:build_react_policy",
    # Model-free baseline: replays the demonstration embedding selection picks, grounded by text similarity.
    "replay": "agent.replay_policy:build_replay_policy",
}


def policy_entry(name: str) -> str:
    """The "module:callable" of a policy name (or the name itself when it already is one)."""
    if name in POLICIES:
        return POLICIES[name]
    if ":" in name:
        return name
    raise UserError(f"unknown policy {name!r}; choose one of: {', '.join(POLICIES)} (or give module:callable)")


def load_factory(name: str) -> Any:
    """The factory of a policy; UserError when the name or its entry does not lead to one."""
    entry = policy_entry(name)
    module_name, _, attribute = entry.partition(":")
    try:
        return getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise UserError(f"policy {name!r} points at {entry}, which cannot be loaded ({exc})") from None


def build_policy(name: str, settings: Settings, args: argparse.Namespace | None = None) -> Policy:
    return load_factory(name)(settings, args if args is not None else argparse.Namespace())


__all__ = ["POLICIES", "build_policy", "load_factory", "policy_entry"]
