"""The web agent under the method: which one (`agent.base_agent`), and the hook other policies build on.

A base agent plays one step at a time and can be given, at each step, material to
show before the task: the method's demonstration, or a baseline's video frames,
summary or transcript. Any object with `prompt_parts(visual: bool, image_max_side:
int) -> list[content part]` (OpenAI content parts; `agent.videos.demonstration.Demonstration`
is one) works; the agent puts its parts first in the user message. Policies built on
a base agent (`agent.method.policy.VideoPolicy`, the VideoWA baselines) use only:

    base = make_base_agent(settings, client)     # "agentoccam" (default) or "react"
    base.attach_environment(env); base.reset(task)
    step = base.step(observation, material)      # PolicyStep; material may be None
    base.history_text()                          # the agent's memory as text (selection reads it)
    base.page_text(observation)                  # the page as this agent shows it to its model
    base.ask_intermediate(question, shown)       # factual question, with the material shown
    base.close()

`--policy base` is the base agent alone (no videos); `--policy agentoccam` and
`--policy react` name one directly. The protocols themselves live in agent/base/interface.py, below the agents.
"""

from __future__ import annotations

import argparse

from agent.base.interface import BaseAgent, without_videos
from foundation.errors import UserError
from model_access.client import ModelClient
from settings import Settings

BASE_AGENTS = ("agentoccam", "react")


def make_base_agent(settings: Settings, client: ModelClient | None = None) -> BaseAgent:
    name = settings.agent.base_agent
    if name == "agentoccam":
        from agent.base.agentoccam.agent import AgentOccamAgent

        return AgentOccamAgent(settings, client)
    if name == "react":
        from agent.base.react import BasePolicy

        return BasePolicy(settings, client)
    raise UserError(f"agent.base_agent is {name!r}; set it to one of: {', '.join(BASE_AGENTS)}")


def build_base_policy(settings: Settings, args: argparse.Namespace) -> BaseAgent:
    """`--policy base`: the configured base agent without any video material."""
    agent = make_base_agent(without_videos(settings))
    agent.name = "base"
    return agent
