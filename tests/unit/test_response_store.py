"""The response cache's bound counts what a kept answer holds in the worker, not only its body."""

from __future__ import annotations

import sys
import tracemalloc

from weft.server.response_cache import CachedResponse, ResponseStore, entry_weight

HEADERS = ((b"content-type", b"application/json"),)


def test_the_store_stays_within_its_bytes_weighing_each_answer_whole() -> None:
    store = ResponseStore(max_bytes=1 << 20)
    store.see((1, "m", 2, 3))
    for k in range(5000):
        body = b'{"data":' + b"x" * (k % 700) + b"}"
        store.put(k.to_bytes(20, "big"), CachedResponse(HEADERS, body))
        assert store.size <= store.max_bytes
    kept = [store.get(k.to_bytes(20, "big")) for k in range(5000)]
    bodies = sum(len(r.body) for r in kept if r is not None)
    assert store.size == sum(entry_weight(r) for r in kept if r is not None)
    assert bodies < store.max_bytes * 0.6  # small answers: most of the bound is their overhead


def test_an_answer_weighs_at_least_what_it_holds() -> None:
    """tracemalloc over many small answers kept: the weight is no less than the bytes traced."""
    store = ResponseStore(max_bytes=64 << 20)
    store.see((1, "m", 2, 3))
    bodies = [b'{"data":{"n":%d}}' % k for k in range(20000)]
    keys = [k.to_bytes(20, "big") + b"x" for k in range(20000)]  # new objects: the key's bytes are counted
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for key, body in zip(keys, bodies, strict=True):
        store.put(key[:20], CachedResponse(HEADERS, body))
    traced = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    held = traced + sum(sys.getsizeof(b) for b in bodies)  # the bodies were made before tracing
    assert store.size >= held, (store.size, held)


def test_one_answer_past_an_eighth_is_not_kept() -> None:
    store = ResponseStore(max_bytes=800_000)
    store.see((1, "m", 2, 3))
    store.put(b"big", CachedResponse(HEADERS, b"x" * 100_000))  # weighs more than 100,000 bytes
    store.put(b"small", CachedResponse(HEADERS, b"x" * 10_000))
    assert store.get(b"big") is None and store.get(b"small") is not None
