"""`weft embed`: sentence vectors for papers (title + abstract) with a progress bar and papers/s."""

from __future__ import annotations

from typing import Annotated

import typer
from neo4j import Driver
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from weft.graph.embed_papers import EmbedSummary, embed_papers
from weft.graph.errors import WeftError
from weft.server.cli.support import WaitOpt, connected, fail, writing

console = Console(stderr=True)


def run_embed(driver: Driver, database: str, batch_size: int, force: bool, quiet: bool) -> EmbedSummary:
    """Embed with a progress bar (papers scanned of all papers, how many got a vector); print the summary.
    Expected failures exit cleanly (`fail`); Ctrl-C exits 130 keeping the batches written."""
    bar = Progress(
        TextColumn("[bold]embedding"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[embedded]} embedded"),
        TimeElapsedColumn(),
        console=console,
        disable=quiet,
    )
    task = bar.add_task("papers", total=None, embedded=0)

    def progress(scanned: int, total: int, embedded: int) -> None:
        bar.update(task, completed=scanned, total=total, embedded=embedded)

    try:
        with bar:
            summary = embed_papers(driver, database, batch_size=batch_size, force=force, progress=progress)
    except WeftError as exc:
        raise fail(exc) from exc
    except KeyboardInterrupt:
        console.print("[bold yellow]interrupted[/]: the vectors written stay; run `weft embed` again to go on")
        raise typer.Exit(code=130) from None
    print_summary(summary)
    return summary


def print_summary(summary: EmbedSummary) -> None:
    console.print(
        f"{summary.embedded} papers embedded ({summary.rate:,.1f} papers/s), {summary.unchanged} unchanged, "
        f"{len(summary.no_text)} without title or abstract (no vector), {summary.dropped} orphan vectors "
        f"dropped; {summary.scanned} papers scanned in {summary.seconds:.1f}s"
    )
    if summary.no_text:
        shown = ", ".join(summary.no_text[:10]) + (" …" if len(summary.no_text) > 10 else "")
        console.print(f"[yellow]no text, no vector[/]: {escape(shown)}")


def register(app: typer.Typer) -> None:
    """Add `weft embed` to the command line."""

    @app.command("embed")
    def embed_command(
        batch_size: Annotated[int, typer.Option("--batch-size", min=1, help="Papers per model run and write.")] = 64,
        force: Annotated[bool, typer.Option("--force", help="Embed every paper again, changed or not.")] = False,
        quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
        wait: WaitOpt = None,
    ) -> None:
        """Give papers a sentence vector (all-MiniLM-L6-v2 on the CPU) for semantic search and `similar`.

        Incremental: only papers without a vector, whose title or abstract changed, or embedded by another
        model. Each batch commits on its own, so after Ctrl-C the next run goes on where this one stopped.
        """
        with connected() as (driver, settings), writing(driver, settings, "embed", wait):
            run_embed(driver, settings.neo4j_database, batch_size, force, quiet)
