"""Telling readers the graph changed: every write that changes an answer ends by bumping the data version.

Loads bump it when their derived step commits (loaders/derived.py). `weft analytics` and `weft embed`
change answers too (scores, `similar`, semantic search), so they bump it the same way; the server's
response and network caches key on it (server/response_cache.py, graph/network_cache.py).
"""

from __future__ import annotations

from neo4j import Driver

from weft.graph.driver import translated_errors
from weft.queries.derive import BUMP_DATA_VERSION


def bump_data_version(driver: Driver, database: str) -> int:
    """Mark the graph changed; returns the new data version."""
    with translated_errors("marking the graph changed"):
        records, _, _ = driver.execute_query(BUMP_DATA_VERSION, database_=database)
    return int(records[0]["data_version"])
