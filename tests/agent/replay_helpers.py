"""A trajectory index built straight from recorded tutorials' ground-truth actions (no video decoding).

Every span of at most `processing.max_trajectory_actions` actions becomes a trajectory
with a derived objective, as `process-videos --objectives derived` would name it (minus
the OCR'd page titles, which need the video frames).
"""

from __future__ import annotations

from pathlib import Path

from processing.index import TrajectoryIndex
from processing.labeling_accuracy import ground_truth_actions
from processing.objectives.wording import derived_objective
from foundation.records.trajectory import Trajectory, VideoRecord
from processing.stages.trajectories import subsequences
from settings import Settings


def trajectories_from_ground_truth(
    video_id: str, actions_file: Path, max_actions: int, relabel: dict[int, str] | None = None
) -> list[Trajectory]:
    """`relabel` names actions (by their place in the log) as a labeler that misread them would."""
    actions = ground_truth_actions(actions_file)
    for place, target in (relabel or {}).items():
        actions[place].target = target
    found = []
    for i, j in subsequences(len(actions), max_actions):
        steps = actions[i : j + 1]
        found.append(
            Trajectory(
                trajectory_id=f"{video_id}/{i}-{j}", video_id=video_id, objective=derived_objective(steps),
                actions=steps, step_keyframes=["" for _ in steps], first_frame="", last_frame="",
                start_s=steps[0].start_s, end_s=steps[-1].end_s, span=(i, j), objective_source="derived",
            )
        )  # fmt: skip
    return found


def ground_truth_index(
    folder: Path,
    settings: Settings,
    tutorials: Path,
    names: list[str],
    relabel: dict[str, dict[int, str]] | None = None,
) -> TrajectoryIndex:
    index = TrajectoryIndex.open(folder, settings)
    for name in names:
        actions_file = tutorials / f"{name}.actions.json"
        trajectories = trajectories_from_ground_truth(
            name, actions_file, settings.processing.max_trajectory_actions, (relabel or {}).get(name)
        )
        video = VideoRecord(video_id=name, path=str(tutorials / f"{name}.mp4"), source="sandbox", title=name)
        index.add_video(name, trajectories, source_key="ground-truth", video=video)
    return index


def replay_settings_for(settings: Settings, index_dir: Path, tutorial: str) -> Settings:
    """A copy of the sandbox `settings` whose agent reads an index built, in `index_dir`, from the recorded
    `tutorial`'s ground-truth actions (recorded first when missing)."""
    import copy

    from tasks.sandbox.tutorials.recorder import record_tutorials

    (result,) = record_tutorials(settings, only=[tutorial])
    settings = copy.deepcopy(settings)
    ground_truth_index(index_dir, settings, result.files.actions.parent, [tutorial])
    settings.agent.index_dir = str(index_dir)
    return settings
