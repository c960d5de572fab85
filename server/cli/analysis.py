"""`weft cypher` and `weft analytics`: ad-hoc read-only Cypher and whole-graph scores."""

from __future__ import annotations

import csv
import json
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, cast

import typer
from neo4j import READ_ACCESS, Driver, ManagedTransaction, unit_of_work
from neo4j import graph as neo4j_graph
from neo4j.exceptions import ClientError, Neo4jError
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from weft.graph.driver import check_connectivity, open_driver, translated_errors
from weft.graph.errors import InvalidInput, Unavailable, WeftError
from weft.graph.read_only_cypher import operators, refusal
from weft.graph.settings import load_settings
from weft.server.cli.support import WaitOpt, fail, writing

console = Console(stderr=True)
FORMATS = ("table", "json", "csv")


@dataclass(frozen=True)
class ReadResult:
    """Columns, rows (plain Python values) and whether the row cap cut the answer."""

    columns: list[str]
    rows: list[list[Any]]
    truncated: bool


def parse_param(text: str) -> tuple[str, Any]:
    """`k=v` to (k, value): v is read as JSON when it parses (numbers, true, null, lists, "quoted"),
    otherwise kept as a plain string.

    >>> parse_param("limit=5"), parse_param("name=Peter Butcher"), parse_param('ids=["a","b"]')
    (('limit', 5), ('name', 'Peter Butcher'), ('ids', ['a', 'b']))
    """
    key, sep, raw = text.partition("=")
    if not sep or not key.strip().isidentifier():
        raise InvalidInput(f"--param must look like name=value, got {text!r}", argument="--param")
    try:
        value: Any = json.loads(raw)
    except ValueError:
        value = raw
    return key.strip(), value


def to_plain(value: Any) -> Any:
    """Driver values as JSON-ready Python: nodes/relationships as property maps with `_labels`/`_type`,
    paths as lists of nodes, temporal values as ISO strings.

    >>> to_plain({"a": [1, "x", None]})
    {'a': [1, 'x', None]}
    """
    if isinstance(value, neo4j_graph.Node):
        return {"_labels": sorted(value.labels), **{k: to_plain(v) for k, v in value.items()}}
    if isinstance(value, neo4j_graph.Relationship):
        return {"_type": value.type, **{k: to_plain(v) for k, v in value.items()}}
    if isinstance(value, neo4j_graph.Path):
        return [to_plain(n) for n in value.nodes]
    if isinstance(value, Mapping):
        return {k: to_plain(v) for k, v in cast(Mapping[str, Any], value).items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in cast(Sequence[Any], value)]
    if hasattr(value, "iso_format"):
        return value.iso_format()
    return value


def check_read_only(driver: Driver, text: str, params: Mapping[str, Any], database: str) -> None:
    """InvalidInput naming what is refused unless the guard allows the query (planned with EXPLAIN: nothing runs)."""
    with (
        translated_errors("planning the query"),
        driver.session(database=database, default_access_mode=READ_ACCESS) as session,
    ):
        # the analyst's own query, planned and not run; a str from the command line, never a LiteralString
        summary = session.run("EXPLAIN " + text, dict(params)).consume()  # pyright: ignore[reportArgumentType]
    plan = cast(Mapping[str, Any] | None, summary.plan)  # pyright: ignore[reportUnknownMemberType] - the driver's bare dict
    why = refusal(summary.query_type, operators(plan), database)
    if why:
        raise InvalidInput(f"refused: `weft cypher` is read-only: {why}", argument="query")


def run_read(
    driver: Driver, text: str, params: Mapping[str, Any], database: str, timeout_s: float, max_rows: int
) -> ReadResult:
    """Run `text` in a READ transaction (the server refuses writes) with a timeout and a row cap, once the
    read-only guard (`check_read_only`) allows it."""
    check_read_only(driver, text, params, database)

    @unit_of_work(timeout=timeout_s)
    def work(tx: ManagedTransaction) -> ReadResult:
        # the analyst's own query: a str from the command line, never a LiteralString
        result = tx.run(text, dict(params))  # pyright: ignore[reportArgumentType]
        records = result.fetch(max_rows + 1)
        columns = list(result.keys())
        result.consume()
        rows = [[to_plain(v) for v in record.values()] for record in records[:max_rows]]
        return ReadResult(columns, rows, len(records) > max_rows)

    try:
        with (
            translated_errors("running the query"),
            driver.session(database=database, default_access_mode=READ_ACCESS) as session,
        ):
            return session.execute_read(work)
    except InvalidInput as exc:
        cause = exc.__cause__
        if (
            isinstance(cause, ClientError)
            and cause.code
            and ("AccessMode" in cause.code or "ForbiddenDueToTransactionType" in cause.code)
        ):
            raise InvalidInput(
                f"refused: `weft cypher` runs queries in a read transaction and this query writes ({cause.message})",
                argument="query",
            ) from cause
        raise


