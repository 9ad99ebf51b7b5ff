"""Tutorial videos to objective-tagged trajectories in the index: the stages of one video, and many videos.

Per video, in order (each stage's output cached in `artifacts`, keyed by its inputs):
changed_frames -> labeling -> merging -> action_filtering -> trajectories ->
trajectory_filtering -> index. A stage whose key matches its stored output is not
run; a killed run loses at most the stage in progress, and even that stage's
finished model calls replay from the model-call cache.

A video's artifact folder has one writer: the command processing the video holds the
folder's lock (foundation/folder_lock.py) while it does, and another command that comes
to the same video skips it with one line naming the holder (its outcome says so).

Videos run in parallel threads (`--workers`). Threads suffice: the work that is not
waiting on a model server is ffmpeg (a subprocess) and OpenCV/NumPy frame
comparison, which release the GIL, and all model calls share one `ModelClient`,
so `models.max_concurrency` bounds the requests in flight across every video.
"""

from __future__ import annotations

import logging
import os
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from foundation.errors import UserError
from foundation.folder_lock import FolderBusy, FolderLock
from model_access.client import ModelClient
from model_access.embeddings import Embedder
from model_access.health import EndpointDown, check_endpoints
from model_access.retry import error_summary
from model_access.sampling import sampling_scope
from processing import artifacts as art
from processing.artifacts import VideoArtifacts, digest, stage_key
from processing.call_plan import plan_calls
from processing.changed_frames import KeyFrame, detect_changed_frames
from processing.index import TrajectoryIndex
from processing.oracle_labels import processed_dir
from processing.plugins import Clip, create_labeler, create_objective_maker
from foundation.records.trajectory import LabeledAction, Trajectory, VideoRecord
from processing.stages import action_filtering, merging, trajectory_filtering
from processing.stages.asking import StageStats
from processing.stages.spoiling import spoil_actions
from processing.narration import NARRATION_VERSION, narrate, read_cues
from processing.stages.trajectories import build_trajectory, subsequences, whole_video_trajectory
from processing.summary import RunSummary, StageRun, VideoOutcome
from processing.transcripts import VTT_NAME, needs_speech_recognition, planned_transcript_calls, video_transcript
from settings.schema import Settings

log = logging.getLogger(__name__)

CHANGED_FRAMES_SETTINGS = (
    "sample_fps", "change_threshold", "diff_width", "diff_noise_floor", "pointer_allowance", "keyframe_quality",
    "decode_frames",
)  # fmt: skip


def _transcript_note(data: dict[str, Any], vtt: Path) -> str:
    if not data["source"]:
        return f"none ({data['reason']})"
    pieces, silent, dropped = data.get("pieces", 0), data.get("silent_pieces", 0), data.get("dropped", 0)
    details = [f"{pieces} piece(s) of audio"] if pieces > 1 else []
    details += [f"{silent} silent, not sent"] if silent else []
    details += [f"{dropped} segment(s) without speech dropped"] if dropped else []
    # Where the timed cues are, so a reader can check them against the video.
    return f"from {data['source']}" + (f" ({', '.join(details)})" if details else "") + f", cues in {vtt}"


class _NotCached(Exception):
    """Dry run: the stage would have to run; the stages after it are unknown."""


@dataclass
class _Video:
    """What one video's stages have produced so far."""

    record: VideoRecord
    files: VideoArtifacts
    outcome: VideoOutcome
    dry_run: bool = False
    tag: str = ""  # "[2/5]": which of the run's videos it is, for progress lines
    keyframes: list[KeyFrame] = field(default_factory=list)
    keyframes_digest: str = ""
    transcript_plan: tuple[int, str] | None = None  # dry run, transcript not stored: (requests, why)
    frames_detected: bool = False  # dry run: the changed frames were detected for the count, not stored


class _AsrSkipped(UserError):
    """A video that needs speech recognition in a run whose ASR server failed the pre-run check."""


