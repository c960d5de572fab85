"""A process-wide cache of computed networks keyed by (query, graph version).

A repeated query with the same parameters on the same data returns the same computed object
(its lazily computed analytics included), so nothing is recomputed. When a load bumps
`(:Meta {key: 'graph'}).data_version`, the next lookup sees a newer version and drops every entry
computed from older data. `cached` is the one read-version / look-up / compute / store sequence
every network query runs.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, NamedTuple, TypeVar

from cachetools import LRUCache

from weft.graph.reads.meta import data_version
from weft.graph.reads.reader import GraphReader

MISSING = object()
"""What `VersionedCache.get` returns for a key it does not hold (None is a value it caches)."""

T = TypeVar("T")


class _Held(NamedTuple):
    """A kept value and what it weighs."""

    value: Any
    weight: int


class _Releasing(LRUCache[Hashable, _Held]):
    """cachetools' LRU telling each value it evicts that it is dropped (`release()`)."""

    def popitem(self) -> tuple[Hashable, _Held]:
        key, held = super().popitem()
        _release(held.value)
        return key, held


def _weight(held: _Held) -> int:
    return held.weight


class VersionedCache:
    """A small LRU of values keyed by (key, data_version); a newer version clears the rest.

    Bounded twice: at most `max_entries` values, and at most `max_weight` in all, each value weighing
    what `put` or `reweigh` is told (a network: the bytes it holds, `network_weight`, weighed again when
    its graph is built), so the network cache keeps a worker's networks within WEFT_NETWORK_CACHE_MB
    however large they are (`resize`). The LRU and its weights are cachetools'.

    >>> cache = VersionedCache(max_entries=2)
    >>> cache.put(("a",), 1, "A1")
    >>> cache.get(("a",), 1)
    'A1'
    >>> cache.get(("a",), 2) is MISSING, len(cache)
    (True, 0)

    A value with a `release()` method is told when the cache drops it (see `Network.release`).
    """

    def __init__(self, max_entries: int = 128, max_weight: int = 24 << 20) -> None:
        self.max_entries = max_entries
        self.max_weight = max_weight
        self._entries = _Releasing(max(max_weight, 1), getsizeof=_weight)
        self._version: Any = None
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def weight(self) -> int:
        """What the values held weigh in all."""
        return int(self._entries.currsize)

    def _see_version(self, version: Any) -> None:
        if version != self._version:
            self._drop_all()
            self._version = version

    def _drop_all(self) -> None:
        while self._entries:
            self._entries.popitem()

    def get(self, key: Hashable, version: Any) -> Any:
        """The cached value for `key` at `version`, or MISSING."""
        with self._lock:
            self._see_version(version)
            held = self._entries.get((key, version))
            if held is None:
                self.misses += 1
                return MISSING
            self.hits += 1
            return held.value

    def holds(self, key: Hashable) -> bool:
        """Whether `key` is held at the last version seen (if not, it is held at no version: a newer one
        drops everything).

        >>> cache = VersionedCache()
        >>> cache.put("a", 1, "A")
        >>> cache.holds("a"), cache.holds("b")
        (True, False)
        """
        with self._lock:
            return (key, self._version) in self._entries

    def put(self, key: Hashable, version: Any, value: Any, weight: int = 1) -> None:
        """Store `value` (weighing `weight`); evicts least recently used entries beyond either bound.
        A value heavier than `max_weight` alone is not kept.

        >>> cache = VersionedCache(max_weight=10)
        >>> cache.put("a", 1, "A", weight=6); cache.put("b", 1, "B", weight=6); cache.put("c", 1, "C", weight=11)
        >>> cache.get("a", 1) is MISSING, cache.get("b", 1), cache.get("c", 1) is MISSING, cache.weight
        (True, 'B', True, 6)
        """
        if weight > self.max_weight:
            return
        with self._lock:
            self._see_version(version)
            entry = (key, version)
            replaced = self._entries.get(entry)
            if replaced is not None and replaced.value is not value:
                _release(replaced.value)
            self._entries[entry] = _Held(value, weight)
            while len(self._entries) > self.max_entries:
                self._entries.popitem()

    def reweigh(self, key: Hashable, version: Any, weight: int) -> None:
        """Weigh a held value anew (it came to hold more), dropping the oldest beyond the bound; a value
        no longer held is left alone (one now heavier than the bound is dropped).

        >>> cache = VersionedCache(max_weight=10)
        >>> cache.put("a", 1, "A", weight=4); cache.put("b", 1, "B", weight=4); cache.reweigh("b", 1, 7)
        >>> cache.get("a", 1) is MISSING, cache.get("b", 1), cache.weight
        (True, 'B', 7)
        """
        with self._lock:
            entry = (key, version)
            held = self._entries.get(entry)
            if held is None:
                return
            if weight > self.max_weight:
                del self._entries[entry]
                _release(held.value)
            else:
                self._entries[entry] = _Held(held.value, weight)

    def resize(self, max_weight: int) -> None:
        """Bound the weight anew (the server sets it from its settings), dropping the oldest beyond it.

        >>> cache = VersionedCache(max_weight=10)
        >>> cache.put("a", 1, "A", weight=6); cache.put("b", 1, "B", weight=3); cache.resize(5)
        >>> cache.get("a", 1) is MISSING, cache.get("b", 1), cache.weight
        (True, 'B', 3)
        """
        with self._lock:
            self.max_weight = max_weight
            old, self._entries = self._entries, _Releasing(max(max_weight, 1), getsizeof=_weight)
            while old:
                entry, held = super(_Releasing, old).popitem()  # least recently used first, nothing released
                if held.weight > self.max_weight:
                    _release(held.value)
                else:
                    self._entries[entry] = held

    def clear(self) -> None:
        """Drop everything (tests and `weft analytics` use it)."""
        with self._lock:
            self._drop_all()
            self._version = None


