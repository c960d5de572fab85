"""`weft sync SOURCE LOCATION` (follow a source's own update layout) and `weft status` (where each sync stands)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from weft.graph.errors import WeftError
from weft.graph.settings import Settings
from weft.server.cli.support import WaitOpt, connected, fail, writing

if TYPE_CHECKING:
    from weft.loaders.sync.units import SyncReport

sync_app = typer.Typer(
    help="Apply what a source published since the graph's watermark: openalex (snapshot partitions and merges), "
    "s2 (datasets diffs), arxiv (a newer metadata dump). Replace, merge, delete, log; see weft status.",
    no_args_is_help=True,
)
console = Console(stderr=True)
LocationArg = Annotated[
    str,
    typer.Argument(
        help="The snapshot (OpenAlex), the diffs folder (S2) or the metadata file (arXiv): a local path, or an "
        "object storage URL (storage extra).",
        show_default=False,
    ),
]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Print what would change per entity; write nothing.")]
MaxDeletesOpt = Annotated[
    int | None,
    typer.Option(
        "--max-deletes",
        min=0,
        help="Refuse a sync deleting more records than this (default: 1% of the graph, at least 100).",
    ),
]


@sync_app.command("openalex")
def sync_openalex_command(
    location: LocationArg, dry_run: DryRunOpt = False, max_deletes: MaxDeletesOpt = None, wait: WaitOpt = None
) -> None:
    """Apply an OpenAlex snapshot's `updated_date=` partitions newer than the watermark, oldest first, then its
    merged_ids files up to that date. A sync killed at any point converges when run again."""
    from weft.loaders.sync.openalex import sync_openalex

    _run_sync("openalex", sync_openalex, location, dry_run, max_deletes, wait)


@sync_app.command("s2")
def sync_s2_command(
    location: LocationArg, dry_run: DryRunOpt = False, max_deletes: MaxDeletesOpt = None, wait: WaitOpt = None
) -> None:
    """Apply Semantic Scholar datasets diffs (`<dataset>/<from>_to_<to>/update_files, delete_files`; papers,
    authors, abstracts, citations) from the graph's release on, step by step in release order; a gap in the
    chain is refused. The first sync starts at the oldest step (load that release in full first)."""
    from weft.loaders.sync.s2 import sync_s2

    _run_sync("s2", sync_s2, location, dry_run, max_deletes, wait)


@sync_app.command("arxiv")
def sync_arxiv_command(
    location: LocationArg, dry_run: DryRunOpt = False, max_deletes: MaxDeletesOpt = None, wait: WaitOpt = None
) -> None:
    """Apply a newer arXiv metadata file (the snapshot's JSON Lines; a file or a folder): the records dated after
    the watermark (the newest update_date or version date applied) that changed replace arXiv's title, abstract,
    authors, categories and versions. arXiv deletes nothing."""
    from weft.loaders.sync.arxiv import sync_arxiv

    _run_sync("arxiv", sync_arxiv, location, dry_run, max_deletes, wait)


def _run_sync(
    source: str,
    sync: Callable[..., SyncReport],
    location: str,
    dry_run: bool,
    max_deletes: int | None,
    wait: str | None,
) -> None:
    """Run one source's sync under the writer lock (none for a dry run) and print what it did."""
    from weft.loaders.derived import PairLimits

    with connected() as (driver, settings):
        limit = max_deletes if max_deletes is not None else _default_max_deletes(driver, settings)
        try:
            with nullcontext() if dry_run else writing(driver, settings, f"sync {source}", wait):
                report = sync(
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
        f"{source}: watermark {report.watermark_before or 'none'} -> {report.watermark or 'none'} ({units}); "
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
