"""`--policy replay`: follow a demonstration step by step on the live page, with no model (a baseline).

    videodemo run --policy replay [--no-trajectory-selection | --no-videos]

Before each step a trajectory is chosen (`embedding_selection`: kept while its next
step grounds, else chosen again from the task's videos), or, with
`agent.trajectory_selection` off, the longest trajectory of the most relevant video
is chosen once and followed, skipping steps that cannot be done. The next
demonstrated action is then carried out on the live page (`steps`):
- its element is found by text similarity (`grounding`), in view or in the
  whole page; scrolls and hovers are not replayed (elements out of view are found
  in the whole page and scrolled to by the action itself);
- values the demonstration used that the task does not name (a search term, a
  colour, a typed title, a product link, a forum) are replaced by the task's
  (`values`); a field that already holds text is cleared first;
- at the end of the trajectory, or when nothing grounds, it stops: with the answer
  read off the page when the task asks a question (`answers`), else empty.
With `agent.use_videos` off there is nothing to follow: it stops at once and says so.

Every step's `PolicyStep.info` records the selection decision, the demonstration
(objective, actions, keyframes), the demonstrated action, where it grounded (node,
similarity) and any substitution. It is an honest baseline for the VLM method,
never a stand-in for it.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from agent.oracles.progress import LiveProgress
from agent.oracles.switches import check_mode
from agent.replay import oracle_selection
from agent.replay.answers import is_question, read_answer
from agent.replay.embedding_selection import EmbeddingSelector
from agent.videos.evidence import evidence, explained, explanation, reached, terms_for, undoes_unasked
from agent.replay.grounding import Grounder, PageView
from agent.replay.oracle_grounding import OracleGrounder, oracle_page
from agent.replay.oracle_values import reference_answer, reference_values
from agent.replay.steps import Plan, StepPlanner
from agent.videos.intent_values import intent_values
from agent.replay.whole_video_by_embeddings import choose_by_embeddings
from agent.videos.candidates import CandidateSource
from agent.videos.demonstration import CONTINUED as SHOWN_CONTINUED
from agent.videos.demonstration import SELECTED, WHOLE_VIDEO, Demonstration
from agent.videos.modes import Mode, demonstration_mode
from agent.videos.page import page_title
from agent.videos.stage1_ranking import FirstStep, RankingQuery
from agent.videos.task_videos import TaskVideos, index_folder, open_index, task_videos
from evaluation.browser_env.ax_tree import TreeNode
from evaluation.browser_env.observation import Observation
from evaluation.running.policy import PolicyStep
from foundation.errors import UserError
from foundation.records.demonstration import DemonstrationShown
from foundation.records.step_info import StepInfo
from foundation.records.trajectory import LabeledAction, Trajectory
from model_access.embeddings import Embedder, MemoEncoder
from settings import Settings
from tasks.reference.solutions import ReferenceSolutions

MEMO_LIMIT = 50_000  # names whose vectors stay in memory (about 75 MB at 384 floats each)
POLICY_NOTE = "model-free baseline: replays a demonstration; not the VLM method"
SKIPPED_KINDS = {
    "scroll": "scrolls are not replayed: elements out of view are found in the whole page",
    "hover": "hovering changes nothing to replay",
    "drag": "drags are not replayed",
}


class ReplayPolicy:
    name = "replay"
    reads_screenshots = False  # with run.step_screenshots off, its episodes take none

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.mode = demonstration_mode(settings.agent)
        if self.mode is Mode.TRANSCRIPT:
            raise UserError("the replay policy follows trajectories, not narration: drop --transcript-only")
        self.embedder = Embedder(settings)
        self._vectors = MemoEncoder(self.embedder, "replay_grounding", MEMO_LIMIT)
        oracle = settings.oracle
        check_mode(settings, self.mode, self.name)
        # The oracles' ground truth: the tasks' reference solutions (docs/baselines.md, "The oracle ladder").
        self.references = ReferenceSolutions(settings) if oracle.selection or oracle.grounding or oracle.values else None
        self.oracle_grounder = OracleGrounder() if oracle.grounding else None
        grounder = self.oracle_grounder or Grounder(self._encode, settings.replay.grounding_min_similarity)
        self.planner = StepPlanner(grounder, settings.replay.substitution_min_similarity, self._page_url)
        self.index = open_index(settings, self.embedder) if self.mode is not Mode.NONE else None
        selection = settings.selection
        self.source = (
            CandidateSource(self.index, selection.stage1_pool_per_video, demonstrations=selection.demonstrations)
            if self.index
            else None
        )
        self.selector = EmbeddingSelector(settings, self.source, self._encode) if self.source else None
        self.env: Any = None
        self._reset_episode()

    def _reset_episode(self) -> None:
        self.task: Any = None
        self.videos = TaskVideos()
        self.note: str | None = None
        self.current: Trajectory | None = None
        self.position = 0
        self.followed: set[str] = set()
        self.replayed: dict[str, int] = {}  # video -> furthest step index replayed
        self.whole_video_record: dict[str, Any] | None = None
        self.first_shown: dict[str, int] = {}
        self.shown: list[dict[str, Any]] = []
        self.steps = 0
        self.last_entry = 0  # the step of `current` the last action carried out
        self.progress: LiveProgress | None = None  # along the reference solution, with an oracle on
        self.done: set[str] = set()  # what of the task the steps carried out explain (agent/videos/evidence.py)
        self.typed = False  # the last step carried out was explained typing (a commit click may follow)

    # ---- the Policy protocol ----

    def attach_environment(self, env: Any) -> None:
        self.env = env

    def reset(self, task: Any) -> None:
        self._reset_episode()
        self.task = task
        self.planner.begin(task.intent, intent_values(task.intent))
        if self.references is not None:
            oracle = self.settings.oracle
            switch = next(f"oracle.{name}" for name in ("selection", "grounding", "values") if getattr(oracle, name))
            self.progress = LiveProgress(self.references.steps(task, switch))
        if self.oracle_grounder is not None:
            self.oracle_grounder.progress = self.progress
        if self.mode is Mode.NONE:
            self.note = "videos are off (agent.use_videos=false): there is no demonstration to replay, so it stops"
            return
        self.videos = task_videos(task, self.index, index_folder(self.settings))
        if not self.videos.processed and self.index is not None and self.index.videos():
            # A task naming no processed video may still use the tutorials at hand, as the sandbox does.
            self.videos.processed = list(self.index.videos())
        self.note = None if self.videos.processed else (self.videos.reason or "no processed video")
        if self.note is not None:
            return
        if self.mode is Mode.SELECTION:
            self.selector.reset(self.videos.processed)  # type: ignore[union-attr]
        else:
            self.current, self.whole_video_record = choose_by_embeddings(
                self.source, task.intent, self.videos.processed, self.videos.titles  # type: ignore[arg-type]
            )
            self.followed.add(self.current.trajectory_id)

    def act(self, observation: Observation) -> PolicyStep:
        self.steps += 1
        page = PageView(observation.nodes, self._full_page_nodes if self.env is not None else None)
        info: dict[str, Any] = {"policy": POLICY_NOTE}
        self._follow_reference(info)
        if self.note is not None:
            info["reason"] = self.note
            return self._stop(page, info, self.note)
        if self.steps == 1 and self.whole_video_record is not None:
            info["whole_video_choice"] = self.whole_video_record
        skipped: list[str] = []
        if self.mode is Mode.SELECTION and self.settings.oracle.selection:
            plan = self._oracle_selected_step(page, info, skipped)
        elif self.mode is Mode.SELECTION:
            plan = self._selected_step(observation, page, info, skipped)
        else:
            plan = self._whole_video_step(page, skipped)
        if skipped:
            info["skipped"] = skipped
        if plan is not None and self.settings.oracle.values:
            plan = reference_values(plan, self.progress, oracle_page(page))  # type: ignore[arg-type]
        if self.progress is not None:
            self.progress.chose(plan.action if plan is not None else None, oracle_page(page))
        if self.current is not None:
            newly_chosen = info.get("selection", {}).get("decision") == "reselected"
            info["demonstration"] = self._demonstration_record(plan is not None and newly_chosen)
        if plan is None:
            return self._stop(page, info, info.get("stop_reason", "the demonstration is finished"))
        step = self.current.actions[self.position] if self.current else None  # type: ignore[index]
        info["demonstrated"] = {"step": self.position + 1, "action": step.describe() if step else ""}
        info["replayed"] = plan.record()
        self.last_entry = self.position
        self._advance(plan)
        return PolicyStep(plan.action, StepInfo.from_dict(info))

    def answer_intermediate(self, question: str) -> str | None:
        return None  # nothing to ask: the replay policy cannot read a video's content back

    def usage(self) -> dict[str, Any]:
        return self.embedder.ledger.to_dict()

    def episode_info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"mode": self.mode.value, "policy": POLICY_NOTE}
        if self.task is not None and self.task.videos:
            info["videos"] = self.videos.to_dict()
        if self.note is not None:
            info["demonstration"] = None
            info["reason"] = self.note
        info["shown"] = self.shown
        return info

    def close(self) -> None:
        self.env = None

    # ---- what the selection probe asks (agent/replay/probe.py) ----

    def checkpoint(self) -> dict[str, Any]:
        """What an action changes of the episode's memory, to take it back (`forget`)."""
        return {"replayed": dict(self.replayed), "followed": set(self.followed), "done": set(self.done),
                "typed": self.typed, "used": set(self.planner.used_values), "cleared": self.planner.cleared}  # fmt: skip

    def forget(self, checkpoint: dict[str, Any]) -> None:
        """Take back the last action, as if it had not been carried out, and drop the trajectory being followed:
        the next step selects again."""
        self.current, self.position = None, 0
        self.replayed, self.followed = checkpoint["replayed"], checkpoint["followed"]
        self.done, self.typed = checkpoint["done"], checkpoint["typed"]
        self.planner.used_values, self.planner.cleared = checkpoint["used"], checkpoint["cleared"]

    def stage1_ranking(self, observation: Observation) -> list[str]:
        """Every trajectory of the task's videos in stage 1's order on this page (best first), none passed over."""
        if self.selector is None or self.task is None:
            return []
        query = self._query(observation)
        ranked = [c for video in self.videos.processed for c in self.selector.ranked(video, query, set(), depth=None)]
        return [c.trajectory.trajectory_id for c in sorted(ranked, key=lambda c: -c.stage1)]

    def plan_first_step(self, trajectory: Trajectory, page: PageView, memo: dict) -> tuple[int, Plan | None]:
        """The trajectory's first replayed step and its plan on this page (None: it cannot start here); spans sharing
        a first step are planned once per `memo`."""
        start = _first_actionable(trajectory.actions, 0)
        if start is None:
            return len(trajectory.actions), None
        key = (trajectory.video_id, trajectory.span[0] + start)
        if key not in memo:
            memo[key] = self.planner.plan(trajectory.actions, start, page)
        return start, memo[key]

    def stage1_candidates(self, observation: Observation) -> list[str]:
        """The candidates stage 1 would list on this page if it selected now."""
        if self.selector is None or self.task is None or not self.videos.processed:
            return []
        page = PageView(observation.nodes, self._full_page_nodes if self.env is not None else None)
        _, _, _, record = self._select(observation, page, None, "")
        return list(record.get("stage1", {}).get("picks", []))

    # ---- choosing what to replay ----

    def _selected_step(self, observation: Observation, page: PageView, info: dict, skipped: list[str]) -> Plan | None:
        """Continue the current trajectory when its next step grounds, else select again (once per step)."""
        why = ""
        kept: Plan | None = None  # the current trajectory's next step, kept if selecting again finds nothing
        if self.current is not None:
            plan = self._next_plan(page, skipped)
            off_task = self._rest_off_task() if plan is not None else ""
            if plan is not None and not off_task:
                info["selection"] = EmbeddingSelector.continued(
                    self.current, self.position + 1, plan.describe()
                )
                return plan
            if off_task == "repeats":
                why = f"its step {self.position + 1} repeats what the task has had done (the tutorial's next example)"
            elif off_task == "undoes":
                why = f"its step {self.position + 1} takes back what the task did, which the task does not ask for"
            elif off_task:
                # A detour is the way on only while the task has values still to put in (a "View Order" before
                # the task's order); with all of them in, it is the tutorial's own business (a "Remove").
                kept = plan if any(v.text not in self.planner.used_values for v in self.planner.values) else None
                why = f"the rest of it from step {self.position + 1} does no more of the task than it does besides"
            elif self.position >= len(self.current.actions) and not self.settings.replay.select_after_end:
                info["stop_reason"] = f"the demonstration {self.current.trajectory_id} is finished"
                return None
            elif self.position >= len(self.current.actions):
                why = f"the demonstration {self.current.trajectory_id} is finished"
            else:
                failing = self.current.actions[self.position].describe()
                why = f"its step {self.position + 1} ({failing}) does not ground here"
        previous = self.current
        chosen, start, plan, record = self._select(observation, page, previous, why)
        if chosen is None and kept is not None and previous is not None:
            # Nothing else does more of the task here: a step the task does not name (a "View Order") may still be
            # the way on, as the tutorial shows it.
            info["selection"] = EmbeddingSelector.continued(previous, self.position + 1, kept.describe())
            info["selection"]["continuation"]["reason"] += f"; {why}, and no other trajectory does more here"
            return kept
        info["selection"] = record
        if chosen is None:
            self.current = previous  # kept for the record; nothing more is replayed
            info["stop_reason"] = record["reason"]
            return None
        self.current, self.followed = chosen, self.followed | {chosen.trajectory_id}
        skipped += [f"{a.describe()}: {SKIPPED_KINDS.get(a.kind, '')}" for a in chosen.actions[:start]]
        self.position = start
        return plan

    def _select(
        self, observation: Observation, page: PageView, previous: Trajectory | None, why: str
    ) -> tuple[Trajectory | None, int, Plan | None, dict[str, Any]]:
        """Stages 1 and 2 on this page, changing nothing: the choice, the step it starts at, that step's plan, and
        the record of the decision."""
        query = self._query(observation)
        plans: dict[str, tuple[int, Plan | None]] = {}
        by_step: dict[tuple[str, int], Plan | None] = {}  # spans sharing a first step are grounded once

        def first_step(trajectory: Trajectory) -> FirstStep:
            start = _first_actionable(trajectory.actions, 0)
            plan = None
            if start is not None:
                key = (trajectory.video_id, trajectory.span[0] + start)
                if key not in by_step:
                    by_step[key] = self.planner.plan(trajectory.actions, start, page)
                plan = by_step[key]
            plans[trajectory.trajectory_id] = (start if start is not None else len(trajectory.actions), plan)
            if plan is None:
                return FirstStep(None, False, "nothing to do" if start is None else "does not ground here")
            after = _first_on_an_element(trajectory.actions, start) if self.settings.replay.start_past_keys else None
            if after is not None:
                # A key (Control+A) can be pressed on any page: its trajectory starts here only if the step on an
                # element it leads to grounds here too.
                key = (trajectory.video_id, trajectory.span[0] + after)
                if key not in by_step:
                    by_step[key] = self.planner.plan(trajectory.actions, after, page)
                if by_step[key] is None:
                    return FirstStep(None, False, f"its first step on an element (step {after + 1}) does not ground here")
            return FirstStep(plan.similarity, True, plan.describe())

        def replayed(trajectory: Trajectory) -> bool:
            furthest = self.replayed.get(trajectory.video_id)
            return furthest is not None and trajectory.span[0] <= furthest

        assert self.selector is not None
        chosen, record = self.selector.select(query, first_step, replayed, self.followed, previous, why)
        if chosen is None:
            return None, 0, None, record
        start, plan = plans[chosen.trajectory_id]
        return chosen, start, plan, record

    def _query(self, observation: Observation) -> RankingQuery:
        title, done = page_title(observation), frozenset(self.done)
        names = [title] + [node.name for node in observation.nodes.values()]
        found = reached(terms_for(self.task.intent, self.settings.replay), done, names)
        return RankingQuery(self.task.intent, title, done, found)

    def _rest_off_task(self) -> str:
        """With `replay.continue_while` "explained", why the current trajectory's rest (from the step it would carry
        out next) is off the task: "repeats" (that step repeats what the task has had done: the tutorial going on to
        its next example), "undoes" (that step takes back something the task does not ask to take back, with
        `replay.follow_undoing_detours` off), "unexplained" (the rest does no more of the task than it does
        besides); "" when on it."""
        replay = self.settings.replay
        if replay.continue_while == "grounds":
            return ""
        if replay.continue_while != "explained":
            raise UserError(f'replay.continue_while is "{replay.continue_while}": use "grounds" or "explained"')
        assert self.current is not None and self.task is not None
        rest = self.current.actions[self.position :]
        terms = terms_for(self.task.intent, self.settings.replay)
        step = explanation(rest[0], terms) if rest else None
        if step and step in self.done:
            return "repeats"
        if rest and not replay.follow_undoing_detours and undoes_unasked(rest[0], terms):
            return "undoes"
        done = frozenset(self.done)
        return "unexplained" if evidence(rest, terms, replay.evidence_gain, replay.evidence_cost, done) <= 0 else ""

    def _oracle_selected_step(self, page: PageView, info: dict, skipped: list[str]) -> Plan | None:
        """The selection oracle (agent/replay/oracle_selection.py): continue while the trajectory's next step
        does the reference's next step here, else choose what does."""
        assert self.progress is not None
        here = oracle_page(page)
        why = ""
        if self.current is not None:
            position, skipped_before = self.position, len(skipped)
            plan = self._next_plan(page, skipped)
            if plan is not None and self.progress.on_track(plan.action, here):
                info["selection"] = oracle_selection.continued(self.current, self.position + 1, plan, self.progress)
                return plan
            if plan is None:
                why = f"the demonstration {self.current.trajectory_id} is finished or its next step does not ground"
            else:
                why = f"its step {self.position + 1} ({plan.describe()}) is not the reference's next step"
            self.position = position
            del skipped[skipped_before:]
        planned: dict[tuple[str, int, int], Plan | None] = {}  # spans sharing a first step are planned once

        def plan_first(trajectory: Trajectory) -> tuple[int, Plan | None]:
            start = _first_actionable(trajectory.actions, 0)
            if start is None:
                return len(trajectory.actions), None
            key = (trajectory.video_id, trajectory.span[0] + start, self.progress.target)  # type: ignore[union-attr]
            if key not in planned:
                planned[key] = self.planner.plan(trajectory.actions, start, page)
            return start, planned[key]

        source = self.source
        assert source is not None
        trajectories = [t for video in self.videos.processed for t in source.trajectories(video)]
        previous = self.current
        chosen, start, plan, record = oracle_selection.select(
            self.progress, trajectories, self.task.intent, plan_first, here, previous, why
        )
        info["selection"] = record
        if chosen is None:
            info["stop_reason"] = record["reason"]
            return None
        self.current, self.followed = chosen, self.followed | {chosen.trajectory_id}
        skipped += [f"{a.describe()}: {SKIPPED_KINDS.get(a.kind, '')}" for a in chosen.actions[:start]]
        self.position = start
        return plan

    def _follow_reference(self, info: dict[str, Any]) -> None:
        """With an oracle on: move along the reference solution by the action the last step carried out."""
        if self.progress is None:
            return
        record = self.env.record if self.env is not None else None
        if self.steps > 1 and record is not None and record.steps:
            moved = self.progress.carried_out(record.steps[-1])
            if moved is not None:
                info["reference_done"] = moved["done"]
        info["reference"] = self.progress.record()

    def _whole_video_step(self, page: PageView, skipped: list[str]) -> Plan | None:
        """No selection: the next step of the one trajectory that can be done here; steps that cannot are skipped."""
        assert self.current is not None
        plan = self._next_plan(page, skipped)
        while plan is None and self.position < len(self.current.actions):
            skipped.append(f"{self.current.actions[self.position].describe()}: does not ground here")
            self.position += 1
            plan = self._next_plan(page, skipped)
        return plan

    def _next_plan(self, page: PageView, skipped: list[str]) -> Plan | None:
        """The plan for the current trajectory's next actionable step (skipping scrolls and hovers), or None."""
        assert self.current is not None
        actions = self.current.actions
        start = _first_actionable(actions, self.position)
        if start is None:
            skipped += [f"{a.describe()}: {SKIPPED_KINDS.get(a.kind, '')}" for a in actions[self.position :]]
            self.position = len(actions)
            return None
        plan = self.planner.plan(actions, start, page)
        if plan is not None and start > self.position:
            skipped += [f"{a.describe()}: {SKIPPED_KINDS.get(a.kind, '')}" for a in actions[self.position : start]]
            self.position = start
        return plan

    def _advance(self, plan: Plan) -> None:
        assert self.current is not None and self.task is not None
        self.planner.commit(plan)
        terms = terms_for(self.task.intent, self.settings.replay)
        for action in self.current.actions[self.position : self.position + plan.advance]:  # none for a clear
            why = explained(action, terms, self.done, self.typed)
            if why == "":
                continue
            if why:
                self.done.add(why)
            self.typed = bool(why and why.startswith("typed:"))
        if plan.advance:
            video = self.current.video_id
            index_in_video = self.current.span[0] + self.position + plan.advance - 1
            self.replayed[video] = max(self.replayed.get(video, -1), index_in_video)
        self.position += plan.advance

    # ---- stopping ----

    def _stop(self, page: PageView, info: dict[str, Any], reason: str) -> PolicyStep:
        answer = ""
        if self.task is not None and is_question(self.task.intent) and self.note is None:
            found = read_answer(self.task.intent, page.full() or page.view, self.planner.values)
            if self.settings.oracle.values and self.progress is not None:
                found = reference_answer(self.progress) or found
            info["answer"] = found.to_dict()
            answer = found.text.replace("]", ")")
        info["stop_reason"] = reason
        return PolicyStep(f"stop [{answer}]", StepInfo.from_dict(info))

    def _encode(self, texts: list[str]) -> np.ndarray:
        """Unit vectors of `texts`, kept in memory: the same names come back at every step and every task."""
        return self._vectors(texts)

    def _page_url(self) -> str:
        return self.env.url if self.env is not None else ""

    def _full_page_nodes(self) -> dict[str, TreeNode]:
        return self.env.observe_full_page().nodes

    # ---- records ----

    def _demonstration_record(self, newly_chosen: bool) -> DemonstrationShown:
        trajectory = self.current
        assert trajectory is not None
        key = trajectory.trajectory_id
        how = WHOLE_VIDEO if self.mode is Mode.WHOLE_VIDEO else (SELECTED if newly_chosen else SHOWN_CONTINUED)
        first = self.first_shown.get(key)
        if first is None:
            self.first_shown[key] = self.steps
        self.shown.append({"step": self.steps, "shown": key, "how": how})
        return Demonstration(how, trajectory).record(visual=True, shown_at_step=first)


def _first_actionable(actions: list[LabeledAction], start: int) -> int | None:
    """The first step at or after `start` that is replayed (not a scroll, hover or drag)."""
    for position in range(start, len(actions)):
        if actions[position].kind not in SKIPPED_KINDS:
            return position
    return None


def _first_on_an_element(actions: list[LabeledAction], start: int) -> int | None:
    """When the step at `start` is a key press: the first replayed step after it that acts on an element (None: the
    step is no key press, or no such step follows)."""
    if actions[start].kind != "press":
        return None
    for position in range(start + 1, len(actions)):
        if actions[position].kind not in SKIPPED_KINDS and actions[position].kind != "press":
            return position
    return None


def build_replay_policy(settings: Settings, args: argparse.Namespace) -> ReplayPolicy:
    return ReplayPolicy(settings)