def _release(value: Any) -> None:
    release = getattr(value, "release", None)
    if callable(release):
        release()


NETWORK_CACHE = VersionedCache()
# What a value weighs when `cached` is told no weight: a collaboration path (a few hops and their papers).
SMALL_VALUE_BYTES = 16 << 10


async def cached(
    reader: GraphReader,
    cache: VersionedCache,
    key: Hashable,
    compute: Callable[[], Awaitable[T]],
    weight: Callable[[T], int] = lambda value: SMALL_VALUE_BYTES,
    read_missing: Callable[[], Awaitable[tuple[Any, T] | None]] | None = None,
) -> T:
    """`compute()`'s answer for `key` at the graph's current version: from `cache` when held there,
    else computed and stored with its `weight` (None too, so an unknown id costs only the version read
    next time). A value with `watch_growth` (a Network) is weighed again when it comes to hold more.

    `read_missing`: when the cache does not hold `key` at the last version it saw, the answer cannot be
    there whatever the version is now, so one read returning (version, value) replaces the version read
    and `compute()` (a network's miss: one round trip instead of three); None from it: the sequence above.
    """
    if read_missing is not None and not cache.holds(key):
        read = await read_missing()
        if read is not None:
            cache.misses += 1
            _store(cache, key, *read, weight)
            return read[1]
    version = await data_version(reader)
    found = cache.get(key, version)
    if found is not MISSING:
        return found
    value = await compute()
    _store(cache, key, version, value, weight)
    return value


def _store(cache: VersionedCache, key: Hashable, version: Any, value: T, weight: Callable[[T], int]) -> None:
    """Put `value` in `cache`, weighed again whenever it grows (`watch_growth`)."""
    cache.put(key, version, value, weight(value))
    watch = getattr(value, "watch_growth", None)
    if callable(watch):

        def reweigh(grown: T) -> None:  # told the value, so that it holds no reference back to itself
            cache.reweigh(key, version, weight(grown))

        watch(reweigh)
