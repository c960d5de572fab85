"""`weft export-csv` / `weft import-csv`: the bulk path through neo4j-admin import."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from weft.graph.errors import WeftError
from weft.graph.settings import load_settings
from weft.server.cli.support import fail

console = Console(stderr=True)


def _counts_table(title: str, counts: dict[str, int]) -> Table:
    table = Table("label / type", "count", title=title)
    for name, n in counts.items():
        table.add_row(name, str(n))
    return table


def export_csv_command(
    paths: Annotated[list[Path], typer.Argument(help="Dump files or folders (read recursively).")],
    out: Annotated[Path, typer.Option("--out", help="Folder for the CSV files (its *.csv are replaced).")],
    source: Annotated[str, typer.Option(help="openalex, s2, arxiv, or auto (detect per file).")] = "auto",
) -> None:
    """Write the graph the online loader would build as neo4j-admin import CSV files."""
    from weft.loaders.csv_export import export_paths

    try:
        summary = export_paths(paths, out, source=source, echo=lambda m: console.print(m))
    except WeftError as exc:
        raise fail(exc) from exc
    Console().print(_counts_table(f"written to {out}", summary.counts))
    typer.echo(
        f"{summary.records} records read, {summary.rejected} rejected"
        f"{f' (see {summary.rejects_file})' if summary.rejected else ''}, {summary.seconds:.1f}s"
    )


def import_csv_command(
    csv_dir: Annotated[Path, typer.Argument(help="A folder written by `weft export-csv`.")],
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask before replacing the database.")] = False,
) -> None:
    """Replace the local server's database with an export (stop, neo4j-admin import, start, migrate)."""
    from weft.graph.bulk_import import import_csv

    settings = load_settings()
    if not yes and not typer.confirm(
        f"This DELETES everything in database {settings.neo4j_database!r} of the local server at "
        f"{settings.neo4j_uri} and replaces it with {csv_dir}. Go on?"
    ):
        raise typer.Exit(code=1)
    try:
        summary = import_csv(settings, csv_dir, echo=lambda m: console.print(m))
    except WeftError as exc:
        raise fail(exc) from exc
    Console().print(_counts_table(f"database {settings.neo4j_database}", summary.counts))
    typer.echo(f"imported in {summary.admin_seconds:.1f}s (neo4j-admin), {summary.total_seconds:.1f}s in all")


def register(app: typer.Typer) -> None:
    """Add the bulk-path commands to the root app."""
    app.command("export-csv")(export_csv_command)
    app.command("import-csv")(import_csv_command)
