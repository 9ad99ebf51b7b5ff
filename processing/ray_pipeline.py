"""`process-videos --ray [ADDRESS]`: each video's model-heavy stages on Ray actors, the index in the driver.

An actor is one `--workers` slot: its own ModelClient and a Pipeline without an index,
which runs a video's stages up to trajectory filtering and stores each stage's output
in the processed-video cache, exactly as the local pipeline does. The driver then
runs its own pipeline on the same video: every stage is found stored, so it only
adds the trajectories to the index, which therefore has a single writer. The cache
folder must be one path every node mounts (docs/scaling.md). The driver holds each
video's folder lock from handing the video out until it is indexed: the actors take
no lock, as they write for the driver.

Ray itself is reached through model_access/ray_cluster.py, only when `--ray` is given.
"""

from __future__ import annotations

from typing import Any

from foundation.folder_lock import FolderLock
from processing.pipeline import Pipeline
from foundation.records.trajectory import VideoRecord
from processing.summary import VideoOutcome
from settings.schema import Settings


class VideoWorker:
    """One Ray actor: a model client and an index-less pipeline, kept for every video it is given."""

    def __init__(self, settings: Settings, asr_skipped: str = "") -> None:
        from model_access.ray_cluster import use_endpoint_limits
        from model_access.client import ModelClient

        use_endpoint_limits()
        self.client = ModelClient(settings)
        self.pipeline = Pipeline(settings, self.client, None, recompute=not settings.models.use_cache)
        self.pipeline.asr_skipped = asr_skipped  # the driver's pre-run check found the ASR server down

    def process(self, video: VideoRecord, tag: str) -> VideoOutcome:
        return self.pipeline.process(video, tag)

    def close(self) -> dict[str, Any]:
        """Closes the client; returns the model usage of every video this actor processed."""
        self.client.close()
        return self.client.ledger.to_dict()


def run_on_ray(pipeline: Pipeline, videos: list[VideoRecord], workers: int, address: str) -> list[VideoOutcome]:
    """Process `videos` on `workers` actors, then index each in this process; a failing video does not stop the rest."""
    from model_access.ray_cluster import ACTOR_RESTARTS, connect, import_ray, release, start_endpoint_limits

    ray = import_ray()
    started_here = not ray.is_initialized()
    connect(address, workers)
    limits = start_endpoint_limits(ray, pipeline.settings)
    total = len(videos)
    remote_worker = ray.remote(num_cpus=1, max_restarts=ACTOR_RESTARTS, max_task_retries=ACTOR_RESTARTS)(VideoWorker)
    actors = [remote_worker.remote(pipeline.settings, pipeline.asr_skipped) for _ in range(max(1, min(workers, total)))]
    queue = list(enumerate(videos, 1))
    running: dict[Any, tuple[Any, int, VideoRecord]] = {}
    outcomes: dict[int, VideoOutcome] = {}
    locks: dict[int, FolderLock] = {}

    def hand_out(actor) -> None:
        while queue:
            number, video = queue.pop(0)
            held = pipeline.hold(video, f"[{number}/{total}]")
            if isinstance(held, VideoOutcome):  # another command is processing it
                outcomes[number] = held
                continue
            locks[number] = held
            running[actor.process.remote(video, f"[{number}/{total}]")] = (actor, number, video)
            return

    try:
        for actor in actors:
            hand_out(actor)
        while running:
            [ready], _ = ray.wait(list(running), num_returns=1)
            actor, number, video = running.pop(ready)
            hand_out(actor)
            try:
                remote_outcome = ray.get(ready)
            except ray.exceptions.RayError as exc:
                reason = f"Ray worker failed: {type(exc).__name__}"
                outcomes[number] = VideoOutcome(video.video_id, ok=False, reason=reason)
            else:
                outcomes[number] = _index_locally(pipeline, video, number, total, remote_outcome)
            finally:
                locks.pop(number).release()
    finally:
        for lock in locks.values():
            lock.release()
        release(ray, actors, limits, started_here, on_close=pipeline.client.ledger.merge)
    return [outcomes[number] for number in sorted(outcomes)]


def _index_locally(
    pipeline: Pipeline, video: VideoRecord, number: int, total: int, remote: VideoOutcome
) -> VideoOutcome:
    if not remote.ok:
        return remote
    local = pipeline.process(video, f"[{number}/{total}]")  # every stage stored: only the index step runs
    if not local.ok:
        return local
    if "index" in local.stages:
        remote.stages["index"] = local.stages["index"]
    return remote


__all__ = ["run_on_ray"]
