"""The method: the base agent (`agent.base_agent`: AgentOccam by default, or react) with, before every
action, the demonstration two-stage selection picks (given through the base agent's material hook).

    videodemo run --policy video [--no-videos | --no-trajectory-selection | --transcript-only] [--no-visual]

What the policy is shown comes from the task's videos (`task.videos`) as found in
the trajectory index (`agent.index_dir`, default `<cache>/index`); `modes` lists the
ablations. A task whose videos were never processed runs without demonstrations and
says why, once, in its first step and in the task record (`policy_info`).

Per step, `PolicyStep.info` holds the policy's reasoning, the demonstration shown
(objective, steps, keyframes: small copies are written beside the record the first
time a trajectory is shown) and the selection record (see `selection`).
"""

from __future__ import annotations

import argparse
from typing import Any

from agent.base.agent import make_base_agent, without_videos
from agent.method.selection import TwoStageSelector
from agent.method.whole_video import choose_whole_video
from agent.oracles import selection as oracle_selection
from agent.oracles.progress import LiveProgress, Page
from agent.oracles.switches import check_mode
from agent.videos.candidates import CandidateSource, method_candidates
from agent.videos.context import VideoFrames, load_task_videos
from agent.videos.demonstration import CONTINUED, SELECTED, TRANSCRIPT, WHOLE_VIDEO, Demonstration, Transcript
from agent.videos.modes import Mode, demonstration_mode
from agent.videos.question import FactualQuestion
from agent.videos.task_videos import TaskVideos, index_folder, open_index, task_videos
from evaluation.browser_env.episode_options import EpisodeOptions
from evaluation.browser_env.observation import Observation
from evaluation.running.policy import PolicyStep, declared_episode_options
from foundation.errors import UserError
from foundation.records.demonstration import DemonstrationShown
from foundation.records.step_info import StepInfo
from foundation.records.trajectory import Trajectory
from model_access.client import ModelClient
from model_access.embeddings import Embedder
from settings import Settings
from tasks.reference.solutions import ReferenceSolutions

# The factual question is asked with the last few distinct demonstrations shown, not every one.
INTERMEDIATE_DEMONSTRATIONS = 3


