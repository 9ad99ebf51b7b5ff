"""The verification stage over an index: every trajectory reset, started and carried out; verdicts kept.

Cached per trajectory in the index (`TrajectoryIndex.set_verdict`, written as soon as
a trajectory is done): a verdict whose key (the trajectory's actions, the start-page
and judging settings) matches is not checked again, so a killed run resumes with the
trajectories it had not finished.

Parallel: `workers` threads, each with its own Chromium. Each trajectory begins with
its site's reset, which would pull the database from under another trajectory of the
same site, so trajectories of one site run one after another and workers take
different sites at once (with `verification.reset_site` off, any trajectories at once).
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Callable

import numpy as np

from evaluation.browser_env.episode_options import EpisodeOptions
from foundation.errors import UserError
from model_access.embeddings import Embedder
from processing.artifacts import digest
from processing.objectives.wording import url_path
from processing.index import VERDICT_KEY, TrajectoryIndex, actions_key
from foundation.records.trajectory import Trajectory
from agent.verification.start_page import start_page, task_for_video
from agent.verification.verifier import NOT, PARTLY, VERIFIED, StartTask, TrajectoryVerifier
from settings import Settings

JUDGING = ("reset_site", "read_address_bar", "replay_earlier_steps", "address_band", "similarity_width",
           "min_page_similarity")
STAGE_VERSION = 1  # raise when the way steps are carried out changes, so stored verdicts are made again
# Raise one kind's number when only steps of that kind are carried out differently: the trajectories with such
# a step are checked again, the others keep their verdicts. 2: a select whose label names no option is carried
# out once its menu is found.
KIND_VERSIONS = {"select": 2}
# A trajectory's own length bounds how many steps it takes, not an episode's budget.
TRAJECTORY_STEP_BOUND = 10_000


def verification_episode(settings: Settings) -> EpisodeOptions:
    """The episode options a trajectory is carried out under: the agent's, with the trajectory's bound for the step
    limit and no early stop (the settings themselves are left as they are)."""
    defaults = EpisodeOptions.from_agent_settings(settings.agent)
    return replace(defaults, max_steps=TRAJECTORY_STEP_BOUND, early_stop="none")


def verdict_key(trajectory: Trajectory, task_url: str, settings: Settings) -> str:
    v = settings.verification
    key: dict[str, Any] = {
        # The start URL's path, not its host: the same site served elsewhere keeps its verdicts.
        "version": STAGE_VERSION, "actions": actions_key(trajectory), "task_path": url_path(task_url),
        "judging": {name: getattr(v, name) for name in JUDGING},
        "grounding": [settings.replay.grounding_min_similarity, settings.replay.substitution_min_similarity],
        "embedding": [settings.models.embedding.backend, settings.models.embedding.model],
    }  # fmt: skip
    kinds = {action.kind for action in trajectory.actions}
    changed = {kind: number for kind, number in KIND_VERSIONS.items() if kind in kinds}
    if changed:  # absent otherwise, so a trajectory without such a step keeps the key it had
        key["kind_versions"] = changed
    return digest(key)


@dataclass
class VerificationRun:
    checked: int = 0  # verified in this run
    stored: int = 0  # verdict already kept (resumed)
    counts: dict[str, int] = field(default_factory=lambda: {VERIFIED: 0, PARTLY: 0, NOT: 0})
    unchecked: list[str] = field(default_factory=list)  # "id: why" for trajectories that could not be tried
    seconds: float = 0.0
    trajectory_seconds: list[float] = field(default_factory=list)

    def format(self) -> str:
        total = sum(self.counts.values())
        mean = f", {np.mean(self.trajectory_seconds):.1f} s per trajectory checked" if self.trajectory_seconds else ""
        lines = [f"verification: {total} trajectories: {self.counts[VERIFIED]} verified, {self.counts[PARTLY]} partly, "
                 f"{self.counts[NOT]} not ({self.checked} checked now, {self.stored} stored){mean}, "
                 f"{self.seconds:.0f} s in all"]  # fmt: skip
        lines += [f"  not checked: {line}" for line in self.unchecked]
        return "\n".join(lines)


class SiteResets:
    """The reset of each site, by its base URL: the sandbox's own, a real site's reset path, or none (said once)."""

    def __init__(self, settings: Settings, report: Callable[[str], None]) -> None:
        self.settings = settings
        self.report = report
        self.warned: set[str] = set()

    def reset(self, site: str, base_url: str) -> str:
        from tasks.sandbox import server
        from tasks.sandbox.sites import SITES

        for spec in SITES.values():
            if spec.stands_for == site or server.site_url(spec, self.settings).rstrip("/") == base_url.rstrip("/"):
                return server.reset(self.settings, [spec.name])[0]
        from evaluation.scoring.site_resets import reset_site

        try:
            return reset_site(site, self.settings)
        except UserError as exc:
            if site not in self.warned:
                self.warned.add(site)
                self.report(f"verification: the {site} site is not reset before its trajectories ({exc}); "
                            "writes of one trajectory may change what the next finds")  # fmt: skip
            return f"not reset: {exc}"


def verify_index(
    index: TrajectoryIndex,
    settings: Settings,
    tasks: list,
    *,
    workers: int = 1,
    video_ids: list[str] | None = None,
    only: list[str] | None = None,
    report: Callable[[str], None] = print,
) -> VerificationRun:
    """Verify the index's trajectories (of `video_ids`, or those with ids in `only`); verdicts go into the index."""
    started = time.perf_counter()
    run = VerificationRun()
    chosen = [t for v in (video_ids or index.videos()) for t in index.trajectories(v)]
    if only is not None:
        wanted = set(only)
        chosen = [t for t in chosen if t.trajectory_id in wanted]
    stored = index.verdicts()
    todo: dict[str, list[tuple[Trajectory, Any, str]]] = defaultdict(list)  # site -> work
    for trajectory in chosen:
        task = task_for_video(trajectory.video_id, tasks)
        if task is None:
            run.unchecked.append(f"{trajectory.trajectory_id}: no task names video {trajectory.video_id}, so its "
                                 "site is unknown (pass --tasks with the configs that name it)")  # fmt: skip
            continue
        key = verdict_key(trajectory, task.start_urls[0], settings)
        old = stored.get(trajectory.trajectory_id)
        if old is not None and old[0] == actions_key(trajectory) and old[1].get("key") == key:
            run.stored += 1
            run.counts[old[1]["verdict"]] += 1
            continue
        todo[task.sites[0] if task.sites else "?"].append((trajectory, task, key))
    groups = list(todo.values())
    if not settings.verification.reset_site:  # no reset to protect: spread every trajectory over the workers
        every = [item for group in groups for item in group]
        groups = [every[n :: max(1, workers)] for n in range(max(1, workers))]
    total = sum(len(group) for group in groups)
    report(f"verification: {total} trajectories to check, {run.stored} stored, {max(1, min(workers, len(groups)))} "
           f"worker(s)")  # fmt: skip
    resets = SiteResets(settings, report)
    lock = threading.Lock()
    embedder = Embedder(settings)
    vectors: dict[str, np.ndarray] = {}

    def encode(texts: list[str]) -> np.ndarray:
        with lock:
            missing = [text for text in dict.fromkeys(texts) if text not in vectors]
            if missing:
                vectors.update(zip(missing, embedder.encode(missing, stage="verification")))
            return np.stack([vectors[text] for text in texts])

    def work(group: list[tuple[Trajectory, Any, str]]) -> None:
        from evaluation.browser_env.environment import BrowserEnv

        with BrowserEnv(settings, episode=verification_episode(settings)) as env:
            verifier = TrajectoryVerifier(settings, env, encode)
            for trajectory, task, key in group:
                record = _verify_one(verifier, trajectory, task, key, index, settings, resets)
                with lock:
                    run.checked += 1
                    run.counts[record["verdict"]] += 1
                    run.trajectory_seconds.append(record["seconds"])
                    done = run.checked
                report(f"[{done}/{total}] {trajectory.trajectory_id}: {_line(record)}")

    groups = [group for group in groups if group]
    if len(groups) <= 1 or workers <= 1:
        for group in groups:
            work(group)
    else:
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="verify") as pool:
            list(pool.map(work, groups))
    run.seconds = time.perf_counter() - started
    return run


