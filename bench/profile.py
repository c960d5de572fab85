"""Where an online load spends its time: seconds per named Cypher statement vs everything else.

`query_timer()` wraps the driver's transaction `run` and commit for the duration of a `with`
block: each statement's result is fetched at once, so its time covers packing the parameters,
the server's work and the transfer; commits are timed on their own. Statement names come from
the constants in queries/.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import neo4j._sync.work.transaction as driver_tx

from weft import queries

COMMIT = "(transaction commits)"


@dataclass
class QueryStats:
    """Calls, seconds and parameter rows per statement name."""

    calls: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    rows: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    @property
    def total(self) -> float:
        return sum(self.seconds.values())

    def top(self, n: int = 10) -> list[tuple[str, int, int, float]]:
        ranked = sorted(self.seconds, key=lambda k: -self.seconds[k])[:n]
        return [(k, self.calls[k], self.rows[k], self.seconds[k]) for k in ranked]


def statement_names() -> dict[str, str]:
    """{Cypher text: 'module.CONSTANT'} for every statement in queries/."""
    import importlib
    import pkgutil

    names: dict[str, str] = {}
    for info in pkgutil.iter_modules(queries.__path__):
        module = importlib.import_module(f"weft.queries.{info.name}")
        for attr, value in vars(module).items():
            if attr.isupper() and isinstance(value, str):
                names[value] = f"{info.name}.{attr}"
            elif attr.isupper() and isinstance(value, tuple):
                for item in value:
                    if isinstance(item, str):
                        names[item] = f"{info.name}.{attr}"
    return names


@contextmanager
def query_timer() -> Iterator[QueryStats]:
    """Time every statement run in a transaction inside the block."""
    stats = QueryStats()
    names = statement_names()
    original = driver_tx.TransactionBase.run

    def timed(self, query, parameters=None, **kwparameters):  # noqa: ANN001, ANN202 - driver signature
        began = time.perf_counter()
        result = original(self, query, parameters, **kwparameters)
        result._buffer_all()
        name = names.get(query, " ".join(str(query).split())[:50])
        stats.calls[name] += 1
        stats.seconds[name] += time.perf_counter() - began
        params = {**(parameters or {}), **kwparameters}
        stats.rows[name] += sum(len(v) for v in params.values() if isinstance(v, list))
        return result

    original_commit = driver_tx.TransactionBase._commit

    def timed_commit(self):  # noqa: ANN001, ANN202 - driver signature
        began = time.perf_counter()
        try:
            return original_commit(self)
        finally:
            stats.calls[COMMIT] += 1
            stats.seconds[COMMIT] += time.perf_counter() - began

    driver_tx.TransactionBase.run = timed
    driver_tx.TransactionBase._commit = timed_commit
    try:
        yield stats
    finally:
        driver_tx.TransactionBase.run = original
        driver_tx.TransactionBase._commit = original_commit
