"""The replay baseline's `--no-trajectory-selection` choice, made without a model.

The most relevant of the task's videos is the one whose best-matching objective or
title is closest to the task's intent (embedding cosine, through the index's FAISS
search and its embedder); its longest trajectory stands for the whole video and is
replayed. This is the model-free baseline's rule, kept as it was; the method's
ablation (`agent/method/whole_video.py`) asks the model and shows every action of the video.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agent.videos.candidates import CandidateSource
from foundation.records.trajectory import Trajectory

STAGE = "whole_video"  # the embedding of video titles is counted under this ledger stage


def longest(trajectories: list[Trajectory]) -> Trajectory:
    """The longest trajectory; among equals the earliest in the video."""
    return max(trajectories, key=lambda t: (t.length, -t.span[0], -t.span[1]))


def choose_by_embeddings(
    source: CandidateSource, intent: str, video_ids: list[str], titles: dict[str, str]
) -> tuple[Trajectory, dict[str, Any]]:
    """The trajectory to replay, and the record of how it was chosen."""
    scores: dict[str, float] = {}
    if len(video_ids) > 1:
        title_vectors = source.index.embedder.encode([intent] + [titles.get(v, v) for v in video_ids], stage=STAGE)
        title_scores = title_vectors[1:] @ title_vectors[0]
        for video_id, title_score in zip(video_ids, title_scores):
            hits = source.index.search(intent, k=1, video_ids=[video_id])
            objective_score = hits[0][1] if hits else -1.0
            scores[video_id] = round(float(max(objective_score, float(np.clip(title_score, -1, 1)))), 4)
        video_id = max(video_ids, key=lambda v: scores[v])
    else:
        video_id = video_ids[0]
    trajectories = source.trajectories(video_id)
    chosen = longest(trajectories)
    record = {
        "video": video_id,
        "video_scores": scores or "only one processed video",
        "trajectory_id": chosen.trajectory_id,
        "actions": chosen.length,
        "video_trajectories": len(trajectories),
    }
    return chosen, record
