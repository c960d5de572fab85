"""`weft sync SOURCE LOCATION` (follow a source's own update layout) and `weft status` (where each sync stands)."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from weft.graph.errors import WeftError
from weft.graph.settings import Settings
from weft.server.cli.support import WaitOpt, connected, fail, writing

sync_app = typer.Typer(
    help="Apply what a source published since the graph's watermark (replace, merge, log).", no_args_is_help=True
)
console = Console(stderr=True)
LocationArg = Annotated[
    str,
    typer.Argument(help="The snapshot root: a folder, or an object storage URL (storage extra).", show_default=False),
]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Print what would change per entity; write nothing.")]
MaxDeletesOpt = Annotated[
    int | None,
    typer.Option(
        "--max-deletes", min=0, help="Refuse a sync deleting more records than this [default: 1% of the graph]."
    ),
]


@sync_app.command("openalex")
def sync_openalex_command(
    location: LocationArg, dry_run: DryRunOpt = False, max_deletes: MaxDeletesOpt = None, wait: WaitOpt = None
) -> None:
    """Apply an OpenAlex snapshot's `updated_date=` partitions newer than the watermark, oldest first, then its
    merged_ids files up to that date. A sync killed at any point converges when run again."""
    from weft.loaders.derived import PairLimits
    from weft.loaders.sync.openalex import sync_openalex

    with connected() as (driver, settings):
        limit = max_deletes if max_deletes is not None else _default_max_deletes(driver, settings)
        try:
            with nullcontext() if dry_run else writing(driver, settings, "sync openalex", wait):
                report = sync_openalex(
                    driver,
                    location,
                    database=settings.neo4j_database,
                    dry_run=dry_run,
                    max_deletes=limit,
                    batch_size=settings.load_batch_size,
                    limits=PairLimits.of(settings),
                    echo=console.print,
                )
        except WeftError as exc:
            raise fail(exc) from exc
    for note in report.notes:
        console.print(note)
    table = Table(
        "entity", "new", "updated", "merged", "deleted", title="would change (dry run)" if dry_run else "changed"
    )
    for entity, c in sorted(report.entities.items()):
        table.add_row(entity, str(c.new), str(c.updated), str(c.merged), str(c.deleted))
    Console().print(table)
    units = ", ".join(report.units) or "nothing new"
    typer.echo(
        f"openalex: watermark {report.watermark_before or 'none'} -> {report.watermark or 'none'} ({units}); "
        f"{report.rejected} records rejected; {report.seconds:.1f}s"
        + (" (dry run: nothing written)" if dry_run else "")
    )


def _default_max_deletes(driver: object, settings: Settings) -> int:
    """1% of the papers, researchers and institutions in the graph, at least 100."""
    from weft.graph.migrate import counts

    found = counts(driver, settings.neo4j_database)  # type: ignore[arg-type]
    return max(100, sum(found.get(label, 0) for label in ("Paper", "Researcher", "Institution")) // 100)


def register(app: typer.Typer) -> None:
    """Add `weft sync …` and `weft status` to the command line."""
    app.add_typer(sync_app, name="sync")

    @app.command("status")
    def status_command() -> None:
        """Per source: the sync watermark, the last sync time and what that sync did."""
        from weft.graph.sync_state import sync_states

        with connected() as (driver, settings):
            states = sync_states(driver, settings.neo4j_database)
        if not states:
            typer.echo("no source has been synced (weft sync SOURCE LOCATION)")
            return
        for state in states:
            summary: dict[str, Any] = state.get("last_summary") or {}
            entities: dict[str, dict[str, int]] = summary.get("entities") or {}
            marks = ", ".join(f"{k} {v}" for k, v in sorted(state.items()) if k.startswith("merged_"))
            typer.echo(
                f"{state['source']}: watermark {state.get('watermark') or 'none'}"
                + (f" ({marks})" if marks else "")
                + f"; last sync {state.get('last_sync_at') or 'never'}"
                + (
                    f"; unit in flight: {state['pending_unit']} (run the sync again)"
                    if state.get("pending_unit")
                    else ""
                )
            )
            for entity, c in sorted(entities.items()):
                typer.echo(
                    f"  {entity}: {c['new']} new, {c['updated']} updated, {c['merged']} merged, {c['deleted']} deleted"
                )
            if summary.get("units"):
                typer.echo(f"  applied: {', '.join(summary['units'])}")
