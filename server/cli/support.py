"""What every `weft` command shares: a connected driver, and one way to report expected failures."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer
from neo4j import Driver
from rich.console import Console
from rich.markup import escape

from weft.graph.driver import check_connectivity, open_driver
from weft.graph.errors import WeftError
from weft.graph.settings import Settings, load_settings

console = Console(stderr=True)


def fail(exc: WeftError) -> typer.Exit:
    """Print an expected failure in one clear block (its message as written: paths and data hold brackets
    rich would take for markup); exit 2 for bad input, 1 otherwise."""
    console.print(f"[bold red]error[/] ({exc.code}): {escape(str(exc))}", soft_wrap=True, highlight=False)
    return typer.Exit(code=2 if exc.code == "BAD_USER_INPUT" else 1)


@contextmanager
def connected(settings: Settings | None = None) -> Iterator[tuple[Driver, Settings]]:
    """A driver that has answered once, with its settings; WeftError becomes a clean exit."""
    settings = settings or load_settings()
    try:
        with open_driver(settings) as driver:
            check_connectivity(driver)
            yield driver, settings
    except WeftError as exc:
        raise fail(exc) from exc
