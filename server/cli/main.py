"""The `weft` command line: the local Neo4j, migrations, loads, the server and analytics."""

from __future__ import annotations

import os
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from weft.graph import local_server
from weft.graph.errors import WeftError
from weft.graph.migrate import counts, migrate, reset
from weft.graph.settings import available_cores, load_settings
from weft.server.cli import analysis, bulk, embed, replicas, sync
from weft.server.cli.identity import identity_app
from weft.server.cli.load import load_app
from weft.server.cli.support import WaitOpt, WaitTyper, connected, fail, writing

app = WaitTyper(
    help="Weft: a knowledge graph of papers, researchers and institutions on Neo4j.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
neo4j_app = typer.Typer(help="Run the local Neo4j Community server (fetched from Maven Central).", no_args_is_help=True)
app.add_typer(neo4j_app, name="neo4j")
app.add_typer(load_app, name="load")
app.add_typer(identity_app, name="identity")
bulk.register(app)
analysis.register(app)
embed.register(app)
replicas.register(app)
sync.register(app)
console = Console(stderr=True)

WORKER_HEALTHCHECK_S = 60
"""How long uvicorn's supervisor waits for a worker's health-check answer before killing it (uvicorn's
default, 5 s, killed workers at start-up under load: a spawned worker imports this whole CLI, the
script's module, before its answering thread starts, and that took 6.7 s at load 8; issue 48, item 11).
Only a worker whose every thread is stuck fails the check: a busy event loop answers it all the same."""


@neo4j_app.command("start")
def neo4j_start(
    warm: Annotated[
        bool,
        typer.Option(help="Once started, run the API's queries once so the first clients find them planned."),
    ] = True,
) -> None:
    """Start the local server on NEO4J_URI's port and wait for Bolt (no-op if one answers)."""
    import asyncio

    from weft.server.warm_up import NOT_SET_UP, WARM_QUERIES, warm_up

    settings = load_settings()
    try:
        message = local_server.start(settings, echo=lambda m: console.print(escape(m)))
        typer.echo(message)
        warmed = asyncio.run(warm_up(settings)) if warm and message.startswith("Neo4j started") else False
        if warmed is None:
            typer.echo(NOT_SET_UP)
        elif warmed:
            answered, seconds, errors = warmed
            typer.echo(f"warmed {answered} of {len(WARM_QUERIES)} API queries in {seconds:.1f}s")
            for error in sorted(set(errors)):
                console.print(f"  not warmed: {escape(error)}")
            if errors:
                console.print("  (a database `weft migrate` has not set up yet lacks the indexes some shapes need)")
    except WeftError as exc:
        raise fail(exc) from exc
    warning = local_server.page_cache_warning(settings)
    if warning:
        console.print(escape(warning))


@neo4j_app.command("stop")
def neo4j_stop() -> None:
    """Stop the local server this project started on NEO4J_URI's port."""
    typer.echo(local_server.stop(load_settings()))


@neo4j_app.command("status")
def neo4j_status() -> None:
    """Say whether Bolt answers at NEO4J_URI and whether weft started it."""
    typer.echo(local_server.status(load_settings()))


@app.command("migrate")
def migrate_command(wait: WaitOpt = None) -> None:
    """Create every constraint and index and backfill derived keys a database loaded by an older Weft lacks
    (IF NOT EXISTS, idempotent: safe to run again); says each step as it ends."""
    with connected() as (driver, settings), writing(driver, settings, "migrate", wait):
        n = migrate(driver, settings.neo4j_database, echo=typer.echo, top_ties=settings.network_top_ties)
    typer.echo(f"{n} constraints and indexes in place")


@app.command("reset")
def reset_command(
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation.")] = False,
    wait: WaitOpt = None,
) -> None:
    """Delete every node and relationship (constraints and indexes stay)."""
    settings = load_settings()
    if not yes and not typer.confirm(f"Delete everything in {settings.neo4j_uri} ({settings.neo4j_database})?"):
        raise typer.Exit(code=1)
    with connected(settings) as (driver, _), writing(driver, settings, "reset", wait):
        reset(driver, settings.neo4j_database)
    typer.echo("database emptied")


@app.command("counts")
def counts_command() -> None:
    """Print node counts per label and relationship counts per type."""
    with connected() as (driver, settings):
        found = counts(driver, settings.neo4j_database)
    table = Table("label / type", "count")
    for name, n in found.items():
        table.add_row(name, str(n))
    Console().print(table)


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    workers: Annotated[
        int | None,
        typer.Option(min=1, help="Server processes (default: WEFT_WORKERS, else one per core).", show_default=False),
    ] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
    access_log: Annotated[
        bool, typer.Option(help="Log a line per request (off by default: it costs ~3% of a small query's CPU).")
    ] = False,
    worker_healthcheck_timeout: Annotated[
        int,
        typer.Option(
            min=1, help="Seconds a worker may take to answer the supervisor's health check (also at start-up)."
        ),
    ] = WORKER_HEALTHCHECK_S,
) -> None:
    """Serve GraphQL at /graphql (GraphiQL in a browser), /health and the network pages.

    With more than one worker, uvicorn supervises that many processes sharing the port: each opens its
    own Neo4j driver and keeps its own caches (parsed queries, computed networks), which are only ever
    a shortcut: a request answered by another worker is computed there afresh. Each worker warms the
    API's queries in the background once it has started (server/availability.py), never in its start-up.
    """
    import uvicorn

    from weft.server.protections import WILDCARD_BINDS, own_url, proxy_options

    settings = load_settings()
    if not settings.public_url:  # the workers' absolute links name this server, never a request's Host header
        os.environ["WEFT_PUBLIC_URL"] = own_url(host, port)
        if host in WILDCARD_BINDS:
            console.print(f"WEFT_PUBLIC_URL is not set: links will say {own_url(host, port)} (see README, The site)")
    count = workers or settings.serve_workers or available_cores()
    uvicorn.run(
        "weft.server.app:serving_app",
        factory=True,
        host=host,
        port=port,
        log_level=log_level,
        workers=count,
        access_log=access_log,
        timeout_worker_healthcheck=worker_healthcheck_timeout,
        server_header=False,  # no `server: uvicorn` line: it tells a stranger what to probe, and costs bytes
        **proxy_options(settings),  # X-Forwarded-* only from WEFT_FORWARDED_ALLOW_IPS
    )


@app.command("export-schema")
def export_schema_command() -> None:
    """Print the GraphQL SDL (what schema.graphql holds)."""
    from weft.schema.root import export_sdl

    typer.echo(export_sdl(), nl=False)


@app.command("mcp")
def mcp_command() -> None:
    """Serve the read-only MCP tools over stdio, for MCP clients that start a command (the app serves them at /mcp)."""
    from weft.server.mcp_tools import GraphAccess, build_mcp

    build_mcp(GraphAccess(load_settings())).run("stdio")
