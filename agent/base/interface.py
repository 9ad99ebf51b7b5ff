"""What a base agent is (BaseAgent), what it can be shown before the task (PromptMaterial), and the settings of a
policy that shows no video. The agents (agent/base/agentoccam, agent/base/react.py) build on this;
agent/base/agent.py picks one."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol

from evaluation.browser_env.observation import Observation
from foundation.errors import UserError
from evaluation.running.policy import PolicyStep
from settings import Settings


class PromptMaterial(Protocol):
    def prompt_parts(self, visual: bool, image_max_side: int) -> list[dict[str, Any]]: ...


class BaseAgent(Protocol):
    name: str
    env: Any

    def attach_environment(self, env: Any) -> None: ...
    # Optional: `episode_options(defaults: EpisodeOptions) -> EpisodeOptions` (evaluation/running/policy.py).
    def reset(self, task: Any) -> None: ...
    def step(self, observation: Observation, material: PromptMaterial | None) -> PolicyStep: ...
    def history_text(self) -> str: ...
    def page_text(self, observation: Observation) -> str: ...
    def ask_intermediate(self, question: str, shown: list[Any]) -> str | None: ...
    def close(self) -> None: ...


def without_videos(settings: Settings) -> Settings:
    """The settings of a policy that shows no video: `agent.no_video_max_tokens`, when above 0, is the policy
    role's max_tokens (VideoWA's no-video baseline decodes 384 tokens where its video runs pass 4096)."""
    limit = settings.agent.no_video_max_tokens
    if limit < 0:
        raise UserError(f"agent.no_video_max_tokens is {limit}; use 0 (models.policy.max_tokens) or a limit above 0")
    if limit == 0:
        return settings
    models = settings.models
    return replace(settings, models=replace(models, policy=replace(models.policy, max_tokens=limit)))
