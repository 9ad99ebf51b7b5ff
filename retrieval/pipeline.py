"""Retrieval for a list of tasks: query → search → details filter → coarse selection → download →
content check → one manifest per task.

Each task's query and candidates are worked out once per run (one query per task,
abstracting its operation, as the paper does). Each step keeps its result: API responses and model replies in their disk
caches, videos and sampled frames as files. A second run of the same tasks therefore
sends no API request and no model request, and an interrupted run resumes where it
stopped. A failed API request or download is recorded in the task's manifest and the
run goes on; a model endpoint that stays down stops the run (every later task would
fail the same way).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from model_access.client import ChatRequest, ModelClient
from foundation.video_io import VideoError
from retrieval.applications import Application, RetrievalTask, application_of
from retrieval.candidates import CandidateSearch, find_candidates
from retrieval.download import Download, Downloader
from retrieval.manifest import (
    Decision,
    ErrorRecord,
    Manifest,
    ManifestVideo,
    Rejection,
    manifest_file_name,
    write_manifest,
)
from retrieval.queries import QueryResult, generate_query
from retrieval.selection import Pick, select_coarse
from retrieval.verification import read_transcript, read_verdict, sample_frames, verification_request
from retrieval.youtube import YouTubeApi
from settings.schema import Settings


@dataclass
class ApplicationSearch:
    application: Application
    query: QueryResult
    search: CandidateSearch | None  # None when there was no query to search with


@dataclass
class TaskOutcome:
    task: RetrievalTask
    manifest: Manifest
    path: Path

    def summary_line(self) -> str:
        counts, manifest = self.manifest.counts, self.manifest
        line = (
            f"{self.task.key}: {counts.get('verified', 0)} verified of {counts.get('picked', 0)} picked "
            f"from {counts.get('candidates', 0)} candidates for {manifest.query or '(no query)'!r}"
        )
        if manifest.errors:
            line += f"; {len(manifest.errors)} error(s), first: {manifest.errors[0].message}"
        return line


class Retriever:
    def __init__(
        self,
        settings: Settings,
        client: ModelClient,
        youtube: YouTubeApi,
        downloader: Downloader | None = None,
        out_dir: Path | None = None,
    ) -> None:
        self.settings = settings
        self.client = client
        self.youtube = youtube
        self.downloader = downloader or Downloader(settings)
        self.out_dir = Path(out_dir or settings.paths.cache_dir / "retrieval" / "manifests")
        self._applications: dict[str, ApplicationSearch] = {}

    def run(
        self, tasks: Iterable[RetrievalTask], on_task: Callable[[TaskOutcome], None] | None = None
    ) -> list[TaskOutcome]:
        outcomes = []
        for task in tasks:
            outcome = self.retrieve(task)
            outcomes.append(outcome)
            if on_task is not None:
                on_task(outcome)
        return outcomes

    def manifest_path(self, task: RetrievalTask) -> Path:
        return self.out_dir / manifest_file_name(task.key)

    def retrieve(self, task: RetrievalTask) -> TaskOutcome:
        manifest = Manifest(
            task={"key": task.key, "intent": task.intent, "sites": list(task.sites)},
            query="",
            created_at=time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        )
        if not task.intent.strip():
            manifest.errors.append(ErrorRecord("task", "the task has no intent to find videos for; fix its config"))
        else:
            found = self.application_search(application_of(task))
            manifest.query, manifest.query_generation = found.query.query, found.query.record()
            if found.query.error:
                manifest.errors.append(ErrorRecord("query", found.query.error))
            if found.search is not None:
                self._select_and_check(task, found, manifest)
        manifest.complete = not manifest.errors
        path = self.manifest_path(task)
        write_manifest(manifest, path)
        return TaskOutcome(task, manifest, path)

    def application_search(self, application: Application) -> ApplicationSearch:
        """The task's query and candidates (keyed by the task), worked out once per run."""
        if application.key not in self._applications:
            query = generate_query(self.client, application, self.settings.retrieval.query_max_words)
            search = find_candidates(self.youtube, query.query, self.settings.retrieval) if query.query else None
            self._applications[application.key] = ApplicationSearch(application, query, search)
        return self._applications[application.key]

    # -- one task -------------------------------------------------------------------------------

    def _select_and_check(self, task: RetrievalTask, found: ApplicationSearch, manifest: Manifest) -> None:
        search = found.search
        assert search is not None
        manifest.errors += search.errors
        manifest.rejected += search.rejected
        settings = self.settings.retrieval
        coarse = select_coarse(
            self.client, found.application, task.intent, search.candidates, settings.coarse_max_videos
        )
        manifest.rejected += coarse.rejected
        if coarse.error:
            manifest.errors.append(ErrorRecord("coarse", coarse.error))

        downloaded: list[tuple[Pick, Download]] = []
        for pick in coarse.picks:
            result = self.downloader.fetch(pick.candidate.youtube_id)
            if result.ok:
                downloaded.append((pick, result))
            else:
                reason = f"{result.error_kind}: {result.error}"
                manifest.rejected.append(Rejection(pick.candidate.youtube_id, pick.candidate.title, "download", reason))

        verified = self._verify(task, found.application, downloaded, manifest)
        manifest.videos = [_manifest_video(pick, result, reason) for pick, result, reason in verified]
        manifest.counts = {
            "found": search.found,
            "candidates": len(search.candidates),
            "picked": len(coarse.picks),
            "downloaded": len(downloaded),
            "verified": len(manifest.videos),
        }

    def _verify(
        self, task: RetrievalTask, application: Application, downloaded: list[tuple[Pick, Download]], manifest: Manifest
    ) -> list[tuple[Pick, Download, str]]:
        settings = self.settings.retrieval
        frames_root = self.settings.paths.cache_dir / "retrieval" / "frames"
        requests: list[ChatRequest] = []
        checked: list[tuple[Pick, Download]] = []
        for pick, result in downloaded:
            assert result.path is not None
            candidate = pick.candidate
            try:
                frames = sample_frames(
                    result.path, settings.verification_frames, settings.verification_frame_width,
                    frames_root / candidate.youtube_id,
                )  # fmt: skip
            except VideoError as exc:
                reason = f"the downloaded file is not a usable video: {exc}"
                manifest.rejected.append(Rejection(candidate.youtube_id, candidate.title, "verification", reason))
                continue
            transcript = read_transcript(result.transcript_path, settings.verification_transcript_chars)
            requests.append(
                verification_request(
                    application, task.intent, candidate.title, candidate.description, transcript, frames
                )
            )
            checked.append((pick, result))
        kept = []
        for (pick, result), reply in zip(checked, self.client.chat_many(requests)):
            verdict = read_verdict(reply.text)
            if verdict.verified:
                kept.append((pick, result, verdict.reason))
            else:
                candidate = pick.candidate
                rejection = Rejection(candidate.youtube_id, candidate.title, "verification", verdict.reason)
                manifest.rejected.append(rejection)
        return kept


def _manifest_video(pick: Pick, result: Download, verification_reason: str) -> ManifestVideo:
    candidate = pick.candidate
    assert result.path is not None
    return ManifestVideo(
        video_id=f"yt-{candidate.youtube_id}",
        youtube_id=candidate.youtube_id,
        title=candidate.title,
        description=candidate.description,
        url=result.url,
        path=str(result.path.resolve()),
        transcript_path=str(result.transcript_path.resolve()) if result.transcript_path else None,
        duration_s=candidate.duration_s,
        decision=Decision(pick.rank, pick.reason, True, verification_reason),
    )
