"""Our policies as BrowserGym agents, and their AgentLab arguments.

    agent = PolicyAgent("video", overrides=("agent.index_dir=/data/index", "models.policy.base_url=http://gpu:8000/v1"))
    action, info = agent.get_action(agent.obs_preprocessor(obs))      # BrowserGym action code

Every step: BrowserGym's observation -> ours (observation.py) -> the policy's `act` -> our action -> BrowserGym's
(actions.py). The task the policy is reset with is found by the goal text among our task configs (`tasks_path`,
default the sandbox's), so the video policy draws on that task's videos from the index; for a goal of another
benchmark it is a task with that intent and the videos named in `videos` (webarena_ids.py gives VideoWA's).
A step the policy could not turn into an action, or a memory-only step (AgentOccam's note), is BrowserGym's `noop()`.
What a policy needs of the page it declares in its episode options (evaluation/running/policy.py: AgentOccam reads the
whole page and sends several actions per step); `PageView` renders BrowserGym's observation with those options, and is
what a policy that reaches for the environment gets (`attach_environment`: the scripted one looks at the whole page);
several actions become one BrowserGym multi-action step.
Each step's AgentInfo also carries what the policy asked its models in that step, for AgentLab's XRay and result
tables: `chat_messages` (the messages sent and the replies) and `stats` (tokens, calls, dollars; model_calls.py).
"""

from __future__ import annotations

import argparse
import hashlib
from dataclasses import dataclass, field, replace
from typing import Any

from browsergym.core.action.highlevel import HighLevelActionSet
from browsergym.experiments.agent import Agent, AgentInfo
from browsergym.experiments.loop import AbstractAgentArgs

from evaluation.browser_env.actions import ActionKind, ActionParseError, parse_actions
from evaluation.browser_env.episode_options import EpisodeOptions
from evaluation.browser_env.observation import ObservationOptions
from evaluation.running.policies import build_policy
from evaluation.running.policy import declared_episode_options
from evaluation.browser_env.videowa_actions import reply_parser
from tasks.loading import SANDBOX_CONFIGS_DIR, Task, load_tasks, task_from_config
from tasks.placeholders import PlaceholderValues

from ecosystem.browsergym.actions import ACTION_SUBSETS, to_browsergym
from ecosystem.browsergym.model_calls import StepModelCalls
from ecosystem.browsergym.observation import BridgedObservation, from_browsergym
from ecosystem.browsergym.sandbox_task import bridge_settings

BRIDGE_SOURCE = "browsergym"  # the source of a task made from a goal that is none of our configs


