"""Scoring our runs of VideoWA's WebArena tasks with WebArena-Verified (ServiceNow's re-audited WebArena), the
evaluator BrowserGym's browsergym-webarena-verified calls. Its package runs in its own Python 3.12 environment
(scripts/servers/webarena_verified.sh); `worker.py` runs there, `scores.py` here; docs/ecosystem.md."""
