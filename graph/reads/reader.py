"""GraphReader: every API read goes through `rows()`: one auto-commit read with a timeout.

A reader is made per request, so `queries_run` counts the Cypher queries one request ran
(reported to clients in the `x-weft-cypher-queries` response header). Each read is a single
auto-commit transaction: RUN and PULL go out together, one round trip, where a managed transaction
costs three (BEGIN, RUN and PULL, COMMIT). Reads change nothing, so retrying them is safe: retryable
failures are retried for at most `retry_s` seconds so a dead database answers UNAVAILABLE quickly
instead of after the driver's default 30 s of retries.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, LiteralString, cast

from neo4j import READ_ACCESS, AsyncDriver, Query
from neo4j.exceptions import ClientError, DriverError, Neo4jError
from neo4j.graph import Node, Path, Relationship

from weft.graph.driver import translated_errors
from weft.graph.errors import InvalidInput

DEFAULT_RETRY_S = 1.0
FIRST_RETRY_DELAY_S = 0.05
_AS_IS: frozenset[type] = frozenset({str, int, float, bool, type(None)})


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

    async def rows(
        self, query: LiteralString, params: dict[str, Any], what: str, *, values_only: bool = False
    ) -> list[dict[str, Any]]:
        """The result rows as dicts; driver failures raise graph.errors (Unavailable, InvalidInput).

        `values_only`: the query returns no nodes, relationships or paths, anywhere (maps, lists and
        scalars only), so its values are kept as the driver decoded them, not walked again: a network's
        ten thousand ties cost a tenth of its request in that walk.
        """
        self.queries_run += 1
        try:
            with translated_errors(what):
                return await self._retrying(Query(query, timeout=self.timeout_s), params, values_only)
        except InvalidInput as exc:
            cause = exc.__cause__
            if isinstance(cause, ClientError) and (cause.code or "").startswith("Neo.ClientError.Statement."):
                raise QueryBug(f"{what}: Neo4j rejected the statement ({cause.code})") from cause
            raise

    async def one(
        self, query: LiteralString, params: dict[str, Any], what: str, *, values_only: bool = False
    ) -> dict[str, Any] | None:
        """The first row, or None when the query returned nothing."""
        found = await self.rows(query, params, what, values_only=values_only)
        return found[0] if found else None

    async def _retrying(self, query: Query, params: dict[str, Any], values_only: bool) -> list[dict[str, Any]]:
        """`_run`, again after retryable failures (doubling pauses) until `retry_s` has passed."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.retry_s
        delay = FIRST_RETRY_DELAY_S
        while True:
            try:
                return await self._run(query, params, values_only)
            except (Neo4jError, DriverError) as exc:
                if not exc.is_retryable() or loop.time() + delay > deadline:
                    raise
            await asyncio.sleep(delay)
            delay *= 2

    async def _run(self, query: Query, params: dict[str, Any], values_only: bool) -> list[dict[str, Any]]:
        async with self.driver.session(database=self.database, default_access_mode=READ_ACCESS) as session:
            result = await session.run(query, params)
            keys = result.keys()
            if values_only:
                return [dict(zip(keys, cast("Sequence[Any]", record), strict=True)) async for record in result]
            return [_row(keys, record) async for record in result]


def _row(keys: tuple[str, ...], values: Sequence[Any]) -> dict[str, Any]:
    return {key: plain(value) for key, value in zip(keys, values, strict=True)}


def plain(value: Any) -> Any:
    """A value as `Record.data()` returns it (nodes as property dicts, relationships and paths as it spells
    them, lists and maps converted within, everything else as is), with a type look-up per value instead
    of data()'s chain of abstract isinstance checks (which cost a tenth of a profile request's CPU)."""
    kind = type(cast(object, value))
    if kind in _AS_IS:
        return value
    if kind is list:
        return [plain(item) for item in value]
    if kind is dict:
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, Node):
        return _properties(value)
    if isinstance(value, Relationship):
        return (_properties(value.start_node), type(value).__name__, _properties(value.end_node))
    if isinstance(value, Path):
        spelled: list[Any] = [_properties(value.start_node)]
        for relationship, node in zip(value.relationships, value.nodes[1:], strict=True):
            spelled += [type(relationship).__name__, _properties(node)]
        return spelled
    return value


def _properties(node: Node | None) -> dict[str, Any] | None:
    return None if node is None else {key: plain(item) for key, item in node.items()}
