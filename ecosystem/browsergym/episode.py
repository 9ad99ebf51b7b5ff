"""Play bridged tasks in BrowserGym environments with our policies; print the outcomes as one JSON line.

    python -m ecosystem.browsergym.episode videodemo.shop.5 --policy scripted --set sandbox.shop_port=7771
    python -m ecosystem.browsergym.episode videodemo.shop.5 videodemo.forum.37 --policy scripted,stop

Every task is played with every policy named (comma-separated), in that order, in one process.

Run with the BrowserGym environment's Python (scripts/servers/browsergym.sh). The episode ends when the task says so
(the agent's answer was scored) or after agent.max_steps steps. Each step's `agent_info` is summed up under
`steps_info`: its stats, its chat messages as text (with the number of images each carried) and the tokens
BrowserGym's own loop would count in them (`n_token_agent_messages`).
"""

from __future__ import annotations

import argparse
import sys

import gymnasium as gym
from browsergym.experiments.utils import count_messages_token

from foundation.errors import print_json_or_error

import ecosystem.browsergym.registry  # noqa: F401 - registers our tasks
from ecosystem.browsergym.agent import PolicyAgent
from ecosystem.browsergym.sandbox_task import bridge_settings


def play(name: str, policy: str, config: str | None, overrides: tuple[str, ...], solutions: str | None) -> dict:
    settings = bridge_settings(config, overrides)
    agent = PolicyAgent(policy, config, overrides, solutions=solutions)
    env = gym.make(
        f"browsergym/{name}", task_kwargs={"config": config, "overrides": overrides},
        headless=settings.browser.headless, action_mapping=agent.action_set.to_python_code,
    )  # fmt: skip
    try:
        obs, info = env.reset(seed=0)
        reward, done, actions, errors, steps_info = 0.0, False, [], [], []
        for _ in range(settings.agent.max_steps):
            action, agent_info = agent.get_action(agent.obs_preprocessor(obs))
            obs, reward, terminated, truncated, info = env.step(action)
            actions.append(action)
            steps_info.append(_step_info(agent_info))
            if obs.get("last_action_error"):
                errors.append(obs["last_action_error"].splitlines()[0])
            if terminated or truncated:
                done = True
                break
        task_info = info.get("task_info", {})
        return {"task": name, "policy": policy, "reward": float(reward), "done": done, "steps": len(actions),
                "actions": actions, "action_errors": errors, "answer": task_info.get("answer"),
                "status": (task_info.get("evaluation") or {}).get("status"), "steps_info": steps_info}  # fmt: skip
    finally:
        env.close()
        agent.close()


def _step_info(agent_info) -> dict:
    chat = [{"role": message["role"], "images": sum(part["type"] == "image" for part in message["content"]),
             "text": "\n".join(part["text"] for part in message["content"] if part["type"] == "text")}
            for message in agent_info.chat_messages]  # fmt: skip
    return {"stats": agent_info.stats, "chat": chat, "model_calls": agent_info.extra_info["model_calls"],
            "n_token_agent_messages": count_messages_token(agent_info.chat_messages)}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", nargs="+", help="bridged task names, e.g. videodemo.shop.5")
    parser.add_argument(
        "--policy", default="video", help="our policies, comma-separated (videodemo run --help lists them)"
    )
    parser.add_argument("--solutions", help="the scripted policy's solutions (default: the sandbox's)")
    parser.add_argument("--config", help="a settings YAML file")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    return print_json_or_error(lambda: {"episodes": [
        play(task, policy, args.config, tuple(args.overrides), args.solutions)
        for task in args.tasks for policy in args.policy.split(",")
    ]})  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
