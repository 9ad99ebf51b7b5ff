"""The method's demonstration step alone, for any BrowserGym / AgentLab agent to call before each action.

    step = DemonstrationStep(overrides=("agent.index_dir=/data/index", "models.policy.base_url=http://gpu:8000/v1"))
    step.reset(goal, videos=["shop_search_sort"])           # once per episode; videos=None: every indexed video
    chosen = step.before_action(obs, history="click('12') ...")  # BrowserGym's observation dict, raw
    if chosen:
        prompt_parts += chosen.parts        # OpenAI-style content parts: the steps as text, the keyframes as images

Each call runs what `--policy video` runs before its action (agent/method/selection.py): the continuation check on
the previous step's trajectory, else stage 1 (objectives) and stage 2 (steps and first screen) over the videos'
trajectories in our index, with the same model role (`selection.role`), prompts and settings. The page the model
reads is ours built from BrowserGym's (observation.py). `chosen.record` says how it was decided.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from agent.method.selection import TwoStageSelector
from agent.videos.candidates import method_candidates
from agent.videos.demonstration import Demonstration
from agent.videos.task_videos import index_folder, open_index, task_videos
from evaluation.browser_env.observation import ObservationOptions
from foundation.errors import UserError
from model_access.client import ModelClient
from model_access.embeddings import Embedder

from ecosystem.browsergym.observation import from_browsergym
from ecosystem.browsergym.sandbox_task import bridge_settings


@dataclass
class ChosenDemonstration:
    objective: str
    steps: list[str]  # the trajectory's actions, one line each
    parts: list[dict[str, Any]]  # content parts for a prompt: text, then each step's keyframe as an image
    record: dict[str, Any] = field(default_factory=dict)  # the selection's decisions and reasons

    @property
    def text(self) -> str:
        return "\n".join(part["text"] for part in self.parts if part.get("type") == "text")

    @property
    def images(self) -> list[str]:
        """The keyframes as data URLs, in step order."""
        return [part["image_url"]["url"] for part in self.parts if part.get("type") == "image_url"]


class DemonstrationStep:
    def __init__(self, overrides: tuple[str, ...] = (), config: str | None = None) -> None:
        self.settings = bridge_settings(config, overrides)
        self.client = ModelClient(self.settings)
        self.client.role_settings(self.settings.selection.role)  # an unconfigured role fails here, with the fix
        embedder = Embedder(self.settings, self.client.ledger)
        self.index = open_index(self.settings, embedder)
        if self.index is None:
            raise UserError(f"no trajectory index in {index_folder(self.settings)}; build one with process-videos "
                            "or set agent.index_dir")  # fmt: skip
        source = method_candidates(self.settings, self.index, embedder)
        self.selector = TwoStageSelector(self.settings, self.client, source)
        self.options = ObservationOptions.from_settings(self.settings.agent)
        self.goal = ""
        self.note: str | None = None

    def reset(self, goal: str, videos: list[str] | None = None) -> None:
        """Start an episode: the goal, and the tutorial videos to draw on (None: every video in the index)."""
        self.goal = goal
        wanted = self.index.videos() if videos is None else list(videos)
        found = task_videos(SimpleNamespace(videos=wanted), self.index, index_folder(self.settings))
        self.note = found.reason  # why there is nothing to choose from, when so
        self.selector.reset(found.processed, found.titles)

    def before_action(self, obs: dict[str, Any], history: str = "") -> ChosenDemonstration | None:
        """The demonstration for the next action on this page, or None (none fits, or nothing to choose from)."""
        if self.note is not None:
            return None
        observation = from_browsergym(obs, self.options).observation
        selection = self.selector.select(self.goal, observation, history)
        if selection.demonstration is None:
            return None
        return _chosen(selection.demonstration, selection.record, self.settings.agent.demonstration_image_max_side)

    def usage(self) -> dict[str, Any]:
        return self.client.ledger.to_dict()

    def close(self) -> None:
        self.client.close()


def _chosen(demonstration: Demonstration, record: dict[str, Any], max_side: int) -> ChosenDemonstration:
    trajectory = demonstration.trajectory
    steps = [action.describe() for action in trajectory.actions]
    return ChosenDemonstration(trajectory.objective, steps, demonstration.prompt_parts(True, max_side), record)


def main(argv: list[str] | None = None) -> int:
    """Open a bridged task in BrowserGym and run the demonstration step once on its first page; one JSON line."""
    import gymnasium as gym

    import ecosystem.browsergym.registry  # noqa: F401 - registers our tasks

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("task", help="a bridged task name, e.g. videodemo.shop.1")
    parser.add_argument("--videos", help="comma-separated videos to draw on (default: every video in the index)")
    parser.add_argument("--config", help="a settings YAML file")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    overrides = tuple(args.overrides)
    try:
        step = DemonstrationStep(overrides, args.config)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    env = gym.make(f"browsergym/{args.task}", task_kwargs={"config": args.config, "overrides": overrides})
    try:
        obs, _ = env.reset(seed=0)
        step.reset(obs["goal"], args.videos.split(",") if args.videos else None)
        chosen = step.before_action(obs)
    finally:
        env.close()
        step.close()
    summary = None if chosen is None else {
        "objective": chosen.objective, "steps": chosen.steps, "images": len(chosen.images),
        "text": chosen.text, "decision": chosen.record.get("decision"),
    }  # fmt: skip
    print(json.dumps({"task": args.task, "chosen": summary}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
