"""`weft replicas`: read scaling for Neo4j Community, which cannot cluster.

Build once, `neo4j-admin database dump`, load the dump into N local read-only servers, put a TCP load
balancer in front of Bolt or point API workers at different replicas, and swap blue/green on refresh
(README, "Read replicas"). Each replica is an ordinary local instance (graph/local_server.py) whose
folder holds `replica.json`; its neo4j.conf then sets `server.databases.default_to_read_only=true`.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from weft.graph import local_server
from weft.graph.driver import open_driver
from weft.graph.errors import InvalidInput, Unavailable, WeftError
from weft.graph.settings import Settings, load_settings
from weft.graph.writer_lock import writer_lock
from weft.server.cli.support import WaitOpt, fail, parse_wait

console = Console(stderr=True)
Echo = Callable[[str], object]


def say(message: str) -> None:
    """A progress line on stderr, unwrapped and as written (paths may hold brackets)."""
    console.print(message, soft_wrap=True, markup=False, highlight=False)


replicas_app = typer.Typer(
    help=(
        "Read-only copies of the graph on this machine (Neo4j Community cannot cluster): dump the local "
        "server once, start N read-only servers from the dump, point API workers (or a Bolt load balancer) "
        "at them. Refresh blue/green: start the new dump on other ports, switch, stop the old ones."
    ),
    no_args_is_help=True,
)


def replica_settings(base: Settings, port: int, heap: str | None = None, pagecache: str | None = None) -> Settings:
    """The settings of the local replica on `port`: the base credentials, database and jars; Bolt on the
    loopback address, no HTTP connector (nothing but Bolt to load-balance)."""
    return dataclasses.replace(
        base,
        neo4j_uri=f"bolt://127.0.0.1:{port}",
        neo4j_http_port=0,
        neo4j_heap=heap or base.neo4j_heap,
        neo4j_pagecache=pagecache or base.neo4j_pagecache,
    )


def parse_ports(text: str) -> list[int]:
    """'7971,7972' -> [7971, 7972]; BAD_USER_INPUT for anything but distinct ports."""
    try:
        ports = [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError as exc:
        raise InvalidInput(f"--ports takes comma-separated port numbers, not {text!r}", "ports") from exc
    if not ports or any(not 1024 <= p <= 65535 for p in ports) or len(set(ports)) != len(ports):
        raise InvalidInput(f"--ports takes distinct port numbers from 1024 to 65535, not {text!r}", "ports")
    return ports


def dump_file_of(path: Path, database: str) -> Path:
    """The dump a --from path names: the file itself, or `<database>.dump` in a folder."""
    candidate = path / f"{database}.dump" if path.is_dir() else path
    if not candidate.is_file():
        where = f"no {database}.dump in the folder {path}" if path.is_dir() else f"{path} does not exist"
        raise InvalidInput(f"dump not found: {where} (make one with `weft replicas dump DIR`)", "from")
    return candidate


def dump(
    settings: Settings, out_dir: Path, *, restart: bool = True, wait: float | None = None, echo: Echo = print
) -> Path:
    """Dump NEO4J_URI's local database into out_dir/<database>.dump.

    Neo4j Community cannot take a database offline while its server runs, so a running server (one weft
    started) is stopped for the dump and, with `restart`, started again afterwards, also after a failure.
    It is never stopped under a running writer: the writer lock is taken first (WriterBusy names the holder;
    `wait` seconds, None: not at all) and given back just before the stop, so the dump holds no lock node.
    """
    if not local_server.is_local(settings):
        raise InvalidInput(
            f"{settings.neo4j_uri} is not this machine; run `neo4j-admin database dump` on its server", "NEO4J_URI"
        )
    instance = local_server.Instance(settings)
    running = local_server.read_pid(instance) is not None
    if not running and local_server.bolt_answers(settings):
        raise InvalidInput(
            f"a Neo4j answers at {settings.neo4j_uri} but weft did not start it (no pid in {instance.pid_file}); "
            "stop it and dump its store with neo4j-admin, or point NEO4J_URI at weft's server",
            "NEO4J_URI",
        )
    store = instance.home / "data" / "databases" / settings.neo4j_database
    if not store.is_dir():
        raise InvalidInput(f"no local store to dump for {settings.neo4j_uri} ({store} does not exist)", "NEO4J_URI")
    local_server.fetch_jars(instance)
    if running:
        with open_driver(settings) as driver:
            with writer_lock(
                driver, settings.neo4j_database, "replicas dump", wait=wait, lease_s=settings.writer_lease_s
            ):
                pass  # no writer runs now; one that starts in the moment before the stop is stopped like a killed run
        echo(f"stopping the server at {settings.neo4j_uri} for the dump (Community dumps only offline databases)")
        echo(local_server.stop(settings))
    began = time.monotonic()
    try:
        echo(f"neo4j-admin database dump {settings.neo4j_database} --to-path={out_dir}")
        written = local_server.dump_database(instance, out_dir.resolve())
    finally:
        if running and restart:
            echo(local_server.start(settings, echo=echo))
    echo(f"dumped to {written} ({written.stat().st_size / 2**20:.1f} MiB) in {time.monotonic() - began:.1f}s")
    return written


def _check_port(base: Settings, port: int) -> None:
    """Refuse a port that is the primary's, busy, or holds a local store that is not a replica's."""
    replica = replica_settings(base, port)
    instance = local_server.Instance(replica)
    if local_server.is_local(base) and port == base.bolt_port:
        raise InvalidInput(f"port {port} is NEO4J_URI's (the server the dump comes from); choose others", "ports")
    pid = local_server.read_pid(instance)
    if pid is not None:
        what = "a replica" if instance.replica_marker.exists() else "a weft server"
        raise InvalidInput(
            f"port {port} is busy: {what} runs there (pid {pid}); stop it first (`weft replicas stop --ports {port}`)",
            "ports",
        )
    if local_server.port_in_use("127.0.0.1", port):
        raise InvalidInput(f"port {port} is busy: another program listens on 127.0.0.1:{port}", "ports")
    if (instance.home / "data").is_dir() and not instance.replica_marker.exists():
        raise InvalidInput(
            f"port {port} has a local server folder that is not a replica ({instance.home}); "
            "loading a dump there would replace its store, so choose other ports",
            "ports",
        )


def start_replicas(
    base: Settings,
    dump_path: Path,
    ports: list[int],
    *,
    heap: str | None = None,
    pagecache: str | None = None,
    echo: Echo = print,
) -> list[Settings]:
    """Load one dump into a read-only local server per port and start them (in parallel); returns their
    settings. Nothing is left running when one fails to start."""
    dump_file = dump_file_of(dump_path, base.neo4j_database).resolve()
    for port in ports:
        _check_port(base, port)
    replicas = [replica_settings(base, port, heap, pagecache) for port in ports]
    local_server.fetch_jars(local_server.Instance(base))

    def load(replica: Settings) -> str:
        instance = local_server.Instance(replica)
        instance.home.mkdir(parents=True, exist_ok=True)
        marker = {
            "dump": str(dump_file),
            "dump_bytes": dump_file.stat().st_size,
            "loaded_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "database": replica.neo4j_database,
        }
        instance.replica_marker.write_text(json.dumps(marker, indent=1) + "\n")
        local_server.write_config(instance)  # read-only, for the marker
        began = time.monotonic()
        local_server.load_database(instance, dump_file)
        return f"loaded {dump_file.name} in {time.monotonic() - began:.1f}s"

    def launch(replica: Settings) -> str:
        return local_server.start(replica, echo=lambda _m: None) + " (read-only)"

    failures = _each(replicas, load, echo)  # one neo4j-admin per replica, side by side
    if not failures:
        echo(f"starting {len(replicas)} read-only servers on ports {', '.join(map(str, ports))}")
        failures = _each(replicas, launch, echo)
    if failures:
        for replica in replicas:
            local_server.stop(replica)
        raise Unavailable("\n".join(failures) + "\n(the replicas of this call were stopped)")
    return replicas


def _each(replicas: list[Settings], step: Callable[[Settings], str], echo: Echo) -> list[str]:
    """Run `step` for every replica in parallel, echo each outcome; returns the failures."""
    failures: list[str] = []
    with ThreadPoolExecutor(max_workers=len(replicas)) as pool:
        outcomes = [pool.submit(step, replica) for replica in replicas]
        for replica, outcome in zip(replicas, outcomes, strict=True):
            try:
                echo(f"replica :{replica.bolt_port}: {outcome.result()}")
            except WeftError as exc:
                failures.append(f"replica :{replica.bolt_port}: {exc}")
    return failures


def replica_ports(base: Settings) -> list[int]:
    """The ports of every local replica folder (running or not)."""
    root = base.neo4j_home / "instances"
    if not root.is_dir():
        return []
    return sorted(int(p.parent.name) for p in root.glob("*/replica.json") if p.parent.name.isdigit())


def stop_replicas(base: Settings, ports: list[int] | None = None, *, delete: bool = False, echo: Echo = print) -> None:
    """Stop the replicas on `ports` (all of them when None); `delete` also removes their folders (stores)."""
    known = replica_ports(base)
    for port in ports or known:
        if port not in known:
            raise InvalidInput(
                f"port {port} is not a replica (no {port}/replica.json under {base.neo4j_home})", "ports"
            )
    for port in ports or known:
        replica = replica_settings(base, port)
        echo(local_server.stop(replica))
        if delete:
            shutil.rmtree(local_server.Instance(replica).home, ignore_errors=True)
            echo(f"replica :{port}: folder removed")
    if not (ports or known):
        echo("no replicas")


def describe(base: Settings) -> list[str]:
    """One line per replica: port, whether it answers, what it was loaded from."""
    lines: list[str] = []
    for port in replica_ports(base):
        replica = replica_settings(base, port)
        marker: dict[str, Any] = {}
        try:
            marker = json.loads(local_server.Instance(replica).replica_marker.read_text())
        except (OSError, ValueError):
            pass
        lines.append(
            f"{local_server.status(replica)}; read-only, loaded from {marker.get('dump', '?')} "
            f"at {marker.get('loaded_at', '?')}"
        )
    return lines or ["no replicas"]


@replicas_app.command("dump")
def dump_command(
    out_dir: Annotated[Path, typer.Argument(help="Folder for <database>.dump (created; an older dump is replaced).")],
    restart: Annotated[bool, typer.Option(help="Start the server again after the dump when it was running.")] = True,
    wait: WaitOpt = None,
) -> None:
    """Dump NEO4J_URI's local database with neo4j-admin (stopping its server meanwhile: Community dumps
    only offline databases)."""
    try:
        written = dump(load_settings(), out_dir, restart=restart, wait=parse_wait(wait), echo=say)
    except WeftError as exc:
        raise fail(exc) from exc
    typer.echo(str(written))


@replicas_app.command("start")
def start_command(
    from_: Annotated[
        Path, typer.Option("--from", help="A dump file, or a folder holding <database>.dump (`weft replicas dump`).")
    ],
    ports: Annotated[str, typer.Option(help="Bolt ports of the replicas, comma-separated, e.g. 7971,7972.")],
    heap: Annotated[str | None, typer.Option(help="Heap per replica (default: WEFT_NEO4J_HEAP).")] = None,
    pagecache: Annotated[
        str | None, typer.Option(help="Page cache per replica (default: WEFT_NEO4J_PAGECACHE).")
    ] = None,
) -> None:
    """Load the dump into one read-only local server per port and start them.

    Each replica lives in .neo4j/instances/<port> (its store replaced by the dump) and refuses writes.
    Serve from them with, for example, `NEO4J_URI=bolt://127.0.0.1:7971 weft serve --port 8001`.
    """
    base = load_settings()
    try:
        replicas = start_replicas(base, from_, parse_ports(ports), heap=heap, pagecache=pagecache, echo=say)
    except WeftError as exc:
        raise fail(exc) from exc
    for replica in replicas:
        typer.echo(replica.neo4j_uri)


@replicas_app.command("stop")
def stop_command(
    ports: Annotated[str | None, typer.Option(help="Replicas to stop (default: every replica).")] = None,
    delete: Annotated[bool, typer.Option(help="Also remove their folders (the loaded stores).")] = False,
) -> None:
    """Stop local replicas (only servers `weft replicas start` made; never NEO4J_URI's)."""
    try:
        stop_replicas(load_settings(), parse_ports(ports) if ports else None, delete=delete, echo=typer.echo)
    except WeftError as exc:
        raise fail(exc) from exc


@replicas_app.command("status")
def status_command() -> None:
    """List the local replicas: whether each answers and which dump it holds."""
    for line in describe(load_settings()):
        typer.echo(line)


def register(app: typer.Typer) -> None:
    """Add `weft replicas` to the command line."""
    app.add_typer(replicas_app, name="replicas")
