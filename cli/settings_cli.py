"""`videodemo settings show`: print the effective settings."""

from __future__ import annotations

import argparse

import yaml


def register(subparsers, common: argparse.ArgumentParser) -> None:
    parser = subparsers.add_parser("settings", parents=[common], help="show the effective settings")
    sub = parser.add_subparsers(dest="settings_command", metavar="ACTION", required=True)
    show = sub.add_parser("show", parents=[common], help="print every setting after --harness, --config and --set")
    show.set_defaults(handler=_show)


def _show(args: argparse.Namespace) -> int:
    from settings import load_settings_from_args
    from settings import settings_as_dict
    from settings.load import harness_names

    # A YAML comment, so the output still loads as a --config file.
    harness = getattr(args, "harness", None) or "method"
    print(f"# harness: {harness} (presets: {', '.join(harness_names())}; choose with --harness NAME)")
    settings = load_settings_from_args(args)
    if settings.agent.no_video_max_tokens > 0:  # the one decoding value that depends on the policy
        print(f"# policies without videos (--policy base|react|agentoccam, --no-videos) send max_tokens "
              f"{settings.agent.no_video_max_tokens} (agent.no_video_max_tokens), not models.policy.max_tokens")
    print(yaml.safe_dump(settings_as_dict(settings), sort_keys=False), end="")
    return 0
