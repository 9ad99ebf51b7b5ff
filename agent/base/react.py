"""The generic ReAct web policy (`--policy react`, or `agent.base_agent=react`): tree plus screenshot in,
one reasoned action out (no videos). The default base agent is AgentOccam (agent/base/agentoccam).

Each step sends the `policy` model role a system prompt (the role, the observation
format, the action space and the rules) and one user message: the demonstration or
narration when the caller gives one, then the task, the page (URL, tabs, the tree of
the part in view), the last `agent.history_length` steps with how each went, and the
screenshot when `agent.use_screenshot` is on. The model reasons first and ends with
the action in a fenced block; the environment reads the action, and a reply without
one is a failed step (three in a row end the episode).

    policy = BasePolicy(settings)
    policy.reset(task)
    step = policy.act(observation)          # PolicyStep(reply, info={"reasoning": ...})
"""

from __future__ import annotations

import argparse
from typing import Any

from agent.base.interface import PromptMaterial, without_videos
from agent.base.history import History
from agent.base.model_policy import POLICY_ROLE, ModelPolicy
from agent.base.replies import answer_of, read_reply
from agent.base.task_images import images_of, task_image_parts
from agent.base.templates import block, render
from agent.base.videowa_prompt import ReferenceUrls, load_reference_prompt, previous_action_text, reference_messages
from evaluation.browser_env.observation import Observation, tab_header
from evaluation.running.policy import PolicyStep
from foundation.records.step_info import StepInfo
from evaluation.browser_env.videowa_actions import reply_parser
from model_access.client import ModelClient
from model_access.messages import Message, count_images, image_part, system_message
from settings import Settings
from tasks.placeholders import PlaceholderValues

POLICY_STAGE = "policy"
INTERMEDIATE_STAGE = "intermediate"


class BasePolicy(ModelPolicy):
    name = "react"

    def __init__(self, settings: Settings, client: ModelClient | None = None) -> None:
        super().__init__(settings, client)
        self.history = History()
        self.task_images: list[bytes] = []
        # VideoWA's own prompt file, when one is named: read now, so a wrong path stops the run before any task.
        prompt_file = self.settings.agent.videowa_prompt_file
        self.reference_prompt = load_reference_prompt(prompt_file) if prompt_file else None
        self.reference_urls = ReferenceUrls(PlaceholderValues(settings)) if prompt_file else None
        self._acted_on: set[str] = set()  # ids of the page the previous action was chosen on

    # ---- the Policy protocol (the rest in ModelPolicy) ----

    def reset(self, task: Any) -> None:
        self.task = task
        self.history = History()
        self.last_observation = None
        # [harness parity, issue 20] the task's input images (VWA `image` field), sent with the objective each step.
        self.task_images = images_of(task, self.settings)

    # ---- one step ----

    def step(self, observation: Observation, demonstration: PromptMaterial | None) -> PolicyStep:
        """Ask the policy model for the next action, with `demonstration` (if any) in its context."""
        self.history.learn_outcomes(self.env)
        self.last_observation = observation
        if self.reference_prompt is not None:
            messages = self.reference_request(observation, demonstration)
        else:
            messages = self.messages(observation, demonstration)
        self._acted_on = set(observation.nodes)  # the previous action's page, for the next request
        result = self.client.chat(POLICY_ROLE, messages, stage=POLICY_STAGE)
        text = self.reference_urls.to_local(result.text) if self.reference_urls else result.text
        reply = read_reply(text, reply_parser(self.settings.agent.action_parser))
        self.history.add(reply.reasoning, reply.action, f"no valid action: {reply.problem}" if reply.problem else None)
        info = StepInfo(reasoning=reply.reasoning, images_sent=count_images(messages))
        if reply.problem:
            info.unparseable = reply.problem
        return PolicyStep(text, info)

    def reference_request(self, observation: Observation, demonstration: Any) -> list[Message]:
        """The step's request built from VideoWA's prompt file (`agent.videowa_prompt_file`)."""
        steps = self.env.record.steps if self.env is not None and self.env.record is not None else []
        fields = {
            "objective": self.task.intent,
            "url": self.reference_urls.to_real(observation.url),
            "observation": observation.tree_text,
            "previous_action": previous_action_text(steps[-1] if steps else None, self._acted_on),
        }
        screenshot = observation.screenshot if self.settings.agent.use_screenshot else None
        return reference_messages(
            self.reference_prompt, fields, screenshot, task_image_parts(self.task_images), demonstration
        )

    def messages(self, observation: Observation, demonstration: PromptMaterial | None) -> list[Message]:
        agent = self.settings.agent
        parts: list[dict[str, Any]] = []
        if demonstration is not None:
            parts += demonstration.prompt_parts(agent.visual, agent.demonstration_image_max_side)
        # [harness parity, issue 20] Set-of-Marks text (`--harness videowa`) is named and explained as such.
        som = getattr(agent, "observation_format", "ax_tree") == "som"
        heading = "SET-OF-MARKS ELEMENTS OF THE PAGE IN VIEW" if som else "ACCESSIBILITY TREE OF THE PAGE IN VIEW"
        if som:
            parts.append(block("som_format"))
        parts.append(
            block(
                "policy_step",
                page_heading=heading,
                objective=self.task.intent,
                url=observation.url,
                tabs=tab_header(observation.tabs),
                tree=self.page_text(observation),
                history=self.history.text(agent.history_length),
            )
        )
        parts += task_image_parts(self.task_images)
        parts += self._screenshot_parts(observation)
        parts.append(block("policy_closing"))
        return [system_message(render("policy_system")), {"role": "user", "content": parts}]

    def page_text(self, observation: Observation) -> str:
        """The page as this policy renders it in its prompt; selection reads the same text through this hook."""
        return observation.tree_text or "(the page shows no elements)"

    def _screenshot_parts(self, observation: Observation | None) -> list[dict[str, Any]]:
        if observation is None or observation.screenshot is None or not self.settings.agent.use_screenshot:
            return []
        return [block("policy_screenshot"), image_part(observation.screenshot)]

    def history_text(self) -> str:
        """The last `agent.history_length` steps and how each went (what selection reads)."""
        self.history.learn_outcomes(self.env)
        return self.history.text(self.settings.agent.history_length)

    # ---- the factual-retention question ----

    def ask_intermediate(self, question: str, shown: list[PromptMaterial]) -> str | None:
        """Ask the question once, with the material shown during the episode and the page it ended on."""
        agent = self.settings.agent
        final = self._final_observation()
        parts: list[dict[str, Any]] = []
        for demonstration in shown:
            parts += demonstration.prompt_parts(agent.visual, agent.demonstration_image_max_side)
        if not shown:
            parts.append(block("intermediate_nothing_shown"))
        parts.append(
            block(
                "intermediate",
                objective=self.task.intent,
                url=final.url if final else "(unknown)",
                tree=final.tree_text if final else "(not available)",
            )
        )
        parts += self._screenshot_parts(final)
        parts.append(block("intermediate_question", question=question))
        messages = [system_message(render("policy_system")), {"role": "user", "content": parts}]
        result = self.client.chat(POLICY_ROLE, messages, stage=INTERMEDIATE_STAGE)
        return answer_of(result.text, self.settings.video_context.intermediate_answer)


def build_react_policy(settings: Settings, args: argparse.Namespace) -> BasePolicy:
    return BasePolicy(without_videos(settings))
