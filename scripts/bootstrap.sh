#!/usr/bin/env bash
# Install what the project needs on a fresh Debian/Ubuntu machine, then nothing on later runs:
# system packages (Chromium, ffmpeg, fonts, espeak-ng), a .venv with the CPU torch, the project in editable mode.
# With --servers also the real model servers of the test suite's real-server tier (scripts/servers/*.sh, each in
# its own environment under .venv-servers/; llama.cpp is built from source the first time, 10-17 min on 2 cores),
# and BrowserGym with AgentLab for the bridge's tests (scripts/servers/browsergym.sh, about 6 min the first time),
# and WebArena-Verified's evaluator on Python 3.12 (scripts/servers/webarena_verified.sh, about 30 s).
set -euo pipefail
cd "$(dirname "$0")/.."
WITH_SERVERS=0
for arg in "$@"; do
  case "$arg" in
    --servers) WITH_SERVERS=1 ;;
    *) echo "[bootstrap] unknown option $arg (known: --servers)" >&2; exit 2 ;;
  esac
done

install_servers() {
  [ "$WITH_SERVERS" -eq 1 ] || return 0
  for script in scripts/servers/*.sh; do
    bash "$script"
  done
}

VENV=.venv
STAMP=$VENV/.installed
APT_PACKAGES=(chromium ffmpeg fonts-dejavu-core fonts-liberation espeak-ng)

need_apt=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v ffmpeg >/dev/null 2>&1 || need_apt+=(ffmpeg)
command -v espeak-ng >/dev/null 2>&1 || need_apt+=(espeak-ng)  # speaks narration into test videos (ASR tests)
[ -d /usr/share/fonts/truetype/dejavu ] || need_apt+=(fonts-dejavu-core)
[ -d /usr/share/fonts/truetype/liberation ] || need_apt+=(fonts-liberation)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "[bootstrap] installing system packages: ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "[bootstrap] error: no apt-get; install ${APT_PACKAGES[*]} with your package manager" >&2; exit 1
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

PYTHON=""
for candidate in python3.11 python3.12 python3.13 python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    PYTHON=$candidate; break
  fi
done
[ -n "$PYTHON" ] || { echo "[bootstrap] error: Python 3.11+ not found; install python3.11" >&2; exit 1; }

if [ -f "$STAMP" ] && [ "$STAMP" -nt pyproject.toml ] && [ -x "$VENV/bin/videodemo" ]; then
  install_servers
  exit 0
fi
echo "[bootstrap] setting up $VENV with $PYTHON (first run takes a few minutes)"
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip
# The CPU build of torch first: an unpinned torch would pull a multi-GB CUDA build.
"$VENV/bin/python" -m pip install -q "torch==2.13.0"
"$VENV/bin/python" -m pip install -q -e ".[dev,scale]"
touch "$STAMP"
echo "[bootstrap] done"
install_servers