def cell(value: Any) -> str:
    """A value as a table/CSV cell: strings as they are, everything else as compact JSON.

    >>> cell("x"), cell(3), cell(None), cell({"a": 1})
    ('x', '3', '', '{"a": 1}')
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def emit(result: ReadResult, fmt: str) -> None:
    """Print the result to stdout as a rich table, JSON (a list of objects) or CSV."""
    if fmt == "json":
        objects = [dict(zip(result.columns, row, strict=True)) for row in result.rows]
        typer.echo(json.dumps(objects, ensure_ascii=False, indent=2, default=str))
    elif fmt == "csv":
        writer = csv.writer(sys.stdout)
        writer.writerow(result.columns)
        writer.writerows([[cell(v) for v in row] for row in result.rows])
    else:
        table = Table(*result.columns)
        for row in result.rows:
            table.add_row(*(cell(v) for v in row))
        Console().print(table)


def cypher_command(
    query: Annotated[str, typer.Argument(help="The Cypher to run (read-only).")],
    param: Annotated[
        list[str] | None, typer.Option("--param", "-p", help="A query parameter name=value (JSON or text); repeatable.")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="table, json or csv.")] = "table",
    timeout: Annotated[float, typer.Option(help="Transaction timeout in seconds.")] = 30.0,
    max_rows: Annotated[int, typer.Option(help="Print at most this many rows.")] = 1000,
) -> None:
    """Run an ad-hoc Cypher query in a READ transaction (writes are refused), with a timeout and a row cap."""
    settings = load_settings()
    try:
        if fmt not in FORMATS:
            raise InvalidInput(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}", argument="--format")
        if max_rows < 1 or timeout <= 0:
            raise InvalidInput("--max-rows and --timeout must be positive", argument="--max-rows")
        params = dict(parse_param(p) for p in param or [])
        with open_driver(settings) as driver:
            check_connectivity(driver)
            result = run_read(driver, query, params, settings.neo4j_database, timeout, max_rows)
    except WeftError as exc:
        raise fail(exc) from exc
    except Neo4jError as exc:
        raise fail(Unavailable(f"running the query: {exc.message}")) from exc
    emit(result, fmt)
    if result.truncated:
        console.print(f"[yellow]only the first {max_rows} rows shown (--max-rows)[/]")


def analytics_command(
    batch_size: Annotated[int, typer.Option(help="Researchers written per transaction.")] = 5000,
    seed: Annotated[int, typer.Option(help="Louvain seed for networkx (same seed and data, same communities).")] = 42,
    engine: Annotated[
        str,
        typer.Option(help="gds (Graph Data Science in the server), networkx (in this process) or auto (by size)."),
    ] = "auto",
    wait: WaitOpt = None,
) -> None:
    """Score every researcher (PageRank, Louvain community, component, degree and betweenness centrality)
    and store `page_rank`, `community`, `component`, `degree_centrality`, `betweenness`."""
    from weft.graph.network_scores import compute_and_store

    settings = load_settings()
    began = time.monotonic()
    try:
        with open_driver(settings) as driver:
            check_connectivity(driver)
            with writing(driver, settings, "analytics", wait), Progress(console=console, transient=True) as progress:
                task = progress.add_task("writing researcher scores", total=None)
                summary = compute_and_store(
                    driver,
                    settings.neo4j_database,
                    batch_size=batch_size,
                    seed=seed,
                    on_batch=lambda n: progress.advance(task, n),
                    engine=engine,
                )
    except WeftError as exc:
        raise fail(exc) from exc
    typer.echo(
        f"{summary.researchers} researchers, {summary.ties} co-authorship ties, {summary.communities} "
        f"communities; scores written on {summary.written} researchers by {summary.engine} in "
        f"{time.monotonic() - began:.1f}s"
    )


def register(app: typer.Typer) -> None:
    """Add the analysis commands to the root app."""
    app.command("cypher")(cypher_command)
    app.command("analytics")(analytics_command)
