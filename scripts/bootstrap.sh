#!/usr/bin/env bash
# Install what the project needs on a fresh Debian/Ubuntu machine, then nothing on later runs:
# system packages (Chromium, ffmpeg, fonts, espeak-ng), a .venv with the CPU torch, the project in editable mode.
# With --servers also the real model servers of the test suite's real-server tier (scripts/servers/*.sh, each in
# its own environment under .venv-servers/), BrowserGym with AgentLab for the bridge's tests and WebArena-Verified's
# evaluator. The server environments install side by side, each logging to .venv-servers/logs/NAME.log, beside the
# project's own .venv; the two editable installs of this project (the .venv's and BrowserGym's) write the same
# egg-info, so they take turns through a lock (.editable-install.lock). Packages go in with uv when it can be had
# (scripts/lib/installer.sh; VIDEODEMO_INSTALLER=pip for pip). Every step prints its seconds. Installed, each local
# model server answers one real request (a completion, a transcription) before the install step passes.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/installer.sh
WITH_SERVERS=0
for arg in "$@"; do
  case "$arg" in
    --servers) WITH_SERVERS=1 ;;
    *) echo "[bootstrap] unknown option $arg (known: --servers)" >&2; exit 2 ;;
  esac
done

BOOT_START=$SECONDS
SERVERS_ROOT=${VIDEODEMO_SERVERS:-.venv-servers}
LOGS=$SERVERS_ROOT/logs
declare -A SERVER_PID=()

timed() {  # timed LABEL COMMAND...: runs it and prints how long it took
  local label=$1 start=$SECONDS; shift
  "$@"
  echo "[bootstrap] $label: $((SECONDS - start)) s"
}

server_installed() { [ -f "$SERVERS_ROOT/$1/.installed" ] && [ -x "$SERVERS_ROOT/$1/bin/python" ]; }

# setuptools' editable finder names the project's top-level packages as they were at install time, so an environment
# that holds the project (BrowserGym's) installs it again, alone, when pyproject.toml changed since.
refresh_project_in() {  # refresh_project_in ENV
  local venv=$SERVERS_ROOT/$1
  compgen -G "$venv/lib/python*/site-packages/__editable__.videodemo*" >/dev/null || return 0
  [ pyproject.toml -nt "$venv/.installed" ] || return 0
  echo "[bootstrap] pyproject.toml changed: installing the project into $venv again"
  (flock 9 && pip_into "$venv/bin/python" --no-deps -e .) 9>.editable-install.lock
  touch "$venv/.installed"
}

# An installed environment that an install script has since changed for: its script mends it (browsergym.sh pins
# anthropic for AgentLab's XRay and brings an environment installed before the pin up to it; llama_cpp.sh installs
# again a llama.cpp built with other flags than scripts/servers/llama_cpp_flags.txt, or with no record of them).
outdated() {  # outdated ENV
  case "$1" in
    browsergym) ! "$SERVERS_ROOT/browsergym/bin/python" -c "from anthropic.types import Completion" >/dev/null 2>&1 ;;
    llama_cpp) ! "$PYTHON" model_access/local_servers/llama_cpp_build.py matches "$SERVERS_ROOT/llama_cpp" ;;
    *) return 1 ;;
  esac
}

start_server() {  # start_server NAME: its install script in the background, logged
  local name=$1 env=${1//_/-}
  [ "$name" = llama_cpp ] && env=llama_cpp
  if server_installed "$env" && ! outdated "$env"; then
    refresh_project_in "$env"
    return 0
  fi
  mkdir -p "$LOGS"
  echo "[bootstrap] installing server env $name in the background (log: $LOGS/$name.log)"
  # Each job writes its own seconds when it ends: they are waited for in turn, not in the order they finish.
  (
    start=$(date +%s)
    bash "scripts/servers/$name.sh" >"$LOGS/$name.log" 2>&1 || exit
    echo $(($(date +%s) - start)) >"$LOGS/$name.seconds"
  ) &
  SERVER_PID[$name]=$!
}

start_servers() {
  [ "$WITH_SERVERS" -eq 1 ] || return 0
  local script
  for script in scripts/servers/*.sh; do
    start_server "$(basename "$script" .sh)"
  done
}

wait_servers() {
  local name failed=0
  for name in "${!SERVER_PID[@]}"; do
    if wait "${SERVER_PID[$name]}"; then
      echo "[bootstrap] server env $name: $(cat "$LOGS/$name.seconds") s"
    else
      failed=1
      echo "[bootstrap] error: server env $name failed; the end of $LOGS/$name.log:" >&2
      tail -n 20 "$LOGS/$name.log" >&2
    fi
  done
  [ $failed -eq 0 ] || exit 1
}

# Starting is not serving: a llama.cpp built for another CPU answers /v1/models, then dies with SIGILL on its first
# completion. Each local model server gets one real request (model_access/local_servers/readiness.py), once per
# install and CPU; one that fails stops the install with one line naming it, how it ended and its log.
check_servers() {
  [ "$WITH_SERVERS" -eq 1 ] || return 0
  local start=$SECONDS
  "$VENV/bin/python" -m model_access.local_servers.readiness llama_cpp whisper || exit 1
  [ $((SECONDS - start)) -lt 1 ] || echo "[bootstrap] servers' first requests: $((SECONDS - start)) s"
}

finish() {
  wait_servers
  check_servers
  echo "[bootstrap] install step: $((SECONDS - BOOT_START)) s"
}

VENV=.venv
STAMP=$VENV/.installed
# The headless shell is the browser every headless run launches (browser.executable_path); full `chromium` is
# only for headed runs (browser.headless=false) and is not installed here.
APT_PACKAGES=(chromium-headless-shell ffmpeg fonts-dejavu-core fonts-liberation espeak-ng)

need_apt=()
[ -x /usr/bin/chromium-headless-shell ] || need_apt+=(chromium-headless-shell)
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
  apt_install() {
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
  }
  timed "system packages" apt_install
fi

PYTHON=""
for candidate in python3.11 python3.12 python3.13 python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    PYTHON=$candidate; break
  fi
done
[ -n "$PYTHON" ] || { echo "[bootstrap] error: Python 3.11+ not found; install python3.11" >&2; exit 1; }

# uv before the server environments start, so they do not race to install it.
timed "installer ($([ "${VIDEODEMO_INSTALLER:-uv}" = pip ] && echo pip || echo uv))" installer_setup
start_servers
if [ -f "$STAMP" ] && [ "$STAMP" -nt pyproject.toml ] && [ -x "$VENV/bin/videodemo" ]; then
  finish
  exit 0
fi
echo "[bootstrap] setting up $VENV with $PYTHON (first run takes a few minutes)"
install_venv() {
  [ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
  [ -n "$INSTALLER_UV" ] || "$VENV/bin/python" -m pip install -q --upgrade pip
  # The CPU build of torch first: an unpinned torch would pull a multi-GB CUDA build.
  pip_into "$VENV/bin/python" "torch==2.13.0"
  (flock 9 && pip_into "$VENV/bin/python" -e ".[dev,scale]") 9>.editable-install.lock
}
timed "project .venv" install_venv
touch "$STAMP"
finish
