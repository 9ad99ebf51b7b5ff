# Sourced by scripts/servers/<name>.sh: `server_env NAME` sets VENV to .venv-servers/NAME (or under
# $VIDEODEMO_SERVERS) and exits the calling script when that environment is already installed; otherwise it
# creates the environment with Python 3.11+ and an up-to-date pip. The caller installs, then runs `server_env_done`.
server_env() {
  local name=$1
  ROOT=${VIDEODEMO_SERVERS:-.venv-servers}
  VENV=$ROOT/$name
  [ -f "$VENV/.installed" ] && [ -x "$VENV/bin/python" ] && exit 0
  local python=""
  for candidate in python3.11 python3.12 python3.13 python3; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
      python=$candidate; break
    fi
  done
  [ -n "$python" ] || { echo "[servers] error: Python 3.10+ not found; install python3.11" >&2; exit 1; }
  mkdir -p "$ROOT"
  [ -x "$VENV/bin/python" ] || "$python" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --upgrade pip
}

server_env_done() {
  touch "$VENV/.installed"
}