def _verify_one(verifier: TrajectoryVerifier, trajectory: Trajectory, task: Any, key: str, index: TrajectoryIndex,
                settings: Settings, resets: SiteResets) -> dict[str, Any]:  # fmt: skip
    site = task.sites[0] if task.sites else ""
    started = time.perf_counter()
    reset = resets.reset(site, task.start_urls[0]) if settings.verification.reset_site else "not reset (setting off)"
    start = start_page(trajectory, index.video(trajectory.video_id), task.start_urls[0], settings)
    record = _attempt(verifier, trajectory, start, task)
    prefix = _earlier_actions(index, trajectory) if settings.verification.replay_earlier_steps else []
    if record["verdict"] != VERIFIED and prefix:
        # The page's address is not its state (a form opened, a cart filled): from the video's start instead.
        if settings.verification.reset_site:
            resets.reset(site, task.start_urls[0])
        whole = index.whole_video(trajectory.video_id)
        opening = replace(trajectory, span=(0, 0), first_frame=whole.first_frame if whole else "")
        begin = start_page(opening, index.video(trajectory.video_id), task.start_urls[0], settings)
        begin = replace(begin, source=f"{begin.source} + the video's {len(prefix)} earlier action(s)")
        second = _attempt(verifier, trajectory, begin, task, prefix)
        better, other, name = (second, record, "first_try") if second["carried_out"] > record["carried_out"] else (
            record, second, "second_try")  # fmt: skip
        better[name] = {key: other[key] for key in ("start_page", "verdict", "reason")}  # the other try, for the record
        record = better
    record.update(key=key, reset=reset, task=task.key, seconds=round(time.perf_counter() - started, 2))
    index.set_verdict(trajectory, record)
    return record


