"""The AgentOccam policy: refined whole-page tree (+ screenshot) in, a command of a small action space out.

    videodemo run --policy agentoccam            # alone
    videodemo run --policy video                 # the method, with AgentOccam under it (agent.base_agent)

Each step sends the `policy` role a system prompt (the reply's sections and the
commands, `agentoccam.actions` plus branch/prune when `agentoccam.planning`, plus
go_home when the task spans several sites) and one user message: the demonstration
or other material the caller gives (see `agent.base_agent`), then the step number,
the task, the plan tree with its notes, the interaction history of the active plan,
the refined observation and the screenshot (`agent.use_screenshot`). That is our prompt
(`agentoccam.prompt_source: ours`, prompts/); `original` sends AgentOccam's own, its texts read from the
user's checkout and put together as its actor does (original_prompt.py): no step number, its history format.

The reply's ACTION section is read as commands, as AgentOccam's code reads it
(`original`, `agentoccam.parser: original`) or strictly (`commands`, `strict`). As in
AgentOccam, a reply with an invalid command (unknown, bad syntax, an id not on the
page, the last note again) is asked again at once with a warning, without taking a
step (the warning ends the prompt, or the system prompt as in AgentOccam:
`agentoccam.reask_note`); every accepted reply takes one step: `note` and
`branch` change only the policy's memory (a step with no page action), the page
commands go to the environment as one fenced block, one a line, and run there in
order (its `several_actions`), `prune` and `go_home` become a `goto`.

History: only steps under the active plan are shown. For the last
`agentoccam.history_observation_steps` of them the page is the elements the model
highlighted then, with their ancestors, children and named siblings, without ids
(or "the same page" when it has not changed); for older ones the model's own
description of the page, never the full past observation.
"""

from __future__ import annotations

import argparse
import logging
import re
from dataclasses import dataclass, field, replace
from typing import Any

from agent.base.agentoccam import original
from agent.base.agentoccam.commands import PLANNING_COMMANDS, Command, offered, parse_commands
from agent.base.agentoccam.original_prompt import HistoryEntry, OriginalPrompt
from agent.base.agentoccam.plan import PlanError, PlanTree
from agent.base.agentoccam.refine import RefinedPage, refine_tree, unrefined_page
from agent.base.agentoccam.reply_grammar import headings, policy_grammar
from agent.base.agentoccam.templates import block, render
from agent.base.interface import PromptMaterial, without_videos
from agent.base.model_policy import POLICY_ROLE, ModelPolicy
from agent.base.templates import block as agent_block
from evaluation.browser_env.actions import ActionParseError, parse_actions
from evaluation.browser_env.episode_options import EpisodeOptions
from evaluation.browser_env.observation import Observation, tab_header
from evaluation.running.policy import PolicyStep
from foundation.records.step_info import StepInfo
from foundation.errors import UserError
from model_access.client import ModelClient
from agent.base.task_images import images_of, task_image_parts
from model_access.messages import Message, count_images, image_part, system_message, text_part
from model_access.replies import ReplyParseError, extract_code_block, strip_thinking
from model_access.structured_output import grammar_fields
from settings import Settings
from settings.schema import AgentOccamSettings
from tasks.placeholders import PlaceholderValues

logger = logging.getLogger(__name__)

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
    highlight: str | None  # the highlighted elements of that page with their context, no ids
    page: str  # that page without ids: "the same page" when the current one equals it
    env_step: int | None = None  # index of the environment step it became, when it touched the page
    result: str | None = None  # how it went, when known
    done_here: list[str] = field(default_factory=list)  # what the policy carried out itself (notes, plans)


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
    elif fenced := _FENCE.search(text):
        sections["ACTION"] = fenced[1].strip()
        sections.setdefault("REASON", text[: fenced.start()].strip())
    elif text.strip() and "\n" not in text.strip():  # a bare command
        sections["ACTION"] = text.strip()
    return sections


