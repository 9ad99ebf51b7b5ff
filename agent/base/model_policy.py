"""What every base agent that asks the policy model shares: owning the client and the Policy protocol's plumbing.

A base agent (the ReAct policy, AgentOccam) subclasses `ModelPolicy` and writes
`step(observation, demonstration)` and `ask_intermediate(question, shown)`; the video
policies wrap a base agent and call those two hooks with what they selected.
"""

from __future__ import annotations

from typing import Any

from agent.base.interface import PromptMaterial
from evaluation.browser_env.observation import Observation
from evaluation.running.policy import PolicyStep
from model_access.client import ModelClient
from settings import Settings

POLICY_ROLE = "policy"


class ModelPolicy:
    name = ""

    def __init__(self, settings: Settings, client: ModelClient | None = None) -> None:
        self.settings = settings
        self._own_client = client is None  # a client handed in belongs to the caller, who closes it
        self.client = client if client is not None else ModelClient(settings)
        self.client.role_settings(POLICY_ROLE)  # no policy model configured: say so before any task runs
        self.env: Any = None
        self.task: Any = None
        self.last_observation: Observation | None = None

    # ---- the hooks a base agent writes ----

    def step(self, observation: Observation, demonstration: PromptMaterial | None) -> PolicyStep:
        raise NotImplementedError

    def ask_intermediate(self, question: str, shown: list[PromptMaterial]) -> str | None:
        raise NotImplementedError

    # ---- the Policy protocol ----

    def attach_environment(self, env: Any) -> None:
        self.env = env  # read for how each action went and for the final page

    def act(self, observation: Observation) -> PolicyStep:
        return self.step(observation, None)

    def answer_intermediate(self, question: str) -> str | None:
        return self.ask_intermediate(question, [])

    def usage(self) -> dict[str, Any]:
        return self.client.ledger.to_dict()

    def close(self) -> None:
        self.env = None
        if self._own_client:
            self.client.close()

    def _final_observation(self) -> Observation | None:
        """The page the episode ended on: the environment's, else the last one this agent saw."""
        observation = getattr(self.env, "observation", None)
        return observation if observation is not None else self.last_observation