def _attempt(
    verifier: TrajectoryVerifier, trajectory: Trajectory, start: Any, task: Any, prefix: list | None = None
) -> dict[str, Any]:
    opened = StartTask(task.key, start.url, task.sites, task.storage_state)
    try:
        return verifier.verify(trajectory, start, opened, prefix)
    except UserError as exc:  # the start page did not open: the trajectory cannot be tried from there
        from evaluation.running.runner import site_answers

        if not site_answers(start.url):  # the site itself is down: no verdict, or a resumed run would keep it
            raise UserError(f"{exc}; verification stopped, the trajectories not yet checked keep no verdict: start "
                            "the site and run the command again (finished ones are kept)") from None
        return {"verdict": NOT, "carried_out": 0, "steps": len(trajectory.actions), "reason": str(exc),
                "start_page": start.to_dict(), "mean_similarity": None, "step_records": []}  # fmt: skip


def _earlier_actions(index: TrajectoryIndex, trajectory: Trajectory) -> list:
    """The video's actions before the trajectory (empty at its start, or when the stored video list disagrees)."""
    i, j = trajectory.span
    whole = index.whole_video(trajectory.video_id) if i > 0 else None
    if whole is None or len(whole.actions) <= j:
        return []
    same = [a.to_dict() for a in whole.actions[i : j + 1]] == [a.to_dict() for a in trajectory.actions]
    return list(whole.actions[:i]) if same else []


def _line(record: dict[str, Any]) -> str:
    mean = record.get("mean_similarity")
    similarity = f", page similarity {mean:.2f}" if mean is not None else ""
    return (f"{record['verdict']} ({record['carried_out']}/{record['steps']}){similarity}; start from "
            f"{record['start_page']['source']}; {record['reason']} ({record['seconds']:.1f}s)")  # fmt: skip


def verdict_summary(trajectory: Trajectory) -> dict[str, Any] | None:
    """The short verdict stored with a trajectory, for selection records and pages (None when unverified)."""
    found = trajectory.checks.get(VERDICT_KEY)
    if not found:
        return None
    return {"verdict": found["verdict"], "carried_out": found["carried_out"], "steps": found["steps"],
            "reason": found["reason"], "start_page": found.get("start_page", {}).get("source", "")}  # fmt: skip