class AgentOccamAgent(ModelPolicy):
    name = "agentoccam"

    def __init__(self, settings: Settings, client: ModelClient | None = None) -> None:
        super().__init__(settings, client)
        self.options = settings.agentoccam
        for name, allowed in _CHOICES.items():
            value = getattr(self.options, name)
            if value not in allowed:
                raise UserError(f"agentoccam.{name} is {value!r}; use one of {', '.join(allowed)}")
        if self.options.max_invalid_reasks < 0:
            raise UserError(
                f"agentoccam.max_invalid_reasks is {self.options.max_invalid_reasks}; use 0 (no bound) or more"
            )
        # AgentOccam's own texts and assembly (`prompt_source: original`), read now from the user's checkout for
        # every command that may be offered, so a missing file stops the run before its first task.
        self.original_prompt = original_prompt(self.options) if self.options.prompt_source == "original" else None
        self.reset(None)

    # ---- the Policy protocol (the rest in ModelPolicy) ----

    def attach_environment(self, env: Any) -> None:
        self.env = env  # read for dialogs, the tabs and how each command went; never changed

    def episode_options(self, defaults: EpisodeOptions) -> EpisodeOptions:
        """AgentOccam reads the whole page (the environment observes it all and leaves the budget to us), with
        WebArena's element states under `agentoccam.states: original`; every page command of an ACTION runs,
        in order, in one step; its `type` replaces a field's text; after a failed action it may keep the
        observation from before it."""
        observation = defaults.observation
        if self.options.whole_page:
            observation = replace(observation, viewport_only=False, token_budget=None)
        if self.options.states == "original":
            observation = replace(observation, states="webarena")  # every state, as WebArena's tree reports them
        if self.options.refine and self.options.pruning == "original":
            observation = replace(observation, structure="webarena")  # the nodes AgentOccam's pruning reads
        return replace(
            defaults,
            observation=observation,
            several_actions=True,
            type_clears_field=self.options.type_clears_field,
            type_keys_in_menus=self.options.menu_typing == "original",
            observe_after_failed_action=self.options.observe_after_failed_action,
        )

    def reset(self, task: Any) -> None:
        self.task = task
        self.plans: PlanTree | None = None
        self.interactions: list[Interaction] = []
        self.last_observation = None
        self.page: RefinedPage | None = None
        self.dialogs: list[str] = []
        self.last_note = ""
        self.task_images = images_of(task, self.settings)  # the VWA `image` field, sent with the objective
        actions = list(self.options.actions)
        if len(getattr(task, "sites", None) or []) > 1 and "go_home" not in actions:
            actions.append("go_home")  # AgentOccam offers the site list when a task spans several sites
        self.commands = offered(actions, self.options.planning)

    # ---- one step (the base-agent hook: `demonstration` is shown before the task) ----

    def step(self, observation: Observation, demonstration: PromptMaterial | None) -> PolicyStep:
        self._learn_outcomes()
        self.last_observation = observation
        if self.plans is None:
            self.plans = self._new_plans(observation.url)
        self.page = self.refine(observation)
        self.dialogs = self._take_dialogs()
        replies: list[str] = []
        planning: list[str] = []
        rounds = 0
        while True:
            asked = self._ask(observation, demonstration, replies)
            sections, images = asked.sections, asked.images
            interaction = self._remember(sections)
            if asked.error is not None:  # still invalid after `max_invalid_reasks` warnings
                interaction.result = f"not carried out: {asked.error}"
                self.plans.record_step(interaction.step)
                return self._step(replies, sections, planning, images, error=asked.error)
            try:
                actions = self._carry_out(asked.reading, interaction, planning)
            except PlanError as exc:  # a plan id that is not there: the step is spent, as in AgentOccam
                interaction.result = f"not carried out: {exc}"
                if interaction.step not in self.plans.active.steps:
                    self.plans.record_step(interaction.step)
                return self._step(replies, sections, planning, images, error=str(exc))
            except ActionParseError as exc:  # go_home without a home page; a page command its pattern voids
                interaction.result = "; ".join([*interaction.done_here, f"not carried out: {exc.reason}"])
                return self._step(replies, sections, planning, images, error=exc.reason)
            finally:
                if self.original_prompt is not None:  # AgentOccam records the plan active after the step (:1403)
                    interaction.plan = self._plan_line()
            if actions:
                interaction.env_step = self._env_steps()
                return self._step(replies, sections, planning, images, actions=actions)
            if self.options.planning_takes_step:
                interaction.env_step = self._env_steps()
                done = "; ".join(interaction.done_here) or "nothing carried out"
                interaction.result = f"{done} (the page did not change)"
                return self._step(replies, sections, planning, images, memory_only=True)
            rounds += 1  # ours: ask again on the same page, a bounded number of times
            if rounds > self.options.max_planning_in_a_row:
                reason = (
                    f"{rounds} planning commands in a row without a page command (agentoccam.max_planning_in_a_row)"
                )
                return self._step(replies, sections, planning, images, error=reason)

    def _ask(self, observation: Observation, demonstration: PromptMaterial | None, replies: list[str]) -> _Asked:
        """One reply with valid commands, re-asking at once (with a warning) while a command is invalid; at most
        `max_invalid_reasks` times, or with no bound when it is 0 (as AgentOccam), logging a warning at 10, 100..."""
        warning = ""
        repeated_note = False  # original: once a note repeats, each later re-ask of the step warns of the note
        reasks = 0
        bound = self.options.max_invalid_reasks
        next_notice = 10
        while True:
            messages = self.messages(observation, demonstration, warning)
            images = count_images(messages)
            text = self.client.chat(POLICY_ROLE, messages, stage=POLICY_STAGE, **self._grammar_fields()).text
            replies.append(text)
            sections = read_sections(text)
            action_text = sections.get("ACTION", "")
            try:
                reading = self._read(action_text)
            except ActionParseError as exc:
                problem = exc.reason
                if self.original_prompt is None:
                    warning = render("invalid_warning", command=" ".join(action_text.split())[:200], reason=problem)
                elif not repeated_note:  # AgentOccam.py:920-923: the note's warning wins once given
                    warning = self.original_prompt.invalid_warning(action_text)
            else:
                if not reading.repeats_note:
                    return _Asked(sections, images, reading)
                problem = f"the note {self.last_note!r} repeats the last one"
                repeated_note = True
                if self.original_prompt is None:
                    warning = render("repeated_note_warning", note=self.last_note)
                else:
                    warning = self.original_prompt.repeated_note_warning(self.last_note)
            reasks += 1
            if bound and reasks > bound:
                error = f"{problem} ({reasks} replies; agentoccam.max_invalid_reasks)"
                return _Asked(sections, images, None, error=error)
            if not bound and reasks == next_notice:  # unbounded, as AgentOccam: never silently
                next_notice *= 10
                logger.warning(
                    "task %s, step %d: %d invalid replies in a row, asking again (agentoccam.max_invalid_reasks "
                    "is 0: no bound); the last: %s",
                    getattr(self.task, "key", "?"), len(self.interactions) + 1, reasks, problem,
                )

    def _read(self, action_text: str) -> _Reading:
        """What an ACTION asks for, read as `agentoccam.parser` says; ActionParseError when it is invalid."""
        if self.options.parser == "strict":
            commands = parse_commands(action_text, self.commands, self.options.stop_answer)
            for command in commands:
                self._check_element(command)
            plan = next((c for c in commands if c.kind in PLANNING_COMMANDS), None)
            notes = [c.argument for c in commands if c.kind == "note"]
            page = [c.text for c in commands if c.touches_page and c.kind != "prune"]
            return _Reading(
                plan=(plan.kind, plan.plan_id, plan.argument) if plan else None,
                plan_text=plan.text if plan else "",
                notes=notes,
                page=page,
                repeats_note=self.last_note in notes,
            )
        return self._read_original(action_text)

    def _read_original(self, action_text: str) -> _Reading:
        """AgentOccam's own reading (`original`): searched, not matched; see `original`."""
        parts = original.split(action_text, [*self.commands, "goto"])
        if not parts:
            raise ActionParseError(f"the ACTION does not start with a command ({', '.join(self.commands)})")
        for part in parts:
            reason = original.problem(part, lambda element: self.page is None or element in self.page.ids)
            if reason is not None:
                raise ActionParseError(reason)
        planning = [name for name in self.commands if name in PLANNING_COMMANDS]
        plan_error = ""
        try:
            plan = original.plan_command(action_text, planning)
        except ValueError as exc:
            plan, plan_error = None, str(exc)
        notes = [note for note in map(original.note_text, parts) if note is not None]
        page: list[str] = []
        page_error = ""
        if "go_home" in action_text:  # its go_home replaces every page action with the one goto
            page = ["go_home"]
        else:
            try:
                page = original.page_actions(action_text, self.options.stop_answer)
            except ActionParseError as exc:
                page_error = exc.reason
        repeats = bool(self.last_note) and f"note [{self.last_note}" in action_text
        return _Reading(plan, action_text if plan else "", notes, page, repeats, plan_error, page_error)

    def _carry_out(self, reading: _Reading, interaction: Interaction, planning: list[str]) -> list[str]:
        """Apply the plan command and the notes; the page actions of the step, in order ([] when none)."""
        step = interaction.step
        # AgentOccam's reading: a plan command it cannot apply is noted on the active plan, the step stays out of
        # the plan's history, and the rest of the ACTION still runs (AgentOccam.py:682-702); ours: the step fails.
        as_agentoccam = self.options.parser == "original"
        if reading.plan_error and not as_agentoccam:
            raise PlanError(reading.plan_error)
        if reading.plan is None and not reading.plan_error:
            self.plans.record_step(step)  # plan changes are not steps of a plan
        actions = list(reading.page)
        try:
            if reading.plan_error:
                raise PlanError(reading.plan_error)
            if reading.plan is not None:
                kind, plan_id, text = reading.plan
                if kind == "branch":
                    node = self.plans.branch(plan_id, text, self.last_observation.url, step)
                    interaction.done_here.append(f"plan [{node.plan_id}] started")
                else:
                    url = self.plans.prune(plan_id, text).url
                    # The browser goes back to the plan's page, and nothing else of the ACTION touches it, but
                    # for AgentOccam's go_home, which it applies after the prune (AgentOccam.py:1002-1013).
                    if not (as_agentoccam and "go_home" in actions):
                        actions = [f"goto [{url}]"]
                planning.append(reading.plan_text)
        except PlanError as exc:
            if not as_agentoccam:
                raise
            if self.original_prompt is not None:  # its own sentence, from the checkout
                self.plans.flag(self.original_prompt.invalid_plan_note(interaction.command))
            else:
                action = " ".join(interaction.command.split())[:200]
                self.plans.flag(render("invalid_plan_note", action=action, reason=str(exc)))
            interaction.done_here.append(f"plan command not applied: {exc}")
        for note in reading.notes:
            self.plans.note(note, step)
            self.last_note = note
            interaction.done_here.append("noted")
            planning.append(f"note [{note}]")
        if reading.page_error:
            raise ActionParseError(reading.page_error)
        return [f"goto [{self._home_url()}]" if action == "go_home" else action for action in actions]

    def _home_url(self) -> str:
        """The page that lists the sites (WebArena's homepage, $HOMEPAGE)."""
        url = PlaceholderValues(self.settings).get("HOMEPAGE")
        if not url:
            raise ActionParseError(
                "go_home has no page to open: set HOMEPAGE to the home page that lists the sites (WebArena: port 4399)"
            )
        return url

    def _grammar_fields(self) -> dict[str, Any]:
        """The request field holding the reply to `agentoccam.reply_grammar`'s grammar ({} when off)."""
        if not self.settings.agentoccam.reply_grammar:
            return {}
        kind = self.client.server_kind(self.client.role_settings(POLICY_ROLE))
        page_ids = sorted((i for i in self.page.ids if i.isdigit()), key=int) if self.page is not None else []
        grammar = policy_grammar(headings(render("output_format")), self.commands, page_ids)
        fields = grammar_fields(kind, grammar)
        if not fields:
            self.client.server_kinds.warn_once(
                POLICY_ROLE, f"agentoccam.reply_grammar: the policy server ({kind.describe()}) takes no grammar"
            )
        return fields

    def page_text(self, observation: Observation) -> str:
        """The page as AgentOccam shows it: the refined tree within its budget."""
        return self.refine(observation).text

    def refine(self, observation: Observation) -> RefinedPage:
        options = self.options
        budget = options.observation_token_budget or None
        if not options.refine:
            return unrefined_page(observation.tree_text, options.unrefined_max_lines, budget, options.cut_marker)
        return refine_tree(
            observation.tree_text,
            options.observation_max_lines,
            budget,
            options.drop_identical_neighbours,
            options.root_line,
            options.states,
            options.characters,
            table_rows=options.table_rows,
            cut_marker=options.cut_marker,
            name_ids_in_plain=options.same_page_name_ids,
            pruning=options.pruning,
        )

    def messages(
        self, observation: Observation, demonstration: PromptMaterial | None, warning: str = ""
    ) -> list[Message]:
        agent = self.settings.agent
        parts: list[dict[str, Any]] = []
        if demonstration is not None:
            parts += demonstration.prompt_parts(agent.visual, agent.demonstration_image_max_side)
        if self.original_prompt is not None:
            return self._original_messages(observation, parts, warning)
        parts.append(
            block(
                "step",
                step=len(self.interactions) + 1,
                objective=self.task.intent,
                plans=self.plans.text(),
                history=self.history_text(),
                page=self._page_shown(observation, self.page.text or "(the page shows no elements)"),
            )
        )
        parts += task_image_parts(self.task_images)
        parts += self._screenshot_parts(observation)
        parts.append(block("closing"))
        return self._with_warning(self.system_prompt(), parts, warning)

    def _with_warning(self, system: str, parts: list[dict[str, Any]], warning: str) -> list[Message]:
        """The request, a re-ask's warning where `agentoccam.reask_note` puts it: the end of the system prompt, as
        AgentOccam (AgentOccam.py:921, :923), which makes a prompt cache read the whole page again; or the prompt's
        last part (ours), so a cache (llama.cpp's kept prompt, vLLM's prefixes) serves everything before it."""
        if warning and self.options.reask_note == "end":
            parts = [*parts, text_part(warning.strip())]
        elif warning:
            system += warning
        return [system_message(system), {"role": "user", "content": parts}]

    def _original_messages(self, observation: Observation, parts: list[dict[str, Any]], warning: str) -> list[Message]:
        """AgentOccam's request (`prompt_source: original`, original_prompt.py): its system prompt, and after the
        caller's material (`parts`) one text of its sections, the screenshot under its heading when
        `agent.use_screenshot` (its image observation type), then the task's own images (ours)."""
        visual = observation.screenshot is not None and self.settings.agent.use_screenshot
        before, after = self.original_prompt.user_text(
            {
                "objective": self.task.intent,
                "previous plans": self._plans_text(),
                "interaction history": self.history_text(),
                "current observation": self._page_shown(observation, self.page.text),
            },
            visual,
        )
        parts.append(text_part(before))
        if visual:
            parts.append(image_part(observation.screenshot))
        if after:
            parts.append(text_part(after))
        parts += task_image_parts(self.task_images)
        return self._with_warning(self.system_prompt(), parts, warning)

    def _page_shown(self, observation: Observation, page: str) -> str:
        """The page's text with the dialogs it showed above it (and the URL and tabs with `show_url_and_tabs`)."""
        if self.dialogs:  # AgentOccam shows a dialog's message on the page it left behind
            page = "\n".join(render("dialog", message=message) for message in self.dialogs) + "\n" + page
        if self.options.show_url_and_tabs:
            page = render("page_header", url=observation.url, tabs=tab_header(observation.tabs)) + "\n" + page
        return page

    def system_prompt(self) -> str:
        max_steps = self._max_steps()
        final = self._env_steps() == max_steps - 1
        if self.original_prompt is not None:
            return self.original_prompt.system_prompt(self.commands, max_steps if final else None)
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
        if final:
            text += "\n" + render("final_step", max_steps=max_steps)
        return text

    def history_text(self) -> str:
        """The interactions under the active plan, oldest first; also what selection reads as the history."""
        self._learn_outcomes()
        shown = self._active_interactions()
        if self.original_prompt is not None:  # AgentOccam.py:450-518; empty: the section is left out
            prompt = self.original_prompt
            entries = [
                HistoryEntry(self._page_of(item, n, len(shown), prompt.same_page, item.description), item.plan,
                             item.reason, item.command)
                for n, item in enumerate(shown)
            ]  # fmt: skip
            return prompt.history(entries, show_plan=self.plans is not None and self.plans.active.plan_id != 0)
        if not shown:
            return render("history_empty")
        entries = []
        for position, item in enumerate(shown):
            observation = self._page_of(
                item, position, len(shown), render("history_same_page"), item.description or "(not described)"
            )
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

    def _active_interactions(self) -> list[Interaction]:
        if self.plans is None:
            return []
        wanted = set(self.plans.active.steps)
        return [item for item in self.interactions if item.step in wanted]

    def _page_of(self, item: Interaction, position: int, count: int, same_page: str, described: str) -> str:
        """A past step's page in the history: within the last `history_observation_steps` of the `count` shown,
        `same_page` when the page has not changed since, else the highlighted elements when they are short
        enough; otherwise `described`, the model's own description of it."""
        if position >= count - max(self.options.history_observation_steps, 0):
            if item.page == (self.page.plain if self.page is not None else None):
                return same_page
            if item.highlight and len(item.highlight.split()) < HIGHLIGHT_WORDS:
                return item.highlight
        return described

    def _new_plans(self, url: str) -> PlanTree:
        prompt = self.original_prompt
        if prompt is None:
            return PlanTree(self.task.intent, url, prune_hides=self.options.prune_hides)
        # Its root plan wraps the objective; a note keeps its step counted from 0 (AgentOccam.py:1330, :843).
        record = lambda step, text: prompt.note_record(step - 1, text)  # noqa: E731
        return PlanTree(prompt.root_plan(self.task.intent), url, record, self.options.prune_hides)

    def _plans_text(self) -> str:
        return self.plans.text() if self.original_prompt is None else self.original_prompt.plans(self.plans)

    # ---- the factual-retention question ----

    def ask_intermediate(self, question: str, shown: list[PromptMaterial]) -> str | None:
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
        ids = highlighted_ids(sections.get("OBSERVATION HIGHLIGHT", ""), self.options.highlight_ids)
        whole_page = self.options.highlight_ids == "original"  # no ids: AgentOccam hides nothing
        interaction = Interaction(
            step=len(self.interactions) + 1,
            plan=self._plan_line(),
            description=sections.get("OBSERVATION DESCRIPTION", ""),
            reason=sections.get("REASON", ""),
            command=sections.get("ACTION", ""),
            highlight=self.page.highlight(ids, whole_page) if self.page is not None else None,
            page=self.page.plain if self.page is not None else "",
        )
        self.interactions.append(interaction)
        return interaction

    def _plan_line(self) -> str:
        active = self.plans.active
        if self.original_prompt is not None:
            return self.original_prompt.active_plan(active.plan_id, active.intent)
        return f"[{active.plan_id}] {active.intent}"

    def _check_element(self, command: Command) -> None:
        if command.element_id is not None and self.page is not None and command.element_id not in self.page.ids:
            raise ActionParseError(f"element [{command.element_id}] is not in the current observation")

    def _take_dialogs(self) -> list[str]:
        tabs = getattr(self.env, "tabs", None)
        return tabs.take_dialogs() if tabs is not None and hasattr(tabs, "take_dialogs") else []

    def _step(
        self,
        replies: list[str],
        sections: dict[str, str],
        planning: list[str],
        images: int,
        actions: list[str] | None = None,
        error: str | None = None,
        memory_only: bool = False,
    ) -> PolicyStep:
        info = StepInfo(
            reasoning=sections.get("REASON", ""),
            observation_description=sections.get("OBSERVATION DESCRIPTION", ""),  # AgentOccam's own, in `extra`
            command=sections.get("ACTION", ""),
            plans=self._plans_text(),
            images_sent=images,
            observation_tokens_cut=bool(self.page and self.page.truncated),
        )
        if planning:
            info.put("planning_commands", planning)
        if len(replies) > 1:
            info.put("model_replies", replies)
        if error is not None:
            info.unparseable = error
            return PolicyStep(replies[-1], info, error)
        if memory_only:
            return PolicyStep(sections.get("ACTION", "") or replies[-1], info, memory_only=True)
        # The commands were read here: the environment carries them out as actions, without reading them again.
        block = "```\n" + "\n".join(actions or []) + "\n```"
        return PolicyStep(block, info, actions=parse_actions(block) if actions else [])

    def _screenshot_parts(self, observation: Observation | None) -> list[dict[str, Any]]:
        if observation is None or observation.screenshot is None or not self.settings.agent.use_screenshot:
            return []
        return [block("screenshot"), image_part(observation.screenshot)]

    def _max_steps(self) -> int:
        """The episode's step limit as the environment plays it (its EpisodeOptions, which the runner built from
        `agent.max_steps`); the setting itself only without an environment (a policy asked outside a run)."""
        episode = getattr(self.env, "episode", None)
        return episode.max_steps if episode is not None else self.settings.agent.max_steps

    def _env_steps(self) -> int:
        steps = getattr(getattr(self.env, "record", None), "steps", None)
        return len(steps) if steps is not None else 0

    def _learn_outcomes(self) -> None:
        """Each past step's RESULT: what the policy did itself, then how each page action went."""
        steps = getattr(getattr(self.env, "record", None), "steps", None) or []
        for item in self.interactions:
            if item.result is None and item.env_step is not None and item.env_step < len(steps):
                step = steps[item.env_step]
                commands = getattr(step, "commands", None) or []
                if commands:
                    page = [f"`{c['action']}` " + ("done" if c["ok"] else f"failed: {c['error']}") for c in commands]
                else:
                    page = ["done" if step.ok else f"failed: {step.error}"]
                item.result = "; ".join([*item.done_here, *page])


