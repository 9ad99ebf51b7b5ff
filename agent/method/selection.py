"""Two-stage trajectory selection before every action, with the continuation check.

Every stage reads the policy's own observation: the page text the policy renders
(the `page_text` hook, so a policy with another observation, AgentOccam's refined
tree for one, is seen as the policy sees it, within the policy's token budget) and
the current screenshot.

1. Continuation: when a trajectory was chosen at the previous step (and
   `selection.continuation` is on), the model reads the task, the page, the recent
   steps and that trajectory, and says whether it is still relevant to the next
   action. Yes: it is kept and stages 1-2 are skipped.
2. Stage 1: the model reads the objectives of the candidates (every trajectory of
   the task's videos; see `candidates` for the optional pre-cut), grouped by video,
   and picks up to `selection.candidates_per_video` per video, or none.
3. Stage 2: the model sees each pick's action list and first screenshot and chooses
   one, or none. `agent.visual` off (--no-visual) does not change this stage: the
   paper removes the video's screenshots from the policy's context only.
   `selection.stage2_screens` off drops those screenshots (a text-only policy model).

Every call goes to `selection.role` (the policy's model by default) under its own
ledger stage (`selection_continuation`, `selection_stage1`, `selection_stage2`), so
a run's summary shows what selection costs per step beside the policy's own call.
Each step's decisions are returned as a record: the candidates, the picks, the
choice, continued or reselected, the model's reasons, and the calls' usage. A reply
that cannot be read means no demonstration at this step, recorded as such.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Callable

from agent.videos.candidates import Candidate, CandidatePool, CandidateSource
from agent.videos.verdicts import verdict_label
from agent.videos.demonstration import CONTINUED, SELECTED, Demonstration, numbered_steps
from agent.videos.images import keyframe_data_url
from agent.videos.page import page_title
from agent.method.selection_replies import read_choice, read_continuation, read_picks
from agent.method.templates import block, render, reply_schema
from evaluation.browser_env.observation import Observation, tab_header
from model_access.client import ModelClient
from model_access.messages import Message, image_part
from model_access.replies import ReplyParseError
from model_access.reply_schema import ReplySchema
from foundation.records.trajectory import Trajectory
from settings import Settings

CONTINUATION_STAGE = "selection_continuation"
STAGE1 = "selection_stage1"
STAGE2 = "selection_stage2"
STAGES = (CONTINUATION_STAGE, STAGE1, STAGE2)
# The index's embedding of the ranking query is counted under this stage (the index's own name for it).
RANKING_STAGE = "index"

# What the step's record says was decided.
CONTINUED_DECISION = "continued"  # the continuation check kept the previous trajectory
RESELECTED = "reselected"  # stages 1-2 ran and chose a trajectory
NONE_CHOSEN = "none"  # stages 1-2 ran and chose nothing (or there was nothing to choose from)
UNREADABLE = "unreadable_reply"  # a selection reply could not be read: no demonstration this step


@dataclass
class Selection:
    demonstration: Demonstration | None
    record: dict[str, Any] = field(default_factory=dict)


PageText = Callable[[Observation], str]


def tree_text(observation: Observation) -> str:
    """The page text when no policy hook is given: the observation's tree as captured."""
    return observation.tree_text or "(the page shows no elements)"


