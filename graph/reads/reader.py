"""GraphReader: every API read goes through `rows()`, with a timeout, routing to readers, one error type.

A reader is made per request, so `queries_run` counts the Cypher queries one request ran
(reported to clients in the `x-weft-cypher-queries` response header).
"""

from __future__ import annotations

from typing import Any, LiteralString

from graph.driver import translated_errors
from neo4j import AsyncDriver, Query


class GraphReader:
    """Runs named read queries on one database with the configured transaction timeout."""

    def __init__(self, driver: AsyncDriver, database: str, timeout_s: float) -> None:
        self.driver = driver
        self.database = database
        self.timeout_s = timeout_s
        self.queries_run = 0

    async def rows(self, query: LiteralString, params: dict[str, Any], what: str) -> list[dict[str, Any]]:
        """The result rows as dicts; driver failures raise graph.errors (Unavailable, InvalidInput)."""
        self.queries_run += 1
        with translated_errors(what):
            records, _, _ = await self.driver.execute_query(
                Query(query, timeout=self.timeout_s),
                params,
                routing_="r",
                database_=self.database,
            )
        return [record.data() for record in records]

    async def one(self, query: LiteralString, params: dict[str, Any], what: str) -> dict[str, Any] | None:
        """The first row, or None when the query returned nothing."""
        found = await self.rows(query, params, what)
        return found[0] if found else None
