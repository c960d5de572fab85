"""`weft load …`: reading source dumps into the graph, with a progress bar and a summary per file."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from weft.graph.driver import open_driver
from weft.graph.errors import WeftError
from weft.graph.settings import Settings, load_settings
from weft.server.cli.embed import run_embed
from weft.server.cli.support import WaitOpt, connected, fail, writing

if TYPE_CHECKING:
    from weft.loaders.run import LoadSummary

load_app = typer.Typer(help="Load OpenAlex, Semantic Scholar or arXiv dumps into Neo4j.", no_args_is_help=True)
console = Console(stderr=True)

PathsArg = Annotated[
    list[str],
    typer.Argument(
        help="Files or folders (read recursively); object storage URLs too (s3://bucket/prefix; storage extra).",
        show_default=False,
    ),
]
BatchOpt = Annotated[
    int | None,
    typer.Option(
        "--batch-size",
        min=1,
        help=f"Rows per write transaction [default: WEFT_BATCH_SIZE or {Settings.load_batch_size}].",
    ),
]
RejectsOpt = Annotated[
    Path | None, typer.Option("--rejects", help="Write rejected lines/records here as JSON Lines.", dir_okay=False)
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
EmbedOpt = Annotated[bool, typer.Option("--embed", help="Then embed new and changed papers (as `weft embed`).")]


def run_load(
    source: str,
    paths: list[str],
    batch_size: int | None,
    rejects: Path | None,
    quiet: bool,
    embed: bool = False,
    wait: str | None = None,
) -> None:
    """Load, print the per-file summary and the rejects; exit 1 on a dead database, 2 on bad input, 3 when
    some file could not be read in full (`exit_if_unread`)."""
    from weft.loaders.derived import PairLimits
    from weft.loaders.detect import plan
    from weft.loaders.run import load_paths

    settings = load_settings()
    bar = LoadProgress()
    try:
        planned = plan(paths, source)  # bad input is refused before the database is asked for its lock
        with open_driver(settings) as driver, writing(driver, settings, f"load {source}", wait), bar:
            summary = load_paths(
                driver,
                paths,
                source=source,
                database=settings.neo4j_database,
                batch_size=batch_size or settings.load_batch_size,
                progress=None if quiet else bar,
                rejects_path=rejects,
                limits=PairLimits.of(settings),
                planned=planned,
            )
    except WeftError as exc:
        raise fail(exc) from exc
    except KeyboardInterrupt:
        console.print("[bold yellow]interrupted[/]: committed batches stay; rerun the same command to converge")
        raise typer.Exit(code=130) from None
    print_summary(summary, rejects)
    if embed:
        with connected(settings) as (driver, _), writing(driver, settings, "embed", wait):
            run_embed(driver, settings.neo4j_database, 64, False, quiet)
    exit_if_unread(summary)


def exit_if_unread(summary: LoadSummary) -> None:
    """Exit 3 when some file could not be read in full (empty, not JSON, unreadable, cut short): the rest of
    the load is done and reported, but a script must not take it for a complete load."""
    unread = sorted({r["file"] for r in summary.rejects if r.get("scope") == "file"})
    if unread:
        console.print(
            f"[bold red]incomplete[/]: {len(unread)} file(s) could not be read in full (the rest was loaded): "
            + escape(", ".join(unread))
        )
        raise typer.Exit(code=3)


def print_summary(summary: LoadSummary, rejects: Path | None) -> None:
    """The table of files (paths relative to their common folder), the totals, the first rejects
    and identity warnings."""
    root = Path(os.path.commonpath([f.path for f in summary.files])) if summary.files else Path()
    root = root.parent if root.is_file() else root
    table = Table(
        "file", "source", "read", "written", "merged", "rejected", "seconds", title=escape(f"load summary ({root})")
    )
    table.columns[0].overflow = "fold"
    for f in summary.files:
        table.add_row(
            escape(str(Path(f.path).relative_to(root))),
            f.source,
            str(f.read),
            str(f.written),
            str(f.merged),
            str(f.rejected),
            f"{f.seconds:.1f}",
        )
    table.add_row(
        "[bold]total",
        "",
        str(summary.read),
        str(summary.written),
        str(summary.merged),
        str(summary.rejected),
        f"{summary.seconds:.1f}",
    )
    out = Console()
    (out if out.is_terminal else Console(width=max(out.width, 160))).print(table)
    rate = summary.read / summary.seconds if summary.seconds else 0.0
    console.print(
        f"{summary.read} records in {summary.seconds:.1f}s ({rate:,.0f}/s), derived data in "
        f"{summary.derive_seconds:.1f}s, data_version {summary.data_version}"
    )
    for reject in summary.rejects[:20]:
        where = f"{reject['file']} {reject['where']}: {reject['reason']}"
        console.print(f"[yellow]rejected[/] {escape(where)}")
    if len(summary.rejects) > 20:
        console.print(f"… and {len(summary.rejects) - 20} more" + escape(f" (all in {rejects})" if rejects else ""))
    for warning in summary.warnings[:20]:
        console.print(f"[yellow]identity[/] {escape(warning)}")


class LoadProgress:
    """The progress display of `weft load`, fed by `load_paths`' progress callback: files done,
    records read and records/s, then the derive steps. It starts at the first step it hears (so a
    load refused while planning shows none) and stops when its `with` block ends."""

    def __init__(self, console: Console | None = None) -> None:
        self.progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[records]} records · {task.fields[rate]} records/s"),
            TimeElapsedColumn(),
            console=console,
            transient=False,
        )
        self.started = 0.0
        self.records = 0
        self.files: TaskID | None = None
        self.derived: TaskID | None = None

    def __enter__(self) -> LoadProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.files is not None:
            self.progress.stop()

    def __call__(self, step: str, done: int, total: int) -> None:
        if step == "files":
            if self.files is None:
                self.started = time.perf_counter()
                self.files = self.progress.add_task("files", total=total, records=0, rate="-")
                self.progress.start()
            self.progress.update(self.files, completed=done, records=self.records, rate=self._rate())
        elif step == "records":
            self.records = done
            if done % 50 == 0 and self.files is not None:
                self.progress.update(self.files, records=self.records, rate=self._rate())
        else:  # a derive step of the writer
            if self.derived is None:
                self.derived = self.progress.add_task("derived", total=total, records="-", rate="-")
            self.progress.update(self.derived, description=f"derived {step}", completed=done, total=total)

    def _rate(self) -> str:
        """Records per second since the files were planned."""
        elapsed = max(time.perf_counter() - self.started, 1e-6)
        return f"{self.records / elapsed:,.0f}"


@load_app.command("openalex")
def load_openalex(
    paths: PathsArg,
    batch_size: BatchOpt = None,
    rejects: RejectsOpt = None,
    quiet: QuietOpt = False,
    embed: EmbedOpt = False,
    wait: WaitOpt = None,
) -> None:
    """OpenAlex works, authors, institutions: single entities, list pages, arrays, JSON Lines, .gz."""
    run_load("openalex", paths, batch_size, rejects, quiet, embed, wait)


@load_app.command("s2")
def load_s2(
    paths: PathsArg,
    batch_size: BatchOpt = None,
    rejects: RejectsOpt = None,
    quiet: QuietOpt = False,
    embed: EmbedOpt = False,
    wait: WaitOpt = None,
) -> None:
    """Semantic Scholar Graph API JSON and dataset JSON Lines (gzipped or not)."""
    run_load("s2", paths, batch_size, rejects, quiet, embed, wait)


@load_app.command("arxiv")
def load_arxiv(
    paths: PathsArg,
    batch_size: BatchOpt = None,
    rejects: RejectsOpt = None,
    quiet: QuietOpt = False,
    embed: EmbedOpt = False,
    wait: WaitOpt = None,
) -> None:
    """The arXiv metadata snapshot (JSON Lines)."""
    run_load("arxiv", paths, batch_size, rejects, quiet, embed, wait)


@load_app.command("auto")
def load_auto(
    paths: PathsArg,
    batch_size: BatchOpt = None,
    rejects: RejectsOpt = None,
    quiet: QuietOpt = False,
    embed: EmbedOpt = False,
    wait: WaitOpt = None,
) -> None:
    """Any mix of the three; the source is detected per file."""
    run_load("auto", paths, batch_size, rejects, quiet, embed, wait)
