"""The agent's options of `videodemo run`: the ablation flags and the index, each the same as a `--set agent...`.

    add_agent_arguments(parser)            # when the command is defined
    apply_agent_arguments(args, settings)  # after --config / --set are applied
"""

from __future__ import annotations

import argparse
from pathlib import Path

from agent.modes import demonstration_mode
from settings import Settings


def add_agent_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("agent (the video policy and its ablations, see docs/agent.md)")
    group.add_argument(
        "--no-videos", action="store_true", help="no demonstrations at all: the base policy (agent.use_videos=false)"
    )
    group.add_argument(
        "--no-trajectory-selection",
        action="store_true",
        help="show the longest trajectory of the most relevant video, chosen once (agent.trajectory_selection=false)",
    )
    group.add_argument(
        "--no-visual", action="store_true", help="demonstrations without video images (agent.visual=false)"
    )
    group.add_argument(
        "--transcript-only",
        action="store_true",
        help="the videos' narration instead of trajectories (agent.transcript_only=true)",
    )
    group.add_argument(
        "--index", type=Path, metavar="DIR", help="trajectory index (agent.index_dir; default <cache>/index)"
    )


def apply_agent_arguments(args: argparse.Namespace, settings: Settings) -> None:
    """Apply the flags on top of the settings, then refuse contradictory combinations (UserError)."""
    agent = settings.agent
    if getattr(args, "no_videos", False):
        agent.use_videos = False
    if getattr(args, "no_trajectory_selection", False):
        agent.trajectory_selection = False
    if getattr(args, "no_visual", False):
        agent.visual = False
    if getattr(args, "transcript_only", False):
        agent.transcript_only = True
    if getattr(args, "index", None):
        agent.index_dir = str(Path(args.index).expanduser())
    demonstration_mode(agent)
