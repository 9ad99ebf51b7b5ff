#!/usr/bin/env bash
# WebArena-Verified 1.2.3 (ServiceNow's re-audited WebArena: its 812 tasks and their evaluator) in its own environment
# (.venv-servers/webarena-verified), on Python 3.12: BrowserGym's package for it, browsergym-webarena-verified 0.14.3,
# needs 3.12 where the BrowserGym environment is on 3.11 (docs/ecosystem.md). Only the evaluator package: scoring a
# recorded run needs neither BrowserGym nor a browser (ecosystem/webarena_verified/worker.py). The dataset ships in
# the wheel, so nothing is downloaded at run time.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/servers/lib/server_env.sh
server_env webarena-verified 12
echo "[servers] installing WebArena-Verified into $VENV"
pip_into "$VENV/bin/python" "webarena-verified==1.2.3"
server_env_done
echo "[servers] WebArena-Verified ready"
