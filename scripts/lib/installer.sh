# Sourced by scripts/bootstrap.sh and scripts/servers/*.sh: `pip_into PYTHON ARGS...` installs packages into the
# environment of PYTHON with uv (about 10x quicker than pip on a warm cache: the project's .venv in ~15 s instead
# of ~200 s on 2 cores) or with pip. uv is taken from PATH, else installed once into .venv-tools. uv reads no
# pip.conf: pip's own settings (indexes, find-links, constraints, certificate; files and PIP_* variables) are
# passed to it (scripts/lib/pip_settings_for_uv.py), with pip's rule of taking the best version across indexes.
# VIDEODEMO_INSTALLER=pip installs with pip throughout.
INSTALLER_TOOLS=${INSTALLER_TOOLS:-.venv-tools}
INSTALLER_UV_VERSION=0.13.9

installer_setup() {  # sets INSTALLER_UV (empty: pip) once; says so when it cannot use uv
  [ -n "${INSTALLER_READY:-}" ] && return 0
  INSTALLER_READY=1
  INSTALLER_UV=""
  if [ "${VIDEODEMO_INSTALLER:-uv}" = pip ]; then
    return 0
  fi
  if command -v uv >/dev/null 2>&1; then
    INSTALLER_UV=$(command -v uv)
  else
    mkdir -p "$(dirname "$INSTALLER_TOOLS")"
    # Several install scripts may start at once: one installs uv, the others wait for it.
    (
      flock 9
      [ -x "$INSTALLER_TOOLS/bin/uv" ] && exit 0
      local python
      python=$(command -v python3.11 || command -v python3)
      "$python" -m venv "$INSTALLER_TOOLS" && "$INSTALLER_TOOLS/bin/python" -m pip install -q "uv==$INSTALLER_UV_VERSION"
    ) 9>".venv-tools.lock" >/dev/null 2>&1 || true
    if [ -x "$INSTALLER_TOOLS/bin/uv" ]; then
      INSTALLER_UV=$INSTALLER_TOOLS/bin/uv
    else
      echo "[install] could not install uv $INSTALLER_UV_VERSION into $INSTALLER_TOOLS; installing with pip (slower)." \
        "Set VIDEODEMO_INSTALLER=pip to skip this attempt" >&2
      return 0
    fi
  fi
  mapfile -t INSTALLER_UV_ARGS < <(python3 "$(dirname "${BASH_SOURCE[0]}")/pip_settings_for_uv.py")
  export INSTALLER_UV
}

pip_into() {  # pip_into PYTHON ARGS...: `pip install -q ARGS` into PYTHON's environment
  local python=$1; shift
  installer_setup
  if [ -n "$INSTALLER_UV" ]; then
    "$INSTALLER_UV" pip install -q --python "$python" "${INSTALLER_UV_ARGS[@]}" "$@"
  else
    "$python" -m pip install -q "$@"
  fi
}
