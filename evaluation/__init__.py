"""The harness: the browser the agent acts in, the evaluators that score an episode, the runner that plays task
sets into run folders, and the reports on those folders (four rooms, lowest first: browser_env, scoring,
running, reports; docs/architecture.md)."""
