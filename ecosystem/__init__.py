"""Bridges to the tools other web-agent researchers run: BrowserGym and AgentLab (`browsergym/`, docs/ecosystem.md)."""
