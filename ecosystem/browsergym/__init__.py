"""The BrowserGym and AgentLab bridge: our sandbox tasks as BrowserGym tasks, our policies as BrowserGym agents,
the demonstration step as a component any agent can call. Runs in its own environment (scripts/servers/browsergym.sh),
because BrowserGym pins an older Playwright than the rest of the project; docs/ecosystem.md."""
