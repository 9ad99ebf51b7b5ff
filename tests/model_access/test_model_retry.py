"""Backoff timing: exponential caps with full jitter, and a server's Retry-After."""

from __future__ import annotations

import random

from model_access.retry import RetryPolicy


def test_waits_grow_exponentially_up_to_the_cap_with_full_jitter():
    policy = RetryPolicy(max_retries=8, initial_s=1.0, max_s=10.0, rng=random.Random(0))
    for retry_number, cap in enumerate([1, 2, 4, 8, 10, 10]):
        waits = [policy.delay(retry_number) for _ in range(400)]
        assert 0.0 <= min(waits) and max(waits) <= cap
        # Full jitter spreads waits over the whole range, so workers do not retry in lockstep.
        assert min(waits) < 0.1 * cap and max(waits) > 0.9 * cap


def test_retry_after_is_honoured_but_capped():
    policy = RetryPolicy(initial_s=0.01, max_s=5.0, rng=random.Random(1))
    assert policy.delay(0, retry_after_s=3.0) >= 3.0
    assert policy.delay(0, retry_after_s=120.0) == 5.0
