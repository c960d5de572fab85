"""Telling readers the graph changed: every write transaction that changes an answer moves the data version
in the same transaction, so readers' caches never lag what is committed.

The response and network caches key on `(:Meta {key: 'graph'}).data_version` (server/response_cache.py,
graph/network_cache.py). A load moves it in each batch's transaction and each derive step's
(loaders/write.py, loaders/derived.py), not only at the end, so a load killed midway leaves no cache behind
the database; `weft analytics` and `weft embed` move it too. The cost is one property SET on one node per
transaction. When this process holds the writer lock (graph/writer_lock.py), the same statement checks the
lock is still its own, and a writer whose lock was taken over rolls the transaction back instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Concatenate, LiteralString, ParamSpec, TypeVar

from neo4j import Driver, ManagedTransaction, Session

from weft.graph import writer_lock
from weft.graph.driver import translated_errors
from weft.queries.derive import BUMP_DATA_VERSION
from weft.queries.writer_lock import FENCED_BUMP

P = ParamSpec("P")
R = TypeVar("R")


def mark_written(tx: ManagedTransaction) -> int:
    """Within a write transaction (last, just before it commits): move the data version, checking first
    that this process still holds the writer lock when it holds one; returns the new data version."""
    lock = writer_lock.held()
    if lock is None:
        record = tx.run(BUMP_DATA_VERSION).single()
    else:
        lock.check()
        record = tx.run(FENCED_BUMP, name=writer_lock.LOCK_NAME, token=lock.token).single()
        if record is None:
            lock.mark_lost("another writer took it over")
            lock.check()  # raises: the transaction rolls back
    assert record is not None  # noqa: S101 - MERGE returns its row
    return int(record["data_version"])


def execute_marked(
    session: Session, work: Callable[Concatenate[ManagedTransaction, P], R], *args: P.args, **kwargs: P.kwargs
) -> R:
    """`session.execute_write(work, ...)`, with the data version moved in the same transaction."""

    def marked(tx: ManagedTransaction) -> R:
        result = work(tx, *args, **kwargs)
        mark_written(tx)
        return result

    return session.execute_write(marked)


def _records(tx: ManagedTransaction, query: LiteralString, params: dict[str, Any]) -> list[dict[str, Any]]:
    return [record.data() for record in tx.run(query, params)]


def run_marked(driver: Driver, database: str, query: LiteralString, **params: Any) -> list[dict[str, Any]]:
    """One write statement in a transaction that also moves the data version; returns its rows as dicts.
    For batches written one statement at a time (`weft embed`, `weft analytics`); wrap in translated_errors."""
    with driver.session(database=database) as session:
        return execute_marked(session, _records, query, params)


def bump_data_version(driver: Driver, database: str) -> int:
    """Mark the graph changed in a transaction of its own; returns the new data version."""
    with translated_errors("marking the graph changed"), driver.session(database=database) as session:
        return session.execute_write(mark_written)
