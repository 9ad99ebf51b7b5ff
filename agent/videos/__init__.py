"""A task's tutorial videos as every video policy reads them: where they are, their trajectories, frames,
narration, the factual question about them and what is shown from them. Stands on agent/base only."""