class VideoPolicy:
    name = "video"

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.mode = demonstration_mode(settings.agent)
        self.client = ModelClient(settings)
        self.base = make_base_agent(settings, self.client)
        self.index = None
        self.selector: TwoStageSelector | None = None
        self.source: CandidateSource | None = None
        if self.mode is not Mode.NONE:
            self.embedder = Embedder(settings, self.client.ledger)
            self.index = open_index(settings, self.embedder)
        if self.index is not None:
            self.source = method_candidates(settings, self.index, self.embedder)
        check_mode(settings, self.mode, self.name)
        # The selection oracle stands in for two-stage selection (agent/oracles/selection.py): no selection call.
        self.references = ReferenceSolutions(settings) if settings.oracle.selection else None
        if self.mode in (Mode.SELECTION, Mode.WHOLE_VIDEO) and self.references is None:
            self.client.role_settings(settings.selection.role)  # an unconfigured role fails before any task
            if self.source is not None and self.mode is Mode.SELECTION:
                # Selection reads the page as the policy renders it (the policy's hook, not a copy).
                self.selector = TwoStageSelector(settings, self.client, self.source, self.base.page_text)
        if settings.video_context.intermediate_from not in ("video", "shown"):
            raise UserError(f"video_context.intermediate_from is {settings.video_context.intermediate_from!r}; "
                            "set it to video (VideoWA's way) or shown")  # fmt: skip
        self.frames = VideoFrames(settings.video_context)
        self.env: Any = None
        # Built only when it will be asked, so a run without videos needs no VideoWA question file.
        asks = settings.video_context.intermediate_from == "video" and self.mode is not Mode.NONE
        self.question = FactualQuestion(settings, self.frames) if asks else None
        self._reset_episode()

    def _reset_episode(self) -> None:
        self.task: Any = None
        self.videos = TaskVideos()
        self.steps = 0
        self.fixed: Demonstration | None = None  # whole-video and transcript modes: the same at every step
        self.fixed_record: dict[str, Any] | None = None
        self.first_shown: dict[str, int] = {}  # demonstration key -> the step it was first shown at
        self.shown: list[Demonstration] = []  # distinct demonstrations, the most recently shown last
        self.chosen: list[dict[str, Any]] = []  # per step: what was shown (the task record's list)
        self.note: str | None = None
        self.intermediate: dict[str, Any] | None = None  # the factual question's record (agent/videos/question.py)
        self.progress: LiveProgress | None = None  # along the reference solution, under oracle.selection
        self.oracle_shown: Trajectory | None = None

    # ---- the Policy protocol ----

    def attach_environment(self, env: Any) -> None:
        self.env = env  # the selection oracle reads what each step carried out
        self.base.attach_environment(env)

    def episode_options(self, defaults: EpisodeOptions) -> EpisodeOptions:
        return declared_episode_options(self.base, defaults)  # what its base agent needs of the environment

    def reset(self, task: Any) -> None:
        self._reset_episode()
        self.task = task
        self.base.reset(task)
        if self.references is not None:
            self.progress = LiveProgress(self.references.steps(task, "oracle.selection"))
        if self.mode is Mode.NONE:
            self.note = "videos are off (agent.use_videos=false): no demonstrations"
            return
        self.videos = task_videos(task, self.index, index_folder(self.settings), self.settings.agent.videos_per_task)
        self.note = self.videos.reason
        if self.note is not None and self.mode is Mode.TRANSCRIPT:
            # Without a transcript this row would be the base agent's under another name: the task fails instead.
            raise UserError(f"--transcript-only has no transcript for this task: {self.note}")
        if self.note is not None:
            return
        if self.mode is Mode.SELECTION:
            if self.selector is not None:  # none under the selection oracle
                self.selector.reset(self.videos.processed, self.videos.titles)
        elif self.mode is Mode.WHOLE_VIDEO:
            trajectory, self.fixed_record, self.note = choose_whole_video(
                self.client, self.settings.selection.role, self.source, task.intent, self.videos.processed,
                self.videos.titles,
            )  # fmt: skip
            self.fixed = Demonstration(WHOLE_VIDEO, trajectory) if trajectory is not None else None
        else:
            self.fixed, missing = self._transcripts()
            if self.fixed is None:
                raise UserError(f"--transcript-only has no transcript for this task: {missing}")

    def act(self, observation: Observation) -> PolicyStep:
        self.steps += 1
        selection_record: dict[str, Any] | None = None
        demonstration = self.fixed
        if self.progress is not None and self.note is None:
            demonstration, selection_record = self._oracle_selection()
        elif self.selector is not None and self.note is None:
            selection = self.selector.select(self.task.intent, observation, self._history_text())
            demonstration, selection_record = selection.demonstration, selection.record
        if demonstration is not None:
            demonstration.mark_points = self.settings.agent.demonstration_mark_points
        step = self.base.step(observation, demonstration)
        if self.progress is not None:
            # The page the model acted on (the environment's latest: a base agent may have read the whole page).
            seen = getattr(self.env, "observation", None) or observation
            self.progress.chose(None, Page(list(seen.nodes.values())))
        info: dict[str, Any] = {"reasoning": step.info.reasoning or ""}
        info["demonstration"] = self._demonstration_record(demonstration)
        if self.steps == 1 and self.note is not None:
            info["reason"] = self.note
        if self.steps == 1 and self.fixed_record is not None:
            info["whole_video_choice"] = self.fixed_record
        if selection_record is not None:
            info["selection"] = selection_record
        info.update((key, value) for key, value in step.info.items() if key != "reasoning")
        return PolicyStep(step.reply, StepInfo.from_dict(info), step.error, step.memory_only, step.actions)

    def answer_intermediate(self, question: str) -> str | None:
        """VideoWA's way (`video_context.intermediate_from: video`): a question over the videos' frames and
        transcripts; with "shown", or when no video file can be read (said in the record), over what was shown."""
        if self.question is not None:
            videos, problems = load_task_videos(self.task, self.index, self.settings)
            if videos:
                answer, self.intermediate = self.question.ask(self.client, question, videos)
                return answer
            self.intermediate = {"question": question, "asked": "the demonstrations shown",
                                 "reason": "no video file to ask about: " + "; ".join(problems)}  # fmt: skip
        else:
            self.intermediate = {"question": question, "asked": "the demonstrations shown"}
        answer = self.base.ask_intermediate(question, self.shown[-INTERMEDIATE_DEMONSTRATIONS:])
        self.intermediate["answer"] = answer
        return answer

    def usage(self) -> dict[str, Any]:
        return self.client.ledger.to_dict()

    def episode_info(self) -> dict[str, Any]:
        """For the task record: the mode, the videos, why there were no demonstrations, what was shown when."""
        info: dict[str, Any] = {"mode": self.mode.value, "visual": self.settings.agent.visual}
        if self.mode is Mode.SELECTION:
            selection = self.settings.selection
            info["stage1_precut"] = (
                f"on: at most {selection.stage1_pool_per_video} objectives per video, ranked by {self.source.ranked_by}"
                if selection.stage1_precut and self.source is not None
                else "off: stage 1 reads every objective"
            )
        if self.task is not None and self.task.videos:
            info["videos"] = self.videos.to_dict()
        if self.note is not None:
            info["demonstration"] = None
            info["reason"] = self.note
        info["shown"] = self.chosen
        if self.task is not None and self.task.intermediate_intent is not None:
            info["intermediate_context"] = [d.key for d in self.shown[-INTERMEDIATE_DEMONSTRATIONS:]]
        if self.intermediate is not None:
            info["intermediate_qa"] = self.intermediate
        return info

    def close(self) -> None:
        self.base.close()
        self.client.close()

    # ---- helpers ----

    def _oracle_selection(self) -> tuple[Demonstration | None, dict[str, Any]]:
        """The selection oracle's demonstration for this step, after moving along the reference by the last step."""
        assert self.progress is not None
        record = getattr(self.env, "record", None)
        moved = self.progress.carried_out(record.steps[-1]) if self.steps > 1 and record and record.steps else None
        source = self.source
        assert source is not None
        trajectories = [t for video in self.videos.processed for t in source.trajectories(video)]
        previous = self.oracle_shown
        chosen, selection_record = oracle_selection.choose(self.progress, trajectories, self.task.intent, previous)
        selection_record["reference"] = self.progress.record()
        if moved is not None:
            selection_record["reference_done"] = moved["done"]
        self.oracle_shown = chosen or previous
        if chosen is None:
            return None, selection_record
        return Demonstration(CONTINUED if selection_record["continued"] else SELECTED, chosen), selection_record

    def _history_text(self) -> str:
        return self.base.history_text()

    def _demonstration_record(self, demonstration: Demonstration | None) -> DemonstrationShown | None:
        if demonstration is None:
            self.chosen.append({"step": self.steps, "shown": None})
            return None
        key = demonstration.key
        first = self.first_shown.get(key)
        if first is None:
            self.first_shown[key] = self.steps
            self.shown.append(demonstration)
        else:  # shown again: it becomes the most recent one
            self.shown = [d for d in self.shown if d.key != key] + [demonstration]
        self.chosen.append({"step": self.steps, "shown": key, "how": demonstration.how})
        return demonstration.record(self.settings.agent.visual, first)

    def _transcripts(self) -> tuple[Demonstration | None, str | None]:
        budget = self.settings.agent.transcript_max_chars
        transcripts, missing = [], []
        for video_id in self.videos.processed:
            record = self.index.video(video_id)
            text = (record.transcript if record is not None else "").strip()
            if not text:
                missing.append(video_id)
                continue
            share = max(1, budget // len(self.videos.processed))
            cut = text if len(text) <= share else text[:share].rstrip() + " [...]"
            transcripts.append(Transcript(video_id, self.videos.titles.get(video_id, video_id), cut))
        if not transcripts:
            return None, (f"no transcript stored for video {', '.join(missing)}: it had no subtitles and its audio was "
                          "not transcribed; configure models.asr and run process-videos again (docs/processing.md)")
        return Demonstration(TRANSCRIPT, transcripts=transcripts), None


def build_video_policy(settings: Settings, args: argparse.Namespace) -> VideoPolicy:
    if demonstration_mode(settings.agent) is Mode.NONE:  # --no-videos: the base agent alone
        settings = without_videos(settings)
    return VideoPolicy(settings)