class TwoStageSelector:
    def __init__(
        self, settings: Settings, client: ModelClient, source: CandidateSource, page_text: PageText = tree_text
    ) -> None:
        self.settings = settings
        self.client = client
        self.source = source
        self.page_text = page_text  # the policy's own rendering of the page
        self.role = settings.selection.role
        self.video_ids: list[str] = []
        self.titles: dict[str, str] = {}
        self.previous: Trajectory | None = None
        self._screen: list[dict[str, Any]] = []
        self.steps = 0
        self.decided: dict[str, tuple[int, Selection]] = {}

    def reset(self, video_ids: list[str], titles: dict[str, str]) -> None:
        self.video_ids, self.titles, self.previous = list(video_ids), dict(titles), None
        self.steps = 0
        self.decided: dict[str, tuple[int, Selection]] = {}  # situation -> (step, its selection)

    def select(self, objective: str, observation: Observation, history: str) -> Selection:
        """The trajectory for the next action (or none) and the record of how it was decided."""
        self.steps += 1
        before = self._usage()
        context = {"objective": objective, "page": self._page(observation), "history": history}
        self._screen = self._screenshot_parts(observation)
        record: dict[str, Any] = {"previous": self.previous.trajectory_id if self.previous else None}
        key = self._situation(context, observation)
        known = self.decided.get(key) if self.settings.selection.skip_unchanged else None
        if known is not None:
            # Same task, page, screenshot, history, previous trajectory and candidates: the same prompts, so the
            # same decision; not asked again (selection.skip_unchanged).
            step, selection = known
            record = {**selection.record, "reused_from_step": step}
            record.pop("usage", None)
            selection = Selection(selection.demonstration, record)
        else:
            try:
                selection = self._decide(context, observation, record)
            except ReplyParseError as exc:
                record.update(decision=UNREADABLE, chosen=None, error=str(exc))
                selection = Selection(None, record)
            if record.get("decision") != UNREADABLE:  # an unreadable reply may read at a second asking
                self.decided[key] = (self.steps, selection)
        self.previous = selection.demonstration.trajectory if selection.demonstration else None
        record["usage"] = _difference(self._usage(), before)
        return selection

    def _situation(self, context: dict[str, str], observation: Observation) -> str:
        """What every selection prompt of this step is made of (the candidates are fixed per episode unless
        pre-cut by a ranking of this very page)."""
        digest = hashlib.sha256()
        for value in (*context.values(), self.previous.trajectory_id if self.previous else "", *self.video_ids):
            digest.update(value.encode() + b"\0")
        for part in self._screen:
            digest.update(repr(part).encode())
        return digest.hexdigest()

    # ---- the stages ----

    def _decide(self, context: dict[str, str], observation: Observation, record: dict[str, Any]) -> Selection:
        previous = self.previous
        if previous is not None and self.settings.selection.continuation:
            relevant, reason = self._ask_continuation(context, previous)
            record["continuation"] = {"relevant": relevant, "reason": reason}
            if relevant:
                record.update(decision=CONTINUED_DECISION, chosen=previous.trajectory_id)
                return Selection(Demonstration(CONTINUED, previous), record)

        pool = self.source.pool(self.video_ids, context["objective"], observation)
        record["pool"] = pool.per_video
        if self.source.precut:
            record["precut"] = f"on: at most {self.source.pool_per_video} objectives per video, ranked by " \
                               f"{self.source.ranked_by}"
        record["candidates"] = [candidate.to_dict() for candidate in pool.candidates]
        if not pool.candidates:
            record.update(decision=NONE_CHOSEN, chosen=None, note="the videos have no trajectories")
            return Selection(None, record)

        picks, reason, ignored = self._ask_stage1(context, pool)
        record["stage1"] = {"picks": [c.number for c in picks], "reason": reason}
        if ignored:
            record["stage1"]["ignored"] = ignored
        if not picks:
            record.update(decision=NONE_CHOSEN, chosen=None)
            return Selection(None, record)

        choice, reason = self._ask_stage2(context, picks)
        record["stage2"] = {"choice": choice.number if choice else None, "reason": reason}
        if choice is None:
            record.update(decision=NONE_CHOSEN, chosen=None)
            return Selection(None, record)
        record.update(decision=RESELECTED, chosen=choice.trajectory.trajectory_id)
        return Selection(Demonstration(SELECTED, choice.trajectory), record)

    def _ask_continuation(self, context: dict[str, str], previous: Trajectory) -> tuple[bool, str]:
        material = block(
            "select_continuation", demo_objective=previous.objective, demo_steps=numbered_steps(previous.actions)
        )
        message = self._message(context, "select_continuation_intro", [material])
        reply = self._chat([message], CONTINUATION_STAGE, reply_schema("select_continuation"))
        return read_continuation(reply)

    def _ask_stage1(self, context: dict[str, str], pool: CandidatePool) -> tuple[list[Candidate], str, list[str]]:
        listing = "\n\n".join(
            render(
                "select_stage1_video",
                title=self.titles.get(video_id, video_id),
                objectives="\n".join(f"{c.number}. {c.trajectory.objective}" for c in pool.of_video(video_id)),
            )
            for video_id in pool.per_video
            if pool.of_video(video_id)
        )
        per_video = self.settings.selection.candidates_per_video
        material = block("select_stage1", listing=listing, per_video=per_video)
        # Objectives first: the list before anything task- or step-specific, so a prefix cache keeps it across
        # steps and tasks over the same videos.
        first = self.settings.selection.stage1_objectives_first
        message = self._message(context, "select_stage1_intro", [material], material_first=first)
        # Constrained, a pick can only be a number on the list (the prompt's words are unchanged).
        listed = [c.number for video_id in pool.per_video for c in pool.of_video(video_id)]
        schema = reply_schema("select_stage1")
        schema = schema.with_enum(("properties", "picks", "items"), listed) if listed else schema
        numbers, reason = read_picks(self._chat([message], STAGE1, schema))
        known = pool.by_number()
        picks: list[Candidate] = []
        ignored: list[str] = []
        taken: dict[str, int] = {}
        for number in numbers:
            candidate = known.get(number)
            if candidate is None:
                ignored.append(f"{number}: no such candidate")
                continue
            video_id = candidate.trajectory.video_id
            if taken.get(video_id, 0) >= per_video:
                ignored.append(f"{number}: more than {per_video} from video {video_id}")
                continue
            taken[video_id] = taken.get(video_id, 0) + 1
            picks.append(candidate)
        return picks, reason, ignored

    def _ask_stage2(self, context: dict[str, str], picks: list[Candidate]) -> tuple[Candidate | None, str]:
        agent = self.settings.agent
        parts: list[dict[str, Any]] = [block("select_stage2_candidates")]
        for candidate in picks:
            trajectory = candidate.trajectory
            steps = numbered_steps(trajectory.actions)
            number, objective = candidate.number, trajectory.objective
            parts.append(block("select_stage2_candidate", number=number, objective=objective, steps=steps))
            if self.settings.selection.stage2_verdicts:  # off in the method: its prompt knows no verdicts
                parts.append(block("select_stage2_verdict", verdict=verdict_label(trajectory)))
            screens = self.settings.selection.stage2_screens
            url = keyframe_data_url(trajectory.first_frame, agent.demonstration_image_max_side) if screens else None
            if url is not None:
                parts.append(block("select_stage2_screen", number=number))
                parts.append(image_part(url))
        parts.append(block("select_stage2_question"))
        message = self._message(context, "select_stage2_intro", parts, screen_last=False)
        offered = [c.number for c in picks]
        schema = reply_schema("select_stage2_question").with_enum(("properties", "choice"), [*offered, None])
        number, reason = read_choice(self._chat([message], STAGE2, schema))
        if number is None:
            return None, reason
        chosen = next((c for c in picks if c.number == number), None)
        if chosen is None:
            offered = ", ".join(str(c.number) for c in picks)
            raise ReplyParseError(f"choice among the candidates offered ({offered}); it named {number}", str(number))
        return chosen, reason

    # ---- what every stage reads about the page ----

    def _message(
        self, context: dict[str, str], intro: str, material: list[dict[str, Any]], screen_last: bool = True,
        material_first: bool = False,
    ) -> Message:
        """One selection request: the step's context (task, page, history, screenshot), the call's own
        introduction and its material.

        `selection.shared_opening` (default) puts the context first, identical in every call of a step, so a
        server that keeps the previous prompt (llama.cpp's slot, vLLM's prefix cache) reads the page once per
        step; off, each call opens with its own introduction and the screenshot follows the text (the order
        before issue 28). `material_first` opens with the introduction and the material, then the context and
        the screenshot (stage 1's `selection.stage1_objectives_first`). The words are the same either way.
        """
        opening = block("select_context", **context)
        if material_first:
            parts = [block(intro), *material, opening, *self._screen]
        elif self.settings.selection.shared_opening:
            parts = [opening, *self._screen, block(intro), *material]
        elif screen_last:
            parts = [block(intro), opening, *material, *self._screen]
        else:
            parts = [block(intro), opening, *self._screen, *material]
        return {"role": "user", "content": parts}

    def _page(self, observation: Observation) -> str:
        return render(
            "select_page",
            url=observation.url,
            tabs=tab_header(observation.tabs) or page_title(observation),
            page_text=self.page_text(observation),
        )

    def _screenshot_parts(self, observation: Observation) -> list[dict[str, Any]]:
        if observation.screenshot is None or not self.settings.agent.use_screenshot:
            return []  # the policy does not see one either
        return [block("select_screenshot"), image_part(observation.screenshot)]

    # ---- calls and their cost ----

    def _chat(self, messages: list[Message], stage: str, schema: ReplySchema) -> str:
        """The reply to one selection call, held to `schema` when the role's structured_output is on."""
        return self.client.chat(self.role, messages, stage=stage, reply_schema=schema).text

    def _usage(self) -> dict[str, int]:
        ledger = self.client.ledger
        totals = [ledger.usage(stage=stage) for stage in STAGES]
        embedded = ledger.usage(stage=RANKING_STAGE)
        return {
            "calls": sum(u.calls for u in totals),
            "prompt_tokens": sum(u.prompt_tokens for u in totals),
            "completion_tokens": sum(u.completion_tokens for u in totals),
            "images": sum(u.images for u in totals),
            "embedded_texts": embedded.calls,
        }


def _difference(after: dict[str, int], before: dict[str, int]) -> dict[str, int]:
    return {key: after[key] - before.get(key, 0) for key in after}
