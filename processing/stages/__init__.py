"""The model stages of processing, in order: labeling, merging, action_filtering, trajectories,
trajectory_filtering. Each reads and returns plain records; the pipeline caches their outputs."""
