"""The agent's policies and `videodemo run` options, registered with the harness.

Named in pyproject's `videodemo.policies` entry-point group; the harness's registry
(evaluation/running/policies) imports this module, so the harness never imports the agent.
Each policy names the settings it reads (agent/policy_settings.py): they make its runs' identity.
"""

from __future__ import annotations

from agent import policy_settings as reads
from agent.run_flags import add_agent_arguments, apply_agent_arguments
from evaluation.running.policies import register_policy, register_run_options

# The method: two-stage trajectory selection before every action, ablations by flag (docs/agent.md).
register_policy("video", "agent.method.policy:build_video_policy", "the method, the default", reads=reads.VIDEO)
# The base agent (the setting agent.base_agent: AgentOccam by default) without any video material.
register_policy(
    "base", "agent.base.agent:build_base_policy", "the base agent (agent.base_agent) without videos", reads=reads.BASE
)
# AgentOccam (refined whole-page tree, small action space, plan tree): the paper's base agent.
register_policy(
    "agentoccam",
    "agent.base.agentoccam.agent:build_agentoccam_policy",
    "AgentOccam, the paper's base agent",
    reads=reads.AGENTOCCAM,
)
# The generic ReAct policy: viewport tree, the full action space, one reasoned action per step.
register_policy(
    "react", "agent.base.react:build_react_policy", "a generic ReAct policy on the viewport tree", reads=reads.REACT
)
# VideoWA's video agents on the same base agent: the video's frames (1 fps, at most 60) and transcript
# at every step, or one task-conditioned summary of them (agent/videowa_baselines/policy.py).
register_policy(
    "frames",
    "agent.videowa_baselines.policy:build_frames_policy",
    "VideoWA baseline: video frames + transcript in context",
    reads=reads.FRAMES,
)
register_policy(
    "summary",
    "agent.videowa_baselines.policy:build_summary_policy",
    "VideoWA baseline: a summary of the video in context",
    reads=reads.SUMMARY,
)
# Model-free baseline: replays the demonstration embedding selection picks, grounded by text similarity.
register_policy("replay", "agent.replay.policy:build_replay_policy", "the model-free baseline", reads=reads.REPLAY)
# Diagnostics: plays the reference solutions and scores, at every step, what the replay's selection would choose
# (agent/replay/probe.py; benchmarks/selection.py, `videodemo demo --selection`).
register_policy(
    "selection-probe", "agent.replay.probe:build_selection_probe",
    "plays reference solutions, scoring replay selection at every step (diagnostics)", reads=reads.REPLAY,
)  # fmt: skip
register_run_options(add_agent_arguments, apply_agent_arguments)
