"""Which sample a model call belongs to, so the cache never passes one sample off as another.

A call at temperature 0 is deterministic (as far as servers are): the same request
is the same answer, and the cache may serve it to anyone. A call at a temperature
above 0 (or unset: the server's default, usually 1.0) draws a sample. Such a call
is keyed by the request AND by where it was drawn:

- the run's sample number (`run.sample`, 1 for an ordinary run; `videodemo run
  --samples N` plays samples 1..N),
- the unit of work the call belongs to (a task's key in a run, a video's id in
  process-videos; outside any unit, the client that makes the call),
- the occurrence of that exact request within the unit: the first, the second...

So two samples of one task draw independently; a re-ask with an identical request
(an unreadable reply asked again) draws a new reply instead of replaying the last;
and a task resumed after a kill makes its calls in the same order and finds its own
earlier answers, so nothing is paid twice. Where the role allows it
(`models.<role>.send_seed`), the request also carries a seed derived from that key,
so a server that honours seeds (vLLM, llama.cpp, OpenAI on a best-effort basis)
draws the same sample again if the cache is lost.

Two configurations that send the very same request in the same sample and task
share its reply (common random numbers): paired comparisons lose nothing by it.

    with sampling_scope(task.key, sample=settings.run.sample):
        ...  # every call made here, in this thread or in `ModelClient.chat_many`'s workers
"""

from __future__ import annotations

import contextvars
import hashlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any


@dataclass
class SampleScope:
    sample: int = 1
    unit: str = ""
    _seen: dict[str, int] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def next_occurrence(self, request_key: str) -> int:
        """0 for the first time this exact request is made in the scope, then 1, 2, ..."""
        with self._lock:
            count = self._seen.get(request_key, 0)
            self._seen[request_key] = count + 1
        return count

    def describe(self) -> dict[str, Any]:
        return {"sample": self.sample, "unit": self.unit}


_current: contextvars.ContextVar[SampleScope | None] = contextvars.ContextVar("videodemo_sample_scope", default=None)


@contextmanager
def sampling_scope(unit: str, sample: int = 1) -> Iterator[SampleScope]:
    """Calls made inside belong to `unit` of sample `sample` (a fresh occurrence count)."""
    if int(sample) < 1:
        raise ValueError(f"a sample number starts at 1, got {sample}")
    scope = SampleScope(sample=int(sample), unit=str(unit))
    token = _current.set(scope)
    try:
        yield scope
    finally:
        _current.reset(token)


def current_scope() -> SampleScope | None:
    """The scope set by the innermost `sampling_scope` of this thread (or of the caller of `chat_many`)."""
    return _current.get()


def is_sampled(body: dict[str, Any]) -> bool:
    """A request draws a sample unless it asks for temperature 0 (unset means the server's default, above 0)."""
    temperature = body.get("temperature")
    return temperature is None or float(temperature) > 0.0


def sample_seed(request_key: str, sample: int, unit: str, occurrence: int) -> int:
    """A seed for one drawn sample: stable across runs, different for every sample, unit and occurrence."""
    text = f"{request_key}|{sample}|{unit}|{occurrence}"
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:8], 16) % (2**31 - 1)
