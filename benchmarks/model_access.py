"""Model access speed: concurrent calls against a slow server, and local embeddings.

1. Starts the scripted OpenAI-compatible server with a fixed delay per request
   (default 200 ms, standing for a model's answer time; the server is threaded and
   serves every request at once) in its own process, as a real model server would
   be, so its work does not compete with the client's for one interpreter lock.
   Then sends the same number of distinct requests
   through `ModelClient.chat_many` with concurrency 1 and with concurrency 32, cache
   off, and prints both wall times and their ratio (target: at least 20x).
2. Embeds 1,000 short objectives with the local all-MiniLM-L6-v2 on CPU, cache off,
   and prints the model load time and the encode time separately (target: encode
   under 10 s).

    .venv/bin/python benchmarks/model_access.py [--requests 500] [--delay 0.2] [--texts 1000]
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path

# This file shares its name with the package it measures: drop its own folder from the path, put the project first.
HERE = Path(__file__).resolve().parent
sys.path[:] = [str(HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != HERE]

from model_access.client import ChatRequest, ModelClient  # noqa: E402
from model_access.messages import user_message  # noqa: E402
from model_access.scripted_server import ScriptedServer  # noqa: E402
from settings import load_settings  # noqa: E402

SPEEDUP_TARGET = 20.0
ENCODE_TARGET_S = 10.0


def serve(script: dict, ready, stop) -> None:
    """Child process: run the scripted server until told to stop, then report its busiest moment."""
    with ScriptedServer(script) as server:
        ready.put(server.base_url)
        stop.wait()
        ready.put(server.max_in_flight)


def time_calls(base_url: str, cache_dir: Path, requests: int, concurrency: int) -> float:
    settings = load_settings()
    settings.paths.cache_dir = cache_dir
    settings.models.use_cache = False
    settings.models.max_concurrency = concurrency
    settings.models.llm.base_url = base_url
    settings.models.llm.model = "benchmark"
    prompts = [f"Request number {i}: say ok." for i in range(requests)]
    batch = [ChatRequest("llm", [user_message(prompt)], stage="benchmark") for prompt in prompts]
    with ModelClient(settings) as client:
        started = time.perf_counter()
        results = client.chat_many(batch)
        wall = time.perf_counter() - started
    assert len(results) == requests and all(r.text == "ok" for r in results)
    return wall


def objectives(count: int) -> list[str]:
    verbs = ["Add", "Remove", "Find", "Sort", "Filter", "Open", "Edit", "Reply to", "Compare", "Review"]
    things = [
        "the cheapest blue shoes", "a wireless mouse", "the newest post", "order #170", "my wish list",
        "the top-rated comment", "a gardening forum", "the shipping address", "a kitchen blender", "my profile",
    ]  # fmt: skip
    ways = [
        "in the shop", "on the forum", "by price", "from the cart", "after logging in",
        "using the search bar", "in the admin panel", "from the home page", "for this week", "with one click",
    ]  # fmt: skip
    combos = itertools.islice(itertools.product(verbs, things, ways), count)
    return [f"{verb} {thing} {way}" for verb, thing, way in combos]


def time_embeddings(cache_dir: Path, count: int) -> tuple[float, float, int]:
    """(import and load seconds, encode seconds, dimensions)."""
    started = time.perf_counter()
    from model_access.embeddings import Embedder, load_local_model

    settings = load_settings()
    settings.paths.cache_dir = cache_dir
    settings.models.use_cache = False
    embedder = Embedder(settings)
    load_local_model(settings.models.embedding.model)
    loaded = time.perf_counter()
    vectors = embedder.encode(objectives(count), stage="benchmark")
    encoded = time.perf_counter()
    assert vectors.shape[0] == count
    return loaded - started, encoded - loaded, int(vectors.shape[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=500, help="requests per concurrency level (default 500)")
    parser.add_argument("--delay", type=float, default=0.2, help="server seconds per request (default 0.2)")
    parser.add_argument("--concurrency", type=int, default=32, help="the concurrent level compared with 1 (default 32)")
    parser.add_argument("--texts", type=int, default=1000, help="objectives to embed (default 1000)")
    parser.add_argument("--skip-embeddings", action="store_true")
    args = parser.parse_args()

    print(f"machine: {os.cpu_count()} CPU cores; other work on the machine makes these figures noisy")
    with tempfile.TemporaryDirectory(prefix="videodemo-bench-") as tmp:
        cache_dir = Path(tmp)
        context = multiprocessing.get_context("spawn")
        channel, stop = context.Queue(), context.Event()
        script = {"name": "benchmark", "delay_s": args.delay, "default": "ok"}
        server = context.Process(target=serve, args=(script, channel, stop), daemon=True)
        server.start()
        try:
            base_url = channel.get(timeout=60)
            rows = []
            for concurrency in (1, args.concurrency):
                wall = time_calls(base_url, cache_dir, args.requests, concurrency)
                rows.append((concurrency, wall))
                print(f"  ... concurrency {concurrency}: {wall:.2f} s", flush=True)
        finally:
            stop.set()
        max_in_flight = channel.get(timeout=30)
        server.join(timeout=30)
        print()
        print(f"Chat calls: {args.requests} requests, server sleeps {args.delay * 1000:.0f} ms each, cache off")
        print(f"{'concurrency':>11}  {'wall s':>8}  {'requests/s':>10}")
        for concurrency, wall in rows:
            print(f"{concurrency:>11}  {wall:>8.2f}  {args.requests / wall:>10.1f}")
        speedup = rows[0][1] / rows[1][1]
        verdict = "meets" if speedup >= SPEEDUP_TARGET else "MISSES"
        print(f"speed-up {speedup:.1f}x ({verdict} the >= {SPEEDUP_TARGET:.0f}x target)")
        print(f"most requests in flight at the server at once: {max_in_flight}")

        if not args.skip_embeddings:
            load_s, encode_s, dims = time_embeddings(cache_dir, args.texts)
            print()
            print(f"Local embeddings: {args.texts} short objectives, all-MiniLM-L6-v2 ({dims} dims), CPU, cache off")
            print(f"{'import + load s':>15}  {'encode s':>8}  {'texts/s':>7}")
            print(f"{load_s:>15.2f}  {encode_s:>8.2f}  {args.texts / encode_s:>7.0f}")
            verdict = "meets" if encode_s < ENCODE_TARGET_S else "MISSES"
            print(f"encode {verdict} the < {ENCODE_TARGET_S:.0f} s target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