class Pipeline:
    def __init__(
        self,
        settings: Settings,
        client: ModelClient,
        index: TrajectoryIndex | None,
        *,
        recompute: bool = False,
        report: Callable[[str], None] = print,
    ) -> None:
        self.settings = settings
        self.client = client
        self.index = index
        self.recompute = recompute
        self.labeler = create_labeler(settings)
        self.objective_maker = create_objective_maker(settings)
        self._report = report
        self._report_lock = threading.Lock()
        # Set when a model role's server went down mid-run: no further video is started.
        self.stopped: str = ""
        self.not_started: list[str] = []
        # Set when the ASR server failed the pre-run check: speech recognition is skipped, one line per video.
        self.asr_skipped: str = ""
        # (video id, trajectories) kept in the index because this run kept none of the video's (replace_empty_index).
        self.kept_earlier: list[tuple[str, int]] = []

    # -- checks before any video ------------------------------------------------------------------

    def required_roles(self) -> list[str]:
        """Model roles the configured stages call: checked before any video is touched."""
        p = self.settings.processing
        roles = list(self.labeler.roles) + list(self.objective_maker.roles)
        if len(self.labeler.roles) or p.action_filtering:
            roles.append("llm")  # merging (clips from a labeler that calls a model) and action filtering
        if p.trajectory_filtering:
            roles.append("vlm")
        if self.client.is_configured("asr"):
            roles.append("asr")  # optional: transcripts of videos without subtitles (processing/transcripts.py)
        return list(dict.fromkeys(roles))

    def check_roles(self) -> None:
        roles = self.required_roles()
        required = [role for role in roles if role != "asr"]  # transcripts are optional: never stop the run
        missing: list[tuple[str, UserError]] = []
        for role in required:
            try:
                self.client.role_settings(role)  # a clear one-line UserError when the role is not set up
            except UserError as exc:
                if not self._switches_needing(role):
                    raise
                missing.append((role, exc))
        if missing:
            # Only stages that can be switched off need these roles: name every flag at once.
            switches = [flag for role, _ in missing for flag in self._switches_needing(role)]
            raise UserError(f"{missing[0][1]}; or, to run without "
                            f"{' and '.join(repr(role) for role, _ in missing)}, add {' '.join(switches)}")
        if self.settings.models.check_before_run:
            check_endpoints(self.client, required)  # one short request each: a dead server stops us here
            if "asr" in roles:
                try:
                    check_endpoints(self.client, ["asr"])
                except UserError as exc:
                    asr = self.settings.models.asr
                    cause = error_summary(exc.__cause__) if exc.__cause__ is not None else str(exc)
                    self.asr_skipped = f"the ASR server at {asr.base_url} did not answer the check before the run"
                    # The command goes on: say so, and how to add the missing transcripts later.
                    log.warning(
                        "speech recognition is off for this run: model role 'asr' (%s) at %s does not answer (%s); "
                        "videos without subtitles get no transcript; start the server (or fix models.asr.base_url) "
                        "and process them again to add it",
                        asr.model, asr.base_url, cause,
                    )  # fmt: skip

    def _switches_needing(self, role: str) -> list[str]:
        """The flags that turn off every stage of this run that calls `role` (none when the labeler or the
        objective maker needs it)."""
        p = self.settings.processing
        if role in self.labeler.roles or role in self.objective_maker.roles:
            return []
        needing = {"llm": [p.action_filtering and "--no-action-filtering"],
                   "vlm": [p.trajectory_filtering and "--no-trajectory-filtering"]}  # fmt: skip
        switches = [flag for flag in needing.get(role, []) if flag]
        if role == "llm" and len(self.labeler.roles):
            return []  # merging the labeler's clips needs it whatever the flags
        return switches

    # -- running ----------------------------------------------------------------------------------

    def summary(self, outcomes: list[VideoOutcome], problems: list[tuple[str, str]], seconds: float) -> RunSummary:
        """The run's summary: what each video gave, what never reached processing, the model usage
        and the index as it stands now."""
        index = self.index
        return RunSummary(
            outcomes, problems, self.client.ledger, seconds,
            index_dir=str(index.folder) if index is not None else "",
            index_trajectories=len(index) if index is not None else 0,
            index_videos=len(index.videos()) if index is not None else 0,
        )  # fmt: skip

    def run(self, videos: list[VideoRecord], workers: int = 1) -> list[VideoOutcome]:
        """Process every video (`workers` at a time); a failing video is reported and the others go on,
        unless a model role's server went down: then no further video starts (`stopped`, `not_started`)."""
        total = len(videos)
        numbered = [(n, video) for n, video in enumerate(videos, 1)]
        if workers <= 1 or total <= 1:
            outcomes = [self.process_held(video, f"[{n}/{total}]") for n, video in numbered]
        else:
            with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="video") as pool:
                outcomes = list(pool.map(lambda item: self.process_held(item[1], f"[{item[0]}/{total}]"), numbered))
        return [outcome for outcome in outcomes if outcome is not None]

    def hold(self, video: VideoRecord, tag: str = "") -> FolderLock | VideoOutcome:
        """This command's lock on the video's artifact folder, or, when another command holds it, the
        video's outcome saying so (the video is left to that command)."""
        lock = FolderLock(
            VideoArtifacts(processed_dir(self.settings), video.video_id).folder,
            advice="this video is left to it (run again once it ends to pick up what it stored)",
        )
        try:
            return lock.acquire()
        except FolderBusy as exc:
            self._report_line(f"{tag} {video.video_id}: skipped: {exc}".strip())
            return VideoOutcome(video.video_id, ok=False, reason=f"skipped: {exc}")

    def process_held(self, video: VideoRecord, tag: str = "") -> VideoOutcome | None:
        """`process` while holding the video's folder; skipped when another command holds it."""
        if self.stopped:  # no lock taken (and no folder made) for a video that will not start
            return self.process(video, tag)
        held = self.hold(video, tag)
        if isinstance(held, VideoOutcome):
            return held
        try:
            return self.process(video, tag)
        finally:
            held.release()

    def process(self, video: VideoRecord, tag: str = "") -> VideoOutcome | None:
        """Run the stages of one video; None (and the video listed in `not_started`) once the run stopped."""
        if self.stopped:
            self.not_started.append(video.video_id)
            return None
        state = self._start(video, tag, dry_run=False)
        self._say(state, f"{video.duration_s:.1f} s video from {video.source} ({video.path})")
        try:
            # A drawn model reply belongs to this video: a resumed video finds its own, two videos never share one.
            with sampling_scope(video.video_id, sample=self.settings.run.sample):
                self._stages(state)
        except EndpointDown as exc:
            state.outcome.ok, state.outcome.reason = False, str(exc)
            self.stopped = str(exc)
            self._say(state, f"failed, and no further video starts: {exc}")
        except UserError as exc:
            state.outcome.ok, state.outcome.reason = False, str(exc)
            self._say(state, f"failed: {exc}")
        except Exception as exc:  # a bug must not cost the other videos their run; the traceback goes to the log
            log.exception("processing %s failed", video.video_id)
            state.outcome.ok, state.outcome.reason = False, f"internal error: {type(exc).__name__}: {exc}"
            self._say(state, f"failed: {state.outcome.reason}")
        return state.outcome

    def plan(self, video: VideoRecord) -> dict[str, Any]:
        """Dry run of one video: which stages are stored, and how many model calls the others need. Sends nothing."""
        state = self._start(video, "", dry_run=True)
        try:
            self._stages(state)
        except _NotCached:
            pass
        except UserError as exc:
            return {"video_id": video.video_id, "error": str(exc)}
        return self._estimate(state)

    # -- the stages of one video --------------------------------------------------------------------

    def _start(self, video: VideoRecord, tag: str, dry_run: bool) -> _Video:
        files = VideoArtifacts(processed_dir(self.settings), video.video_id)
        state = _Video(video, files, VideoOutcome(video.video_id, ok=True), dry_run=dry_run, tag=tag)
        if not dry_run:
            art.write_json_atomic(files.folder / "video.json", video.to_dict())
        return state

    def _stages(self, state: _Video) -> None:
        outcome = state.outcome
        self._transcript(state)
        keyframe_data = self._changed_frames(state)
        state.keyframes = [KeyFrame.from_json(item, state.files.folder) for item in keyframe_data]
        state.keyframes_digest = digest(keyframe_data)
        outcome.keyframes = len(state.keyframes)
        if not state.keyframes:
            raise UserError(f"video {state.record.path} gave no frames: check it plays, or remove it")

        clip_data = self._stage(
            state,
            "labeling",
            inputs={"keyframes": state.keyframes_digest},
            identity=self.labeler.identity(),
            compute=lambda: self._label(state),
            note=lambda data: f"{len(data)} clip(s), {sum(len(c['actions'] or []) for c in data)} actions",
        )
        merged_data = self._stage(
            state,
            "merging",
            inputs={"clips": digest(clip_data)},
            identity=merging.identity(self.settings),
            compute=lambda: self._merge(state, clip_data),
            note=lambda data: f"{len(data)} actions",
        )
        outcome.labeled_actions = len(merged_data)
        filtered_data = self._stage(
            state,
            "action_filtering",
            inputs={
                "actions": digest(merged_data),
                "video": action_filtering.video_inputs(state.record, self.settings),
            },
            identity=action_filtering.identity(self.settings),
            compute=lambda: self._filter_actions(state, merged_data),
            note=lambda data: f"{len(data['kept'])} of {len(merged_data)} actions kept",
        )
        actions = [LabeledAction.from_dict(a) for a in filtered_data["actions"]]
        outcome.actions = len(actions)
        limit = self.settings.processing.max_trajectory_actions
        named_data = self._stage(
            state,
            "trajectories",
            inputs={"actions": digest(filtered_data["actions"]), "keyframes": state.keyframes_digest},
            identity={"max_trajectory_actions": limit, "maker": self.objective_maker.identity()},
            compute=lambda: self._name_objectives(state, actions),
            note=lambda data: f"{len(data['named'])} of {data['asked']} subsequences named an objective",
        )
        outcome.spans, outcome.named = named_data["asked"], len(named_data["named"])
        checked = self._stage(
            state,
            "trajectory_filtering",
            inputs={"named": digest(named_data), "keyframes": state.keyframes_digest},
            identity=trajectory_filtering.identity(self.settings),
            compute=lambda: self._check(state, actions, named_data),
            note=lambda data: f"{len(data['kept'])} kept, {len(data['dropped'])} dropped",
        )
        outcome.kept, outcome.dropped = len(checked["kept"]), len(checked["dropped"])
        self._add_to_index(state, checked, actions)

    def _transcript(self, state: _Video) -> None:
        """Subtitles, else speech recognition of the audio (processing/transcripts.py); the text joins the record."""
        record = state.record
        path = Path(record.path)
        if not path.is_file():
            return  # a missing file fails in the next stage with its own line
        asr = self.settings.models.asr
        language = self.settings.retrieval.language
        asr_on = self.client.is_configured("asr")
        try:
            data = self._stage(
                state,
                "transcript",
                inputs={"video_sha256": state.files.file_hash(path, remember=not state.dry_run),
                        "subtitles": digest(record.transcript)},  # fmt: skip
                identity={"asr_model": asr.model if asr_on else "", "language": language,
                          "speech": dict(vars(self.settings.processing.speech)) if asr_on else {}},  # fmt: skip
                compute=lambda: self._transcribe(state),
                note=lambda data: _transcript_note(data, state.files.folder / VTT_NAME),
                valid=lambda data: not data["source"] or (state.files.folder / VTT_NAME).is_file(),
            )
        except _NotCached:  # a dry run with no stored transcript: count the requests it would send
            state.transcript_plan = planned_transcript_calls(path, self.client, language)
            return
        except UserError as exc:
            # The transcript is optional: the video goes on without one, and nothing is stored, so the
            # next run asks again. (A server that went down stays down for this run: no request is sent.)
            why = str(exc) if isinstance(exc, _AsrSkipped) else f"speech recognition failed: {exc}"
            state.outcome.transcript = f"none: {why}"
            state.outcome.stages["transcript"] = StageRun(reused=False, note=f"none ({why})")
            (state.files.folder / VTT_NAME).unlink(missing_ok=True)
            self._say(state, f"transcript: none ({why}); the other stages go on")
            return
        state.outcome.transcript = data["source"] or f"none: {data['reason']}"
        if data["text"] and not record.transcript.strip():
            record.transcript = data["text"]  # the later stages' keys include it, in a dry run too
            if not state.dry_run:
                art.write_json_atomic(state.files.folder / "video.json", record.to_dict())

    def _transcribe(self, state: _Video) -> tuple[dict[str, Any], StageStats]:
        language = self.settings.retrieval.language
        if self.asr_skipped and needs_speech_recognition(Path(state.record.path), self.client, language):
            raise _AsrSkipped(f"speech recognition skipped: {self.asr_skipped}")
        result = video_transcript(Path(state.record.path), state.files.folder, self.client, language)
        stats = StageStats(calls=result.calls, cached=result.cached, problems=list(result.warnings))
        data = {"text": result.text, "source": result.source, "reason": result.reason, "scripted": result.scripted,
                "pieces": result.pieces, "silent_pieces": result.silent_pieces, "dropped": result.dropped}  # fmt: skip
        return data, stats

    def _changed_frames(self, state: _Video) -> list[dict[str, Any]]:
        path = Path(state.record.path)
        if not path.is_file():
            raise UserError(f"video {path} does not exist any more: check the path or remove it from the source")
        p = self.settings.processing
        try:
            return self._stage(
                state,
                "changed_frames",
                inputs={"video_sha256": state.files.file_hash(path, remember=not state.dry_run)},
                identity={name: getattr(p, name) for name in CHANGED_FRAMES_SETTINGS},
                compute=lambda: self._detect(state),
                note=lambda data: f"{len(data)} keyframes",
                valid=lambda data: all((state.files.folder / item["path"]).is_file() for item in data),
            )
        except _NotCached:
            # Every later count grows with the changed frames, and a guess from the sampled frames was ten times
            # too high (issue 59): a dry run detects them (no model, seconds a minute of video), storing nothing.
            with tempfile.TemporaryDirectory(prefix="videodemo-dry-run-") as scratch:
                keyframes = detect_changed_frames(path, p, scratch)
                state.frames_detected = True
                return [keyframe.to_json(Path(scratch)) for keyframe in keyframes]

    def _stage(
        self,
        state: _Video,
        name: str,
        *,
        inputs: Any,
        identity: dict[str, Any],
        compute: Callable[[], tuple[Any, StageStats]],
        note: Callable[[Any], str],
        valid: Callable[[Any], bool] | None = None,
    ) -> Any:
        """The stage's stored output when its key matches (and `valid` agrees), else computed and stored."""
        key = stage_key(name, inputs, identity)
        entry = None if self.recompute else state.files.load(name, key)
        if entry is not None and (valid is None or valid(entry["data"])):
            run = StageRun(reused=True, note=note(entry["data"]))
            state.outcome.stages[name] = run
            if not state.dry_run:
                self._say(state, f"{name}: stored ({run.note})")
            return entry["data"]
        if state.dry_run:
            raise _NotCached(name)
        started = time.perf_counter()
        data, stats = compute()
        seconds = time.perf_counter() - started
        state.files.save(name, key, data, {**stats.to_dict(), "seconds": round(seconds, 3)})
        run = StageRun(False, seconds, stats.calls, stats.cached, stats.retried, stats.unparseable, note(data))
        state.outcome.stages[name] = run
        state.outcome.problems += stats.problems
        plural = "s" if stats.calls != 1 else ""
        calls = f", {stats.calls} model call{plural} ({stats.cached} cached)" if stats.calls else ""
        skipped = f", {stats.unparseable} unreadable replies skipped" if stats.unparseable else ""
        self._say(state, f"{name}: {run.note}{calls}{skipped} in {seconds:.1f}s")
        return data

    def _detect(self, state: _Video) -> tuple[list[dict[str, Any]], StageStats]:
        keyframes = detect_changed_frames(state.record.path, self.settings.processing, state.files.keyframes_dir)
        return [keyframe.to_json(state.files.folder) for keyframe in keyframes], StageStats()

    def _label(self, state: _Video) -> tuple[list[dict[str, Any]], StageStats]:
        clips, stats = self.labeler.label(state.record, state.keyframes, self.client)
        return [clip.to_dict() for clip in clips], stats

    def _merge(self, state: _Video, clip_data: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], StageStats]:
        clips = [Clip.from_dict(item) for item in clip_data]
        actions, stats = merging.merge_clips(
            clips,
            self.settings,
            self.client,
            state.record.video_id,
            use_model=bool(self.labeler.roles),  # a model-free labeler's single clip has nothing labeled twice
            title=state.record.title,
        )
        p = self.settings.processing
        actions, spoiled = spoil_actions(actions, p.spoil_share, p.spoil_seed, state.record.video_id)
        if spoiled:
            stats.problems.append(f"{len(spoiled)} action(s) spoiled on purpose (spoil_share={p.spoil_share})")
        return [action.to_dict() for action in actions], stats

    def _filter_actions(self, state: _Video, merged: list[dict[str, Any]]) -> tuple[dict[str, Any], StageStats]:
        actions = [LabeledAction.from_dict(item) for item in merged]
        kept, stats = action_filtering.filter_actions(state.record, actions, self.settings, self.client)
        return {"kept": kept, "actions": [merged[i] for i in kept]}, stats

    def _name_objectives(self, state: _Video, actions: list[LabeledAction]) -> tuple[dict[str, Any], StageStats]:
        processing = self.settings.processing
        spans = subsequences(len(actions), processing.max_trajectory_actions, processing.min_trajectory_actions)
        objectives, stats = self.objective_maker.name_objectives(
            state.record, actions, state.keyframes, spans, self.client
        )
        named = [{"span": [i, j], "objective": o} for (i, j), o in zip(spans, objectives) if o]
        return {"asked": len(spans), "source": self.objective_maker.name, "named": named}, stats

    def _check(
        self, state: _Video, actions: list[LabeledAction], named_data: dict[str, Any]
    ) -> tuple[dict[str, Any], StageStats]:
        trajectories = [
            build_trajectory(
                state.record.video_id, actions, state.keyframes, (item["span"][0], item["span"][1]),
                item["objective"], named_data.get("source", "vlm"),
            )
            for item in named_data["named"]
        ]  # fmt: skip
        kept, dropped, stats = trajectory_filtering.check_trajectories(
            trajectories, state.keyframes, self.settings, self.client
        )
        # Stored with frame paths relative to the video's folder, so the cache can move; the index gets them absolute.
        folder = state.files.folder
        data = {"kept": [_rebase(t, folder, relative=True).to_dict() for t in kept],
                "dropped": [_rebase(t, folder, relative=True).to_dict() for t in dropped]}  # fmt: skip
        return data, stats

    def _add_to_index(self, state: _Video, checked: dict[str, Any], actions: list[LabeledAction]) -> None:
        if self.index is None:
            return
        folder = state.files.folder
        cues = read_cues(folder / VTT_NAME)
        source_key = digest(
            {
                "trajectories": checked["kept"],
                "actions": [a.to_dict() for a in actions],
                "folder": str(folder.resolve()),
                "video": state.record.to_dict(),
                "narration": [NARRATION_VERSION, [[c.start_s, c.end_s, c.text] for c in cues]],
            }
        )
        if not self.recompute and self.index.source_key(state.record.video_id) == source_key:
            state.outcome.stages["index"] = StageRun(reused=True, note=f"{len(checked['kept'])} trajectories")
            if not state.dry_run:
                self._say(state, f"index: stored ({len(checked['kept'])} trajectories)")
            return
        if state.dry_run:
            raise _NotCached("index")
        if not checked["kept"] and self._keep_earlier(state):
            return
        started = time.perf_counter()
        trajectories = [_rebase(Trajectory.from_dict(item), folder, relative=False) for item in checked["kept"]]
        narrate(trajectories, actions, cues)
        whole = whole_video_trajectory(state.record, actions, state.keyframes)
        self.index.add_video(
            state.record.video_id, trajectories, source_key=source_key, video=state.record, whole_video=whole
        )
        seconds = time.perf_counter() - started
        state.outcome.stages["index"] = StageRun(False, seconds, note=f"{len(trajectories)} trajectories")
        self._say(state, f"index: {len(trajectories)} trajectories added in {seconds:.1f}s")

    def _keep_earlier(self, state: _Video) -> bool:
        """A run that kept no trajectory of a video the index holds some of leaves them there, unless told to."""
        video_id = state.record.video_id
        earlier = len(self.index.trajectories(video_id)) if self.index is not None else 0
        if not earlier or self.settings.processing.replace_empty_index:
            return False
        with self._report_lock:
            self.kept_earlier.append((video_id, earlier))
        note = f"kept its {earlier} earlier trajectories: this run kept none"
        state.outcome.stages["index"] = StageRun(reused=True, note=note)
        self._say(state, f"index: {note} (--replace-empty-index replaces them)")
        return True

    # -- dry run ---------------------------------------------------------------------------------

    def _estimate(self, state: _Video) -> dict[str, Any]:
        """Stage status and the model calls still needed, exact where the stage's inputs are stored."""
        return plan_calls(
            state.outcome, state.record.duration_s, self.settings.processing, self.labeler, self.objective_maker,
            frames_detected=state.frames_detected, transcript_plan=state.transcript_plan,
        ).to_dict()  # fmt: skip

    # -- output -------------------------------------------------------------------------------------

    def _say(self, state: _Video, message: str) -> None:
        self._report_line(f"{state.tag} {state.record.video_id}: {message}".strip())

    def _report_line(self, line: str) -> None:
        with self._report_lock:
            self._report(line)


@contextmanager
def indexing_pipeline(settings: Settings, index_dir: Path) -> Iterator[Pipeline]:
    """A pipeline that writes into the index at `index_dir`, its model roles and the index's
    embedding model checked before any video is touched (so a bad setup fails at once)."""
    with ModelClient(settings) as client:
        pipeline = Pipeline(settings, client, None, recompute=not settings.models.use_cache)
        pipeline.check_roles()
        pipeline.index = TrajectoryIndex.open(index_dir, settings, Embedder(settings, client.ledger))
        pipeline.index.check_embedding_model()
        yield pipeline


def _rebase(trajectory: Trajectory, folder: Path, relative: bool) -> Trajectory:
    """The trajectory with its frame paths relative to `folder`, or made absolute under it."""

    def move(path: str) -> str:
        if relative:
            return os.path.relpath(path, folder)
        return str((folder / path).resolve())

    return replace(
        trajectory,
        step_keyframes=[move(path) for path in trajectory.step_keyframes],
        first_frame=move(trajectory.first_frame),
        last_frame=move(trajectory.last_frame),
    )
