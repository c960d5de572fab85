"""GraphReader: every API read goes through `rows()`: a managed read transaction with a timeout.

A reader is made per request, so `queries_run` counts the Cypher queries one request ran
(reported to clients in the `x-weft-cypher-queries` response header). Reads retry transient
failures for at most `retry_s` seconds so a dead database answers UNAVAILABLE quickly instead of
after the driver's default 30 s of retries.
"""

from __future__ import annotations

from typing import Any, LiteralString

from neo4j import READ_ACCESS, AsyncDriver, AsyncManagedTransaction, unit_of_work
from neo4j.exceptions import ClientError

from weft.graph.driver import translated_errors
from weft.graph.errors import InvalidInput

DEFAULT_RETRY_S = 1.0


class QueryBug(RuntimeError):
    """Neo4j rejected one of our own statements (syntax, types): a bug, never the user's input.

    Deliberately not a graph.errors class, so the API edge masks it and logs it in full.
    """


class GraphReader:
    """Runs named read queries on one database with the configured transaction timeout."""

    def __init__(self, driver: AsyncDriver, database: str, timeout_s: float, retry_s: float = DEFAULT_RETRY_S) -> None:
        self.driver = driver
        self.database = database
        self.timeout_s = timeout_s
        self.retry_s = retry_s
        self.queries_run = 0

    async def rows(self, query: LiteralString, params: dict[str, Any], what: str) -> list[dict[str, Any]]:
        """The result rows as dicts; driver failures raise graph.errors (Unavailable, InvalidInput)."""
        self.queries_run += 1

        @unit_of_work(timeout=self.timeout_s)
        async def work(tx: AsyncManagedTransaction) -> list[dict[str, Any]]:
            result = await tx.run(query, params)
            return [record.data() async for record in result]

        try:
            with translated_errors(what):
                async with self.driver.session(
                    database=self.database, default_access_mode=READ_ACCESS, max_transaction_retry_time=self.retry_s
                ) as session:
                    return await session.execute_read(work)
        except InvalidInput as exc:
            cause = exc.__cause__
            if isinstance(cause, ClientError) and (cause.code or "").startswith("Neo.ClientError.Statement."):
                raise QueryBug(f"{what}: Neo4j rejected the statement ({cause.code})") from cause
            raise

    async def one(self, query: LiteralString, params: dict[str, Any], what: str) -> dict[str, Any] | None:
        """The first row, or None when the query returned nothing."""
        found = await self.rows(query, params, what)
        return found[0] if found else None
