"""The AgentOccam policy: refined whole-page tree (+ screenshot) in, one command of a small action space out.

    videodemo run --policy agentoccam            # alone
    videodemo run --policy video                 # the method, with AgentOccam under it (agent.base_agent)

Each step sends the `policy` role a system prompt (the reply's sections and the
commands, `agentoccam.actions` plus branch/prune when `agentoccam.planning`) and one
user message: the demonstration or other material the caller gives (see
`agent.base_agent`), then the step number, the task, the plan tree with its notes, the
interaction history of the active plan, the refined observation and the screenshot
(`agent.use_screenshot`). The reply's ACTION section is read as a command
(`commands`): page commands go to the environment as a fenced action; `note` and
`branch` change only the policy's memory and the model is asked again on the same page
(at most `agentoccam.max_planning_in_a_row` times); `prune` and `go_home` become a `goto`.

History: only steps under the active plan are shown. For the last
`agentoccam.history_observation_steps` of them the page is the lines of the elements the
model highlighted then; for older ones its own description of the page, never the
full past observation.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass, replace
from typing import Any

from agent.agentoccam.commands import Command, offered, parse_command
from agent.agentoccam.plan import PlanError, PlanTree
from agent.agentoccam.refine import RefinedPage, refine_tree
from agent.agentoccam.templates import block, render
from agent.demonstration import Demonstration
from agent.model_policy import POLICY_ROLE, ModelPolicy
from agent.templates import block as agent_block
from evaluation.actions import ActionParseError
from evaluation.observation import Observation, tab_header
from evaluation.policy import PolicyStep
from model_access.client import ModelClient
from agent.task_images import images_of, task_image_parts
from model_access.messages import Message, count_images, image_part, system_message
from model_access.replies import ReplyParseError, extract_code_block, strip_thinking
from settings import Settings

POLICY_STAGE = "policy"
INTERMEDIATE_STAGE = "intermediate"
SECTIONS = ("INTERACTION HISTORY SUMMARY", "OBSERVATION DESCRIPTION", "REASON", "ACTION", "OBSERVATION HIGHLIGHT")
# A title alone at a line's start, tolerating markdown (`**ACTION:**`, `### Action:`) and any case.
_SECTION = re.compile(rf"^[ \t#*]*({'|'.join(SECTIONS)})[ \t*]*:[ \t*]*", re.M | re.I)
_FENCE = re.compile(r"```[\w-]*\n?(.*?)```", re.S)
# Past-step highlights longer than this are replaced by the step's description, as AgentOccam does.
HIGHLIGHT_WORDS = 200


@dataclass
class Interaction:
    """One model reply and what came of it."""

    step: int  # 1-based count of the policy's model calls in the episode
    plan: str  # the active plan when the reply came
    description: str
    reason: str
    command: str
    highlight: list[str]  # lines of the highlighted elements of that page
    env_step: int | None = None  # index of the environment step it became, when it touched the page
    result: str | None = None  # how it went, when known


def read_sections(reply: str) -> dict[str, str]:
    """The titled sections of a reply (titles in SECTIONS); an ACTION in a fenced block when none is titled."""
    text = strip_thinking(reply)
    marks = list(_SECTION.finditer(text))
    sections = {}
    for mark, following in zip(marks, marks[1:] + [None]):
        end = following.start() if following else len(text)
        sections[mark[1].upper()] = text[mark.end() : end].strip()
    if "ACTION" in sections:
        fenced = _FENCE.search(sections["ACTION"])
        sections["ACTION"] = (fenced[1] if fenced else sections["ACTION"]).strip().strip("`").strip()
        if _first_line_closes(sections["ACTION"]):
            sections["ACTION"] = sections["ACTION"].splitlines()[0]
    elif fenced := _FENCE.search(text):
        sections["ACTION"] = fenced[1].strip()
        sections.setdefault("REASON", text[: fenced.start()].strip())
    elif text.strip() and "\n" not in text.strip():  # a bare command
        sections["ACTION"] = text.strip()
    return sections


def _first_line_closes(action: str) -> bool:
    """Several lines whose first closes all its brackets: the later lines are commentary."""
    first = action.splitlines()[0] if action else ""
    return first.count("[") == first.count("]") and len(action.splitlines()) > 1


class AgentOccamAgent(ModelPolicy):
    name = "agentoccam"

    def __init__(self, settings: Settings, client: ModelClient | None = None) -> None:
        super().__init__(settings, client)
        self.options = settings.agentoccam
        self.commands = offered(self.options.actions, self.options.planning)
        self.reset(None)

    # ---- the Policy protocol (the rest in ModelPolicy) ----

    def attach_environment(self, env: Any) -> None:
        """AgentOccam reads the whole page: the environment observes it all and leaves the budget to us."""
        self.env = env
        if self.options.whole_page and getattr(env, "options", None) is not None:
            env.options = replace(env.options, viewport_only=False, token_budget=None)

    def reset(self, task: Any) -> None:
        self.task = task
        self.plans: PlanTree | None = None
        self.interactions: list[Interaction] = []
        self.start_url = getattr(task, "start_url", "") or ""
        self.last_observation = None
        self.page: RefinedPage | None = None
        self.task_images = images_of(task, self.settings)  # the VWA `image` field, sent with the objective

    # ---- one step (the base-agent hook: `demonstration` is shown before the task) ----

    def step(self, observation: Observation, demonstration: Demonstration | None) -> PolicyStep:
        self._learn_outcomes()
        self.last_observation = observation
        if self.plans is None:
            self.plans = PlanTree(self.task.intent, observation.url)
        self.page = self.refine(observation)
        replies: list[str] = []
        planning: list[str] = []
        images = 0
        for _ in range(self.options.max_planning_in_a_row + 1):
            messages = self.messages(observation, demonstration)
            images = count_images(messages)
            text = self.client.chat(POLICY_ROLE, messages, stage=POLICY_STAGE).text
            replies.append(text)
            sections = read_sections(text)
            interaction = self._remember(sections)
            try:
                command = parse_command(sections.get("ACTION", ""), self.commands)
                self._check_element(command)
                if command.kind not in ("branch", "prune"):  # plan changes are not steps of a plan
                    self.plans.record_step(interaction.step)
                if command.kind in ("note", "branch"):
                    interaction.result = self._plan(command, interaction.step)
                    planning.append(command.text)
                    continue
                action = self._page_action(command)
            except (ActionParseError, PlanError) as exc:
                reason = exc.reason if isinstance(exc, ActionParseError) else str(exc)
                interaction.result = f"not carried out: {reason}"
                if interaction.step not in self.plans.active.steps:  # the model sees its failed command
                    self.plans.record_step(interaction.step)
                return self._step(replies, sections, planning, images, error=reason)
            interaction.env_step = self._env_steps()
            return self._step(replies, sections, planning, images, action=action)
        reason = f"{len(planning)} planning commands in a row without a page command (agentoccam.max_planning_in_a_row)"
        return self._step(replies, sections, planning, images, error=reason)

    def page_text(self, observation: Observation) -> str:
        """The page as AgentOccam shows it: the refined tree within its budget."""
        return self.refine(observation).text

    def refine(self, observation: Observation) -> RefinedPage:
        return refine_tree(
            observation.tree_text, self.options.observation_max_lines, self.options.observation_token_budget or None
        )

    def messages(self, observation: Observation, demonstration: Demonstration | None) -> list[Message]:
        agent = self.settings.agent
        parts: list[dict[str, Any]] = []
        if demonstration is not None:
            parts += demonstration.prompt_parts(agent.visual, agent.demonstration_image_max_side)
        parts.append(
            block(
                "step",
                step=len(self.interactions) + 1,
                objective=self.task.intent,
                plans=self.plans.text(),
                history=self.history_text(),
                url=observation.url,
                tabs=tab_header(observation.tabs),
                tree=self.page.text or "(the page shows no elements)",
            )
        )
        parts += task_image_parts(self.task_images)
        parts += self._screenshot_parts(observation)
        parts.append(block("closing"))
        return [system_message(self.system_prompt()), {"role": "user", "content": parts}]

    def system_prompt(self) -> str:
        planning = [name for name in self.commands if name in ("branch", "prune")]
        page = [name for name in self.commands if name not in planning]
        listed = "\n".join(f"- {render('actions/' + name)}" for name in page)
        plan_text = render("planning", commands="\n".join(f"- {render('actions/' + n)}" for n in planning))
        text = render(
            "system",
            output_format=render("output_format"),
            planning=plan_text if planning else render("no_planning"),
            commands=listed,
        )
        max_steps = self.settings.agent.max_steps
        if self._env_steps() == max_steps - 1:
            text += "\n" + render("final_step", max_steps=max_steps)
        return text

    def history_text(self) -> str:
        """The interactions under the active plan, oldest first; also what selection reads as the history."""
        self._learn_outcomes()
        if self.plans is None:
            return render("history_empty")
        wanted = set(self.plans.active.steps)
        shown = [item for item in self.interactions if item.step in wanted]
        if not shown:
            return render("history_empty")
        recent = max(self.options.history_observation_steps, 0)
        entries = []
        for position, item in enumerate(shown):
            observation = item.description or "(not described)"
            if position >= len(shown) - recent and item.highlight:
                highlight = "\n".join(item.highlight)
                if len(highlight.split()) < HIGHLIGHT_WORDS:
                    observation = highlight
            entries.append(
                render(
                    "history_entry",
                    number=item.step,
                    observation=observation,
                    plan=item.plan,
                    reason=item.reason or "(no reason given)",
                    action=item.command or "(none)",
                    result=item.result or "not known yet",
                )
            )
        return "\n".join(entries)

    # ---- the factual-retention question ----

    def ask_intermediate(self, question: str, shown: list[Demonstration]) -> str | None:
        agent = self.settings.agent
        final = self._final_observation()
        parts: list[dict[str, Any]] = []
        for demonstration in shown:
            parts += demonstration.prompt_parts(agent.visual, agent.demonstration_image_max_side)
        if not shown:
            parts.append(agent_block("intermediate_nothing_shown"))
        tree = self.refine(final).text if final is not None else "(not available)"
        url = final.url if final is not None else "(unknown)"
        parts.append(agent_block("intermediate", objective=self.task.intent, url=url, tree=tree))
        parts += self._screenshot_parts(final)
        parts.append(agent_block("intermediate_question", question=question))
        messages = [system_message(render("intermediate_system")), {"role": "user", "content": parts}]
        result = self.client.chat(POLICY_ROLE, messages, stage=INTERMEDIATE_STAGE)
        try:
            return extract_code_block(result.text)
        except ReplyParseError:
            return strip_thinking(result.text).strip()

    # ---- helpers ----

    def _remember(self, sections: dict[str, str]) -> Interaction:
        ids = re.findall(r"\d+", sections.get("OBSERVATION HIGHLIGHT", ""))
        interaction = Interaction(
            step=len(self.interactions) + 1,
            plan=self._plan_line(),
            description=sections.get("OBSERVATION DESCRIPTION", ""),
            reason=sections.get("REASON", ""),
            command=sections.get("ACTION", ""),
            highlight=self.page.lines_for(ids) if self.page is not None else [],
        )
        self.interactions.append(interaction)
        return interaction

    def _plan_line(self) -> str:
        active = self.plans.active
        return f"[{active.plan_id}] {active.intent}"

    def _plan(self, command: Command, step: int) -> str:
        """note and branch: only the plan tree changes (PlanError when branch names no plan)."""
        if command.kind == "note":
            self.plans.note(command.argument, step)
            return "noted (the page did not change)"
        node = self.plans.branch(command.plan_id, command.argument, self.last_observation.url, step)
        return f"plan [{node.plan_id}] started (the page did not change)"

    def _page_action(self, command: Command) -> str:
        """The environment action of a command: prune and go_home become a goto."""
        if command.kind == "prune":
            return f"goto [{self.plans.prune(command.plan_id, command.argument).url}]"
        if command.kind == "go_home":
            return f"goto [{self.start_url or self.plans.root.url}]"
        return command.text

    def _check_element(self, command: Command) -> None:
        if command.element_id is not None and self.page is not None and command.element_id not in self.page.ids:
            raise ActionParseError(f"element [{command.element_id}] is not in the current observation")

    def _step(
        self,
        replies: list[str],
        sections: dict[str, str],
        planning: list[str],
        images: int,
        action: str | None = None,
        error: str | None = None,
    ) -> PolicyStep:
        info: dict[str, Any] = {
            "reasoning": sections.get("REASON", ""),
            "observation_description": sections.get("OBSERVATION DESCRIPTION", ""),
            "command": sections.get("ACTION", ""),
            "plans": self.plans.text(),
            "images_sent": images,
            "observation_tokens_cut": bool(self.page and self.page.truncated),
        }
        if planning:
            info["planning_commands"] = planning
        if len(replies) > 1:
            info["model_replies"] = replies
        if error is not None:
            info["unparseable"] = error
            return PolicyStep(replies[-1], info, error)
        return PolicyStep(f"```\n{action}\n```", info)

    def _screenshot_parts(self, observation: Observation | None) -> list[dict[str, Any]]:
        if observation is None or observation.screenshot is None or not self.settings.agent.use_screenshot:
            return []
        return [block("screenshot"), image_part(observation.screenshot)]

    def _env_steps(self) -> int:
        steps = getattr(getattr(self.env, "record", None), "steps", None)
        return len(steps) if steps is not None else 0

    def _learn_outcomes(self) -> None:
        steps = getattr(getattr(self.env, "record", None), "steps", None) or []
        for item in self.interactions:
            if item.result is None and item.env_step is not None and item.env_step < len(steps):
                step = steps[item.env_step]
                item.result = "done" if step.ok else f"failed: {step.error}"


def build_agentoccam_policy(settings: Settings, args: argparse.Namespace) -> AgentOccamAgent:
    return AgentOccamAgent(settings)
