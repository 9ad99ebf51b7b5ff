# Sourced by scripts/servers/<name>.sh: `server_env NAME` sets VENV to .venv-servers/NAME (or under
# $VIDEODEMO_SERVERS) and exits the calling script when that environment is already installed; otherwise it
# creates the environment with Python 3.11+ (`server_env NAME 12`: 3.12+, looked for under pyenv too) and an
# up-to-date pip (none needed when uv installs). The caller installs with `pip_into` (scripts/lib/installer.sh),
# then runs `server_env_done`.
source "$(dirname "${BASH_SOURCE[0]}")/../../lib/installer.sh"
server_env() {
  local name=$1 minor=${2:-10}
  ROOT=${VIDEODEMO_SERVERS:-.venv-servers}
  VENV=$ROOT/$name
  [ -f "$VENV/.installed" ] && [ -x "$VENV/bin/python" ] && exit 0
  local python=""
  local pyenv_pythons=("${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[2-9]*/bin/python3)
  for candidate in python3.11 python3.12 python3.13 python3 "${pyenv_pythons[@]}"; do
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c "import sys; sys.exit(sys.version_info < (3, $minor))" 2>/dev/null; then
      python=$candidate; break
    fi
  done
  [ -n "$python" ] || {
    echo "[servers] error: Python 3.$minor+ not found; install python3.$((minor > 11 ? minor : 11))" >&2; exit 1
  }
  mkdir -p "$ROOT"
  [ -x "$VENV/bin/python" ] || "$python" -m venv "$VENV"
  installer_setup
  [ -n "$INSTALLER_UV" ] || "$VENV/bin/python" -m pip install -q --upgrade pip
}

server_env_done() {
  touch "$VENV/.installed"
}
