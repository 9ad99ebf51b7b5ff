"""Which material from the videos the agent is shown: the method or one of its ablations.

- selection (the defaults): the trajectory two-stage selection picks before every action;
- whole_video (--no-trajectory-selection, agent.trajectory_selection=false): the whole action
  sequence (every action with its keyframe) of the video the model names once at the start;
- transcript (--transcript-only, agent.transcript_only=true): the videos' narration, no trajectories;
- none (--no-videos, agent.use_videos=false): nothing, the base policy.

`agent.visual=false` (--no-visual) keeps the mode and drops the video images from the policy's
context; stage 2 of selection still sees each candidate's starting screen, as in the paper.
`agent.videos_per_task` (--videos-per-task N) limits the videos a task may draw on.
"""

from __future__ import annotations

from enum import Enum

from foundation.errors import UserError
from settings.schema import AgentSettings


class Mode(str, Enum):
    SELECTION = "selection"
    WHOLE_VIDEO = "whole_video"
    TRANSCRIPT = "transcript"
    NONE = "none"


def demonstration_mode(agent: AgentSettings) -> Mode:
    """The mode the settings ask for; UserError for combinations that contradict each other."""
    if not agent.use_videos:
        moot = _set_ablations(agent, ("trajectory_selection", "visual", "transcript_only"))
        if moot:
            raise UserError(f"--no-videos shows no video material, so {' and '.join(moot)} mean nothing; drop them")
        return Mode.NONE
    if agent.transcript_only:
        moot = _set_ablations(agent, ("trajectory_selection", "visual"))
        if moot:
            raise UserError(f"--transcript-only shows no trajectories, so {' and '.join(moot)} mean nothing; drop them")
        return Mode.TRANSCRIPT
    return Mode.SELECTION if agent.trajectory_selection else Mode.WHOLE_VIDEO


_FLAGS = {
    "trajectory_selection": ("--no-trajectory-selection", False),
    "visual": ("--no-visual", False),
    "transcript_only": ("--transcript-only", True),
}


def _set_ablations(agent: AgentSettings, names: tuple[str, ...]) -> list[str]:
    """The flags among `names` that are switched from their default."""
    return [_FLAGS[name][0] for name in names if getattr(agent, name) == _FLAGS[name][1]]
