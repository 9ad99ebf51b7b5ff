"""A task's reference solution and how demonstrations and episodes compare with it: the one engine.

Every reader of ground truth stands on this package: the oracles of the agent
(`oracle.*`), the replay's oracle grounding, the ladder, the per-task loss account
of the reports and the labels' accuracy. One step type (`steps.ReferenceStep`), one
name matcher (`names`, the labels' rule), one list of menu roles, one coverage
engine (`coverage`: which trajectories show the next steps) and one progress
tracker (`progress`: how far an episode has come along the solution), so two
readers of the same episode cannot disagree on what it did.
"""
