"""`weft identity link` and `weft identity unlink A B`: evidence-based links between researcher records."""

from __future__ import annotations

from typing import Annotated

import typer

from weft.graph.errors import WeftError
from weft.graph.identity.links import all_researcher_ids, relink, unlink
from weft.server.cli.support import WaitOpt, connected, fail, writing

identity_app = typer.Typer(help="Link researcher records that are one person, on evidence.", no_args_is_help=True)


@identity_app.command("link")
def link_command(
    ids: Annotated[
        list[str] | None, typer.Argument(help="Researcher ids to relink (default: every researcher).")
    ] = None,
    wait: WaitOpt = None,
) -> None:
    """Score the same-name candidates of the given researchers (or all) and store the links above the threshold
    with their evidence (loads do this for the researchers they touch)."""
    with connected() as (driver, settings), writing(driver, settings, "identity link", wait):
        try:
            targets = ids or all_researcher_ids(driver, settings.neo4j_database)
            linked = relink(driver, settings.neo4j_database, targets, max_authors=settings.pair_edge_max_authors)
        except WeftError as exc:
            raise fail(exc) from exc
    typer.echo(f"{linked} links among the candidates of {len(targets)} researchers")


@identity_app.command("unlink")
def unlink_command(
    a: Annotated[str, typer.Argument(help="A researcher id.")],
    b: Annotated[str, typer.Argument(help="The other researcher id.")],
    wait: WaitOpt = None,
) -> None:
    """Undo the link between two researchers and keep them apart from then on (later loads never relink them)."""
    with connected() as (driver, settings), writing(driver, settings, "identity unlink", wait):
        try:
            low, high = unlink(driver, settings.neo4j_database, a, b)
        except WeftError as exc:
            raise fail(exc) from exc
    typer.echo(f"{low} and {high} are kept apart")