@dataclass
class _Reading:
    """What a valid ACTION asks for."""

    plan: tuple[str, int, str] | None  # (branch or prune, plan id, intent or reason), applied first
    plan_text: str  # the plan command as written, for the step's record
    notes: list[str]
    page: list[str]  # page actions in order, canonical texts; "go_home" for the site list
    repeats_note: bool  # it writes the last note again: asked again
    plan_error: str = ""  # a plan command that does not fit its syntax: the step is spent
    page_error: str = ""  # a page command that does not fit its pattern: none runs, the step is spent


@dataclass
class _Asked:
    """A reply whose commands are all valid, or the reason the last of several was not."""

    sections: dict[str, str]
    images: int
    reading: _Reading | None
    error: str | None = None


# The values of the agentoccam settings that name a behaviour.
_CHOICES = {
    "parser": ("original", "strict"),
    "stop_answer": ("original", "bracketed"),
    "states": ("original", "compact"),
    "characters": ("original", "readable"),
    "prompt_source": ("ours", "original"),
    "reask_note": ("end", "system"),
    "table_rows": ("plain", "original"),
    "highlight_ids": ("any", "original"),
    "prune_hides": ("subtrees", "plans"),
    "pruning": ("ours", "original"),
    "menu_typing": ("choose", "original"),
}


def highlighted_ids(text: str, style: str) -> list[str]:
    """The element ids of an OBSERVATION HIGHLIGHT: "any" takes every number (`[12], [15]` too); "original" reads
    it as AgentOccam does (AgentOccam.py:861): split at commas, each part kept only when it is all digits."""
    if style == "original":
        return [str(int(part.strip())) for part in text.split(",") if part.strip().isdigit() and part.strip().isascii()]
    return re.findall(r"\d+", text)


def original_prompt(options: AgentOccamSettings) -> OriginalPrompt:
    """AgentOccam's prompt from `agentoccam.checkout`, with the files of every command that may be offered."""
    return OriginalPrompt(options.checkout, offered([*options.actions, "go_home"], options.planning))


def build_agentoccam_policy(settings: Settings, args: argparse.Namespace) -> AgentOccamAgent:
    return AgentOccamAgent(without_videos(settings))
