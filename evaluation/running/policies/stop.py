"""The do-nothing baseline: answer `stop []` at the first step of every task.

Run it over a task set to find tasks that pass without any work (a sign of a
broken or too lenient config).
"""

from __future__ import annotations

import argparse
from typing import Any

from evaluation.browser_env.observation import Observation
from evaluation.running.policy import PolicyStep
from settings import Settings


class StopPolicy:
    name = "stop"
    reads_screenshots = False  # with run.step_screenshots off, its episodes take none

    def reset(self, task: Any) -> None:
        pass

    def act(self, observation: Observation) -> PolicyStep:
        return PolicyStep("stop []")

    def answer_intermediate(self, question: str) -> str | None:
        return None

    def usage(self) -> dict[str, Any]:
        return {}

    def close(self) -> None:
        pass


def build_stop_policy(settings: Settings, args: argparse.Namespace) -> StopPolicy:
    return StopPolicy()
