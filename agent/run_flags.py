"""The agent's options of `videodemo run`: the ablation flags and the index, each the same as a `--set agent...`.

    add_agent_arguments(parser)            # when the command is defined
    apply_agent_arguments(args, settings)  # after --config / --set are applied
"""

from __future__ import annotations

import argparse
from pathlib import Path

from agent.oracles.switches import check_mode, check_policy
from agent.videos.modes import demonstration_mode
from foundation.arguments import add_switch
from foundation.errors import UserError
from settings import Settings


def add_agent_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("agent (the video policy and its ablations, see docs/agent.md)")
    # Each --no-X has its --X, which undoes a --config or preset that turned X off.
    add_switch(group, "videos", on="demonstrations from the task's videos (agent.use_videos=true)",
               off="no demonstrations at all: the base policy (agent.use_videos=false)")  # fmt: skip
    add_switch(group, "trajectory-selection",
               on="show the one trajectory chosen per step by two-stage selection (agent.trajectory_selection=true)",
               off="show the whole action sequence of one video, chosen once by the model at the start "
               "(agent.trajectory_selection=false)")  # fmt: skip
    add_switch(group, "visual", on="video images in the policy's context (agent.visual=true)",
               off="no video images in the policy's context; selection stage 2 still sees them "
               "(agent.visual=false)")  # fmt: skip
    group.add_argument(
        "--videos-per-task",
        type=int,
        metavar="N",
        help="use only the first N processed videos of each task, 0 = all (agent.videos_per_task)",
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
    for flag, setting in (("videos", "use_videos"), ("trajectory_selection", "trajectory_selection"),
                          ("visual", "visual")):  # fmt: skip
        if getattr(args, flag, None) is not None:  # None: neither --X nor --no-X given, the setting stands
            setattr(agent, setting, getattr(args, flag))
    if getattr(args, "transcript_only", False):
        agent.transcript_only = True
    if getattr(args, "videos_per_task", None) is not None:
        if args.videos_per_task < 0:
            raise UserError(f"--videos-per-task is {args.videos_per_task}: pass 0 (all) or more")
        agent.videos_per_task = args.videos_per_task
    if getattr(args, "index", None):
        agent.index_dir = str(Path(args.index).expanduser())
    mode = demonstration_mode(agent)
    if getattr(args, "policy", None) in ("replay", "video"):
        check_mode(settings, mode, args.policy)
    elif getattr(args, "policy", None):
        check_policy(args.policy, settings)
    if settings.agentoccam.prompt_source == "original" and getattr(args, "policy", None) is not None:
        plays = args.policy == "agentoccam" or (args.policy in _ON_BASE_AGENT and agent.base_agent == "agentoccam")
        if plays:  # AgentOccam's own prompt: a checkout or file missing is one line before any run folder is made
            from agent.base.agentoccam.agent import original_prompt

            original_prompt(settings.agentoccam)


# The policies that play the base agent (`agent.base_agent`), AgentOccam by default.
_ON_BASE_AGENT = ("video", "base", "frames", "summary")
