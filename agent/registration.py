"""The agent's policies and `videodemo run` options, registered with the harness.

Named in pyproject's `videodemo.policies` entry-point group; the harness's registry
(evaluation/policies) imports this module, so the harness never imports the agent.
"""

from __future__ import annotations

from agent.run_flags import add_agent_arguments, apply_agent_arguments
from evaluation.policies import register_policy, register_run_options

# The method: two-stage trajectory selection before every action, ablations by flag (docs/agent.md).
register_policy("video", "agent.video_policy:build_video_policy", "the method, the default")
# The same web policy without any video material.
register_policy("base", "agent.base_policy:build_base_policy", "the web policy without videos")
# Model-free baseline: replays the demonstration embedding selection picks, grounded by text similarity.
register_policy("replay", "agent.replay_policy:build_replay_policy", "the model-free baseline")
register_run_options(add_agent_arguments, apply_agent_arguments)
