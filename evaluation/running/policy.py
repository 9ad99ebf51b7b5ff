"""What the runner needs from a policy: observation in, actions (or action text) out.

A policy is any object with this shape; the runner never looks inside it. It
gets the task once per episode, then one `act` per step, and for
factual-retention tasks one `answer_intermediate` after the episode. Whatever a
policy wants recorded or shown in the report for a step goes into `PolicyStep.info`,
a `StepInfo` (foundation/records/step_info.py): typed fields for what several policies
record (the reasoning, why a reply had no action, the demonstration shown and how it was
chosen, foundation/records/demonstration.py), its own keys in `extra`. A policy may hand
a plain dict instead: it is read into a `StepInfo`.

A policy that needs more of the page than the observation gives (the scripted
policy looks elements up in the whole page) may define `attach_environment(env)`;
the runner calls it with the episode's BrowserEnv before `reset`, to read, never to change.
What a policy needs the environment to do differently (observe the whole page, run several
commands per step, keep the observation after a failed action) it declares in
`episode_options(defaults: EpisodeOptions) -> EpisodeOptions`, which the runner calls with the
options `settings.agent` gives and hands to `BrowserEnv.reset`. A policy may also define
`episode_info() -> dict`, whose result the task record keeps as `policy_info`. A policy that never looks
at the page's picture says so with `reads_screenshots = False`: with `run.step_screenshots` off, its
episodes then take none.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from evaluation.browser_env.actions import Action
from evaluation.browser_env.episode_options import EpisodeOptions
from evaluation.browser_env.observation import Observation
from foundation.records.step_info import StepInfo


@dataclass
class PolicyStep:
    reply: str  # the full text the policy produced; the environment parses its first fenced block
    info: StepInfo = field(default_factory=StepInfo)  # recorded per step (episode.json's `extra`), shown in the report
    # Set when the policy could not produce the action it meant (e.g. a scripted target not on the
    # page): the step is recorded as a failed no-op with this reason instead of being carried out.
    error: str | None = None
    # Set when the step changed only the policy's memory (AgentOccam's `note` or `branch`, each one
    # of its steps): recorded as a successful step with no page action (`BrowserEnv.record_memory_step`).
    memory_only: bool = False
    # The actions the policy already read from its reply (AgentOccam's commands): carried out as they are,
    # the reply kept in the step record; None: the environment reads them from `reply`.
    actions: list[Action] | None = None

    def __post_init__(self) -> None:
        if isinstance(self.info, dict):  # a policy that records a plain dict, as all did before StepInfo
            self.info = StepInfo.from_dict(self.info)


def declared_episode_options(policy: Any, defaults: EpisodeOptions, step_screenshots: bool = True) -> EpisodeOptions:
    """The options a policy asks for its episodes (`defaults` when it declares none); without screenshots when
    the run keeps none (`step_screenshots` off) and the policy does not read them."""
    declare = getattr(policy, "episode_options", None)
    options = declare(defaults) if declare is not None else defaults
    if not step_screenshots and not getattr(policy, "reads_screenshots", True):
        options = replace(options, observation=replace(options.observation, screenshot=False))
    return options


class Policy(Protocol):
    name: str

    def reset(self, task: Any) -> None:
        """Start an episode for `task` (a `tasks.loading.Task`)."""

    def act(self, observation: Observation) -> PolicyStep:
        """The next action for the current page."""

    def answer_intermediate(self, question: str) -> str | None:
        """Answer a factual-retention task's intermediate question once, after the episode, from
        the same context; None when the policy cannot answer questions."""

    def usage(self) -> dict[str, Any]:
        """Model usage so far (`UsageLedger.to_dict()`); an empty dict for policies without models."""

    def close(self) -> None:
        """Release what the policy holds (model clients, indexes)."""
