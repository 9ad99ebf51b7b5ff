"""Embeddings: the packaged local model, and an OpenAI-compatible endpoint (the scripted server)."""

from __future__ import annotations

import numpy as np
import pytest

from foundation.errors import UserError
from model_access.embeddings import Embedder


def test_local_model_ranks_paraphrases_above_unrelated_text(model_settings):
    embedder = Embedder(model_settings)
    vectors = embedder.encode(
        [
            "Add the blue running shoes to the shopping cart",
            "Put the blue sneakers in my cart",
            "Reply to the newest post in the gardening forum",
        ]
    )
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    close, far = vectors[0] @ vectors[1], vectors[0] @ vectors[2]
    assert close > far + 0.2


def test_local_vectors_are_cached_and_replayed_identically(model_settings):
    embedder = Embedder(model_settings)
    texts = ["Sort products by price", "Open the user's order history"]
    first = embedder.encode(texts, stage="index")
    again = Embedder(model_settings, embedder.ledger).encode(texts[::-1], stage="index")
    assert np.array_equal(again, first[::-1])
    usage = embedder.ledger.usage("index", "embedding")
    assert (usage.calls, usage.cache_hits) == (4, 2)
    assert embedder.encode([]).shape == (0, 384)


def test_openai_backend_against_an_endpoint(model_settings, scripted):
    server = scripted({"name": "embedder", "embedding_dim": 32})
    model_settings.models.embedding.backend = "openai"
    model_settings.models.embedding.base_url = server.base_url
    model_settings.models.embedding.model = "text-embedding-test"
    model_settings.models.embedding.batch_size = 2
    texts = ["checkout the cart", "cart checkout now", "forum reply", "checkout the cart"]

    embedder = Embedder(model_settings)
    vectors = embedder.encode(texts, stage="index")
    assert vectors.shape == (4, 32)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(vectors[0], vectors[3])
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]  # shared words, closer vectors
    sent = [r["body"]["input"] for r in server.requests("/embeddings")]
    assert sent == [texts[0:2], texts[2:4]]
    assert all(r["body"]["model"] == "text-embedding-test" for r in server.requests("/embeddings"))

    # Known texts come from the cache; only the new one is sent.
    more = embedder.encode(["forum reply", "a brand new objective"], stage="index")
    assert np.array_equal(more[0], vectors[2])
    assert [r["body"]["input"] for r in server.requests("/embeddings")][-1] == ["a brand new objective"]
    usage = embedder.ledger.usage("index", "embedding")
    assert (usage.calls, usage.cache_hits, usage.scripted) == (6, 1, 5)


def test_openai_backend_needs_an_endpoint(model_settings):
    model_settings.models.embedding.backend = "openai"
    with pytest.raises(UserError, match="models.embedding.base_url"):
        Embedder(model_settings)


def test_unknown_local_model_says_what_is_available(model_settings):
    model_settings.models.embedding.model = "some-model-not-on-disk"
    with pytest.raises(UserError, match="not available offline"):
        Embedder(model_settings).encode(["x"], use_cache=False)
