"""The read-only guard of ad-hoc Cypher (`weft cypher`, the MCP tool `cypher_read`): a query runs only when its
plan (EXPLAIN: nothing runs) is read-only, and then in a read transaction with a timeout and a row cap."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from neo4j import READ_ACCESS, AsyncDriver, AsyncManagedTransaction, unit_of_work
from neo4j.exceptions import ClientError

from weft.graph.driver import translated_errors
from weft.graph.errors import InvalidInput
from weft.graph.reads.reader import plain

# What `weft cypher` runs (issue 11; Community Neo4j has no roles to lean on, so the plan is checked first):
# a query the planner classifies as read-only (`r`: no writes, no schema or DBMS commands), on the
# configured database, calling no procedure but these, and with no operator of these kinds (LOAD CSV can
# fetch URLs; SHOW/TERMINATE see or end other sessions' work; administration commands run on `system`).
READ_ONLY_PROCEDURES = frozenset(
    {
        "db.labels",
        "db.relationshipTypes",
        "db.propertyKeys",
        "db.schema.visualization",
        "db.schema.nodeTypeProperties",
        "db.schema.relTypeProperties",
    }
)
REFUSED_OPERATORS = ("LoadCSV", "Show", "Terminate", "Administration")


def refusal(query_type: str | None, operators: list[tuple[str, str]], database: str) -> str | None:
    """Why the guard refuses a query with this planner classification and plan (operator, details), or None.

    >>> refusal("r", [("ProduceResults@neo4j", "n"), ("AllNodesScan@neo4j", "n")], "neo4j") is None
    True
    >>> refusal("r", [("LoadCSV@neo4j", "row")], "neo4j")
    'LOAD CSV is not allowed (it reads files and URLs)'
    """
    if query_type != "r":
        return "only read queries are allowed (no writes, schema, index or DBMS commands)"
    for operator, details in operators:
        name, _, where = operator.partition("@")
        if where and where != database:
            return f"only the `{database}` database may be queried"
        if name == "LoadCSV":
            return "LOAD CSV is not allowed (it reads files and URLs)"
        if name.startswith(REFUSED_OPERATORS):
            return f"administration commands are not allowed ({name})"
        procedure = details.split("(", 1)[0].strip()
        if name == "ProcedureCall" and procedure not in READ_ONLY_PROCEDURES:
            return f"procedure {procedure} is not allowed (only {', '.join(sorted(READ_ONLY_PROCEDURES))})"
    return None


def operators(plan: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    """(operatorType, Details) of every operator of an EXPLAIN plan."""
    if not plan:
        return []
    found = [(str(plan.get("operatorType", "")), str(plan.get("args", {}).get("Details", "")))]
    for child in plan.get("children", []):
        found += operators(child)
    return found


async def check_read_only_async(driver: AsyncDriver, text: str, params: Mapping[str, Any], database: str) -> None:
    """InvalidInput naming what is refused unless the guard allows the query (the async driver's check)."""
    async with driver.session(database=database, default_access_mode=READ_ACCESS) as session:
        with translated_errors("planning the query"):
            # a client's own query, planned and not run: a str, never a LiteralString
            result = await session.run("EXPLAIN " + text, dict(params))  # pyright: ignore[reportArgumentType]
            summary = await result.consume()
    plan = cast(Mapping[str, Any] | None, summary.plan)  # pyright: ignore[reportUnknownMemberType] - the driver's bare dict
    why = refusal(summary.query_type, operators(plan), database)
    if why:
        raise InvalidInput(f"refused: the query must be read-only: {why}", argument="query")


async def run_read_async(
    driver: AsyncDriver, text: str, params: Mapping[str, Any], database: str, timeout_s: float, max_rows: int
) -> tuple[list[str], list[list[Any]], bool]:
    """Columns, at most `max_rows` rows (plain values) and whether more followed, once the guard allows the
    query; run in a READ transaction (the server refuses writes) with a timeout."""
    await check_read_only_async(driver, text, params, database)

    @unit_of_work(timeout=timeout_s)
    async def work(tx: AsyncManagedTransaction) -> tuple[list[str], list[list[Any]], bool]:
        result = await tx.run(text, dict(params))  # pyright: ignore[reportArgumentType]
        records = await result.fetch(max_rows + 1)
        columns = list(result.keys())
        await result.consume()
        rows = [[plain(v) for v in record.values()] for record in records[:max_rows]]
        return columns, rows, len(records) > max_rows

    try:
        async with driver.session(database=database, default_access_mode=READ_ACCESS) as session:
            with translated_errors("running the query"):
                return await session.execute_read(work)
    except InvalidInput as exc:
        cause = exc.__cause__
        if (
            isinstance(cause, ClientError)
            and cause.code
            and ("AccessMode" in cause.code or "ForbiddenDueToTransactionType" in cause.code)
        ):
            raise InvalidInput("refused: the query writes; only reads are allowed", argument="query") from cause
        raise
