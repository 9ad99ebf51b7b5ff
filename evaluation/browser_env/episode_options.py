"""What a policy needs of the environment for one episode, in one typed object the run hands to
`BrowserEnv.reset(task, options)`: how the page is shown, how a reply becomes actions, what a failed
action does to the observation, and the rules that end an episode early.

The run builds it from the agent's settings (`EpisodeOptions.from_agent_settings`), then lets the
policy adjust it (`Policy.episode_options(defaults)`: AgentOccam reads the whole page and runs several
commands per step); the environment reads nothing else of the agent's, and no policy changes the
environment's fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from evaluation.browser_env.observation import ObservationOptions

EARLY_STOP_RULES = ("none", "consecutive", "videowa")


@dataclass(frozen=True)
class EpisodeOptions:
    """Every field comes from the setting of the same name under `agent.` (defaults in settings/schema.py)."""

    observation: ObservationOptions
    # How a reply's text becomes an action (evaluation.browser_env.videowa_actions.reply_parser: "default" or
    # "videowa").
    action_parser: str
    # After an unparseable reply, the pause and a fresh observation, as the reference's no-op action.
    observe_after_unparseable: bool
    # Episode ends: at max_steps, and by these rules ("none", "consecutive" or "videowa"; environment.py says how).
    early_stop: str
    max_steps: int
    max_parse_failures: int
    max_repeated_actions: int
    # Set by a policy, not by a setting of agent. (AgentOccam's, from agentoccam.*):
    # a step may hold several actions, one starting each line, carried out in order (AgentOccam's ACTION);
    several_actions: bool = False
    # `type` replaces a field's text (AgentOccam's type) instead of adding to it (WebArena's, VideoWA's);
    type_clears_field: bool = False
    # `type` on a menu presses its keys as on a field (AgentOccam's) instead of choosing the option it names.
    type_keys_in_menus: bool = False
    # after an action that fails, observe the page again; off: keep the observation from before it (AgentOccam).
    observe_after_failed_action: bool = True

    @classmethod
    def from_agent_settings(cls, agent: Any) -> EpisodeOptions:
        """The options `settings.agent` asks for (the one place that reads them for the environment)."""
        return cls(
            observation=ObservationOptions.from_settings(agent),
            action_parser=agent.action_parser,
            observe_after_unparseable=agent.observe_after_unparseable,
            early_stop=agent.early_stop,
            max_steps=agent.max_steps,
            max_parse_failures=agent.max_parse_failures,
            max_repeated_actions=agent.max_repeated_actions,
        )
