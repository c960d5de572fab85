"""`weft build` / `weft import`: the bulk path (DuckDB or Spark transform -> Parquet -> neo4j-admin import)."""

from __future__ import annotations

import tempfile
from collections.abc import Generator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from weft.graph.errors import WeftError
from weft.graph.settings import load_settings
from weft.server.cli.support import WaitOpt, fail, parse_wait

console = Console(stderr=True)


def _counts_table(title: str, counts: dict[str, int]) -> Table:
    table = Table("label / type", "count", title=title)
    for name, n in counts.items():
        table.add_row(name, f"{n:,}")
    return table


def build_command(
    paths: Annotated[
        list[str],
        typer.Argument(
            help="Dump files or folders (read recursively), local or object storage URLs (s3://bucket/prefix; the "
            "storage extra): an OpenAlex snapshot (data/<entity>/updated_date=…/part_NNN.gz, manifest.json, "
            "merged_ids/), Semantic Scholar dataset folders (and diffs/<from>_<to>/<dataset>/updates|deletes/), "
            "the arXiv snapshot, or any file `weft load` reads."
        ),
    ],
    out: Annotated[
        str,
        typer.Option(
            "--out",
            help="Folder or object storage URL for the Parquet files and manifest.json (replaced; a URL is built "
            "under TMPDIR, then uploaded).",
        ),
    ],
    source: Annotated[str, typer.Option(help="openalex, s2, arxiv, or auto (detect per file).")] = "auto",
    engine: Annotated[
        str | None,
        typer.Option(
            help="Where the transform runs: duckdb (this machine; default WEFT_BULK_ENGINE, duckdb) or spark "
            "(any Spark master; needs the `spark` extra of weft: pyspark and sqlglot)."
        ),
    ] = None,
    master: Annotated[
        str | None,
        typer.Option(
            help="Spark master for --engine spark: local[N], spark://host:7077, yarn… (default WEFT_SPARK_MASTER, "
            "local[*]). On a cluster the paths and --out must be on storage every executor reaches."
        ),
    ] = None,
    memory_limit: Annotated[
        str | None,
        typer.Option(
            help="DuckDB memory limit, or the Spark driver's memory, e.g. 4GB (default WEFT_BULK_MEMORY_LIMIT, 2GB)."
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(help="Processes reading the files (default WEFT_BULK_WORKERS, one per core).")
    ] = None,
) -> None:
    """Build the graph `weft load` would write, as neo4j-admin Parquet input in --out.

    Streams: files are read a chunk at a time and joined in DuckDB within --memory-limit (it spills to
    --out/.work beyond), so a dump far larger than memory builds. With --engine spark the same SQL runs
    on Spark (files staged as Spark tasks) and each group is a folder of part files. Then: weft import OUT.
    """
    from weft.loaders.bulk.build import BuildOptions, build_paths

    settings = load_settings()
    options = BuildOptions.of(settings)
    if engine is not None:
        options = replace(options, engine=engine)
    if master is not None:
        options = replace(options, master=master)
    if memory_limit is not None:
        options = replace(options, memory_limit=memory_limit)
    if workers is not None:
        options = replace(options, workers=workers)
    try:
        with console.status("building…") as status:
            summary = build_paths(paths, out, source=source, options=options, echo=lambda m: status.update(escape(m)))
    except WeftError as exc:
        raise fail(exc) from exc
    Console().print(_counts_table(f"written to {out} ({options.engine})", summary.counts))
    for warning in summary.warnings:
        console.print(f"[yellow]note:[/] {escape(warning)}")
    steps = ", ".join(f"{name} {seconds:.1f}s" for name, seconds in summary.steps.items())
    rate = summary.records / summary.seconds if summary.seconds else 0.0
    typer.echo(
        f"{summary.records:,} records from {summary.files} files, {summary.rejected} rejected"
        f"{f' (see {summary.rejects_file})' if summary.rejected else ''}"
        f"{f', {summary.removed_records:,} removed by deletes/merged ids' if summary.removed_records else ''}, "
        f"{summary.seconds:.1f}s ({rate:,.0f} records/s: {steps}). Next: weft import {out}"
    )


@contextmanager
def fetched(folder: str) -> Generator[Path]:
    """A built folder as a local path: a URL's files are downloaded under TMPDIR for the import, then removed."""
    from weft.loaders.storage import download, location

    where = location(folder)
    if isinstance(where, Path):
        yield where
        return
    with tempfile.TemporaryDirectory(prefix="weft-import-") as scratch:
        with console.status("downloading…") as status:
            yield download(where, Path(scratch) / "built", echo=lambda m: status.update(escape(m)))


def import_command(
    folder: Annotated[
        str,
        typer.Argument(help="A folder or object storage URL written by `weft build` (a URL is downloaded first)."),
    ],
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask before replacing the database.")] = False,
    wait: WaitOpt = None,
) -> None:
    """Replace the local server's database with a built folder (stop, neo4j-admin import, start, migrate).

    neo4j-admin gets 80% of the memory available once the server is stopped, less its 2 GiB heap (set
    WEFT_IMPORT_OFF_HEAP, e.g. 8g or 60%, to choose).
    """
    from weft.graph.bulk_import import import_built

    settings = load_settings()
    if not yes and not typer.confirm(
        f"This DELETES everything in database {settings.neo4j_database!r} of the local server at "
        f"{settings.neo4j_uri} and replaces it with {folder}. Go on?"
    ):
        raise typer.Exit(code=1)
    try:
        with fetched(folder) as local:
            summary = import_built(settings, local, echo=lambda m: console.print(escape(m)), wait=parse_wait(wait))
    except WeftError as exc:
        raise fail(exc) from exc
    Console().print(_counts_table(f"database {settings.neo4j_database}", summary.counts))
    typer.echo(f"imported in {summary.admin_seconds:.1f}s (neo4j-admin), {summary.total_seconds:.1f}s in all")


def register(app: typer.Typer) -> None:
    """Add the bulk-path commands to the root app."""
    app.command("build")(build_command)
    app.command("import")(import_command)
