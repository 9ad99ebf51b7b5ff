"""AgentOccam, the paper's base web agent, in our own words (docs/agentoccam.md).

- `refine`: the whole-page accessibility tree made compact (observation refinement);
- `plan`: the plan tree the agent grows with `branch` and cuts back with `prune`;
- `commands`: the reduced action space and how each command maps onto the environment;
- `agent`: the policy itself (`--policy agentoccam`, and the base of `--policy video`).
"""
