"""What every `weft` command shares: a connected driver, and one way to report expected failures."""

from __future__ import annotations

import sys
from collections.abc import Generator
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from neo4j import Driver
from rich.console import Console
from rich.markup import escape

from weft.graph.driver import check_connectivity, open_driver
from weft.graph.errors import InvalidInput, WeftError
from weft.graph.settings import Settings, load_settings
from weft.graph.writer_lock import WriterLock, wait_seconds, writer_lock

console = Console(stderr=True)


def fail(exc: WeftError) -> typer.Exit:
    """Print an expected failure in one clear block (its message as written: paths and data hold brackets
    rich would take for markup); exit 2 for bad input, 1 otherwise."""
    console.print(f"[bold red]error[/] ({exc.code}): {escape(str(exc))}", soft_wrap=True, highlight=False)
    return typer.Exit(code=2 if exc.code == "BAD_USER_INPUT" else 1)


@contextmanager
def connected(settings: Settings | None = None) -> Generator[tuple[Driver, Settings]]:
    """A driver that has answered once, with its settings; WeftError becomes a clean exit."""
    settings = settings or load_settings()
    try:
        with open_driver(settings) as driver:
            check_connectivity(driver)
            yield driver, settings
    except WeftError as exc:
        raise fail(exc) from exc


def with_wait_values(args: list[str]) -> list[str]:
    """The command line with a value after each bare `--wait` ("forever"), so `--wait [SECONDS]` may be
    given alone (Typer options always take a value): the next word is its value only when it is a number.

    >>> with_wait_values(["load", "openalex", "data", "--wait"])
    ['load', 'openalex', 'data', '--wait', 'forever']
    >>> with_wait_values(["load", "openalex", "--wait", "data", "--quiet"])
    ['load', 'openalex', '--wait', 'forever', 'data', '--quiet']
    >>> with_wait_values(["embed", "--wait", "90", "--wait=5", "--", "--wait"])
    ['embed', '--wait', '90', '--wait=5', '--', '--wait']
    """
    out: list[str] = []
    for i, word in enumerate(args):
        if word == "--":
            return out + args[i:]
        out.append(word)
        if word == "--wait":
            following = args[i + 1] if i + 1 < len(args) else None
            try:
                wait_seconds(following or "-")
            except ValueError:
                out.append("forever")
    return out


class WaitTyper(typer.Typer):
    """The root app: run from the command line, a bare `--wait` gets its value first (`with_wait_values`)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not args and "args" not in kwargs:
            kwargs["args"] = with_wait_values(sys.argv[1:])
        return super().__call__(*args, **kwargs)


WaitOpt = Annotated[
    str | None,
    typer.Option(
        "--wait",
        metavar="[SECONDS]",
        help="When another command is writing the graph, wait for it (at most SECONDS; alone: until it ends) "
        "instead of stopping at once. Put it after the paths, or give it a value.",
        show_default=False,
    ),
]


def parse_wait(wait: str | None) -> float | None:
    """The `--wait` option as seconds (`wait_seconds`); InvalidInput for anything else."""
    try:
        return wait_seconds(wait)
    except ValueError as exc:
        raise InvalidInput(
            f"--wait takes a number of seconds or nothing (then put it after the paths), not {wait!r}", "--wait"
        ) from exc


@contextmanager
def writing(driver: Driver, settings: Settings, command: str, wait: str | None) -> Generator[WriterLock]:
    """Hold the database's writer lock around a command's writes (graph/writer_lock.py), waiting as `--wait`
    says; WriterBusy (WeftError) names the holder when it is refused."""
    with writer_lock(
        driver,
        settings.neo4j_database,
        command,
        wait=parse_wait(wait),
        lease_s=settings.writer_lease_s,
        echo=lambda m: console.print(m, markup=False, highlight=False, soft_wrap=True),
        reopen=lambda: open_driver(settings),
    ) as lock:
        yield lock