class PolicyAgent(Agent):
    def __init__(
        self,
        policy: str = "video",
        config: str | None = None,
        overrides: tuple[str, ...] = (),
        tasks_path: str | None = None,
        videos: tuple[str, ...] = (),
        solutions: str | None = None,
    ) -> None:
        self.settings = bridge_settings(config, overrides)
        self.policy = build_policy(policy, self.settings, argparse.Namespace(solutions=solutions))
        # What the policy needs of the page (AgentOccam: the whole page, several commands a step), as our runner
        # hands it to our environment; here it shapes the observation we build from BrowserGym's.
        self.episode = declared_episode_options(self.policy, EpisodeOptions.from_agent_settings(self.settings.agent))
        self.parse = reply_parser(self.episode.action_parser)
        known = load_tasks(tasks_path or SANDBOX_CONFIGS_DIR, settings=self.settings)
        self.tasks = {task.intent: task for task in known}
        self.videos = list(videos)
        self.action_set = HighLevelActionSet(subsets=ACTION_SUBSETS, multiaction=True, strict=False)
        self.goal: str | None = None
        self.view = PageView(self.episode.observation)
        if hasattr(self.policy, "attach_environment"):
            self.policy.attach_environment(self.view)
        self.model_calls = StepModelCalls(self.policy, self.settings)

    def obs_preprocessor(self, obs: dict) -> dict:
        """BrowserGym's observation with ours added under `videodemo`; the raw DOM is dropped (AgentLab keeps every
        step's observation on disk), the tree kept for `PageView`. `axtree_txt`, the key XRay's AXTree tab reads (and
        AgentLab's own agents fill), holds the page text our policy is given."""
        kept = {key: value for key, value in obs.items() if key != "dom_object"}
        kept["videodemo"] = from_browsergym(obs, self.view.options)
        kept["axtree_txt"] = kept["videodemo"].observation.text
        return kept

    def get_action(self, obs: dict) -> tuple[str, StepInfo]:
        self.view.show(obs, obs["videodemo"] if "videodemo" in obs else from_browsergym(obs, self.view.options))
        self.model_calls.start()  # a new episode's reset may ask a model too: that is this step's
        # A new episode: BrowserGym's reset leaves no last action (and a new goal, for agents reused across tasks).
        if not obs.get("last_action") or obs["goal"] != self.goal:
            self.goal = obs["goal"]
            self.policy.reset(self.task_for(obs["goal"], obs["url"]))
        step = self.policy.act(self.view.current.observation)
        bridged = self.view.current  # the policy may have looked at the whole page meanwhile
        chat_messages, stats, calls = self.model_calls.finish()
        info = StepInfo(think=step.reply, chat_messages=chat_messages, stats=stats,
                        extra_info={"policy": _plain(step.info.to_dict()), "model_calls": calls})  # fmt: skip
        if step.error or step.memory_only:
            info.extra_info["not_acted"] = step.error or "memory-only step"
            return "noop()", info
        try:
            if step.actions is not None:  # read by the policy already
                actions = list(step.actions)
            else:
                actions = parse_actions(step.reply) if self.episode.several_actions else [self.parse(step.reply)]
        except ActionParseError as exc:
            info.extra_info["not_acted"] = f"unparseable reply: {exc.reason}"
            return "noop()", info
        stop = next((n for n, action in enumerate(actions) if action.kind is ActionKind.STOP), None)
        actions = actions if stop is None else actions[: stop + 1]  # as our environment: a stop ends the step there
        return "\n".join(to_browsergym(action, bridged.observation, bridged.select_of) for action in actions), info

    def task_for(self, goal: str, url: str) -> Task:
        """Our task with this intent, or one made from the goal (no evaluator: BrowserGym's task scores it)."""
        if goal in self.tasks:
            return self.tasks[goal]
        task_id = int(hashlib.sha256(goal.encode()).hexdigest()[:8], 16)  # the same in every process
        config = {"task_id": task_id, "intent": goal, "start_url": url, "sites": [], "video": self.videos,
                  "eval": {"eval_types": ["string_match"], "reference_answers": {"must_include": []}}}  # fmt: skip
        return task_from_config(config, BRIDGE_SOURCE, 0, PlaceholderValues(self.settings))

    def close(self) -> None:
        self.policy.close()


class StepInfo(AgentInfo):
    """BrowserGym's AgentInfo that also takes item assignment: AgentLab's runner writes `info["err_msg"]` into it."""

    def __setitem__(self, key: str, value: Any) -> None:
        setattr(self, key, value)


class PageView:
    """What a policy may ask of the page beyond its observation (the part of evaluation/browser_env/environment.py's
    BrowserEnv the scripted policy uses), answered from the latest BrowserGym observation."""

    def __init__(self, options: ObservationOptions) -> None:
        self.options = options  # the policy's (its episode options' observation)
        self.record = None  # no episode record of ours: AgentOccam then learns no per-command outcomes
        self.raw: dict = {}
        self.current: BridgedObservation | None = None
        self._usual: BridgedObservation | None = None

    def show(self, raw: dict, bridged: BridgedObservation) -> None:
        self.raw, self.current, self._usual = raw, bridged, bridged

    def observe_full_page(self):
        self.current = from_browsergym(self.raw, replace(self.options, viewport_only=False, token_budget=None))
        return self.current.observation

    def observe(self):
        self.current = self._usual
        return self.current.observation


def _plain(value: Any) -> Any:
    """The policy's step info as JSON-like data (AgentLab pickles and shows it)."""
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


@dataclass
class PolicyAgentArgs(AbstractAgentArgs):
    """AgentLab's arguments for one of our policies (`agent_name` defaults to videodemo-<policy>)."""

    policy: str = "video"
    config: str | None = None
    overrides: tuple[str, ...] = field(default_factory=tuple)
    tasks_path: str | None = None
    videos: tuple[str, ...] = field(default_factory=tuple)
    solutions: str | None = None

    def __post_init__(self) -> None:
        if self.agent_name is None:
            self.agent_name = f"videodemo-{self.policy}"

    def set_benchmark(self, benchmark: Any, demo_mode: bool) -> None:
        """AgentLab calls this before a study; our action set does not change with the benchmark."""

    def set_reproducibility_mode(self) -> None:
        self.overrides = (*self.overrides, "models.policy.temperature=0")

    def make_agent(self) -> PolicyAgent:
        import ecosystem.browsergym.registry  # noqa: F401 - registers our tasks in the worker that plays them

        return PolicyAgent(self.policy, self.config, tuple(self.overrides), self.tasks_path, tuple(self.videos),
                           self.solutions)  # fmt: skip
