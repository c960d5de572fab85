"""`NetworkEdge`: one undirected tie of a network, with its weight and years."""

from __future__ import annotations

import strawberry

from weft.graph.network import Tie


@strawberry.type(description="An undirected tie; `source` has the smaller id.")
class NetworkEdge:
    source: str = strawberry.field(description="Id of one end (the smaller id).")
    target: str = strawberry.field(description="Id of the other end.")
    weight: int = strawberry.field(description="Shared papers (within yearFrom..yearTo when a window is given).")
    first_year: int | None = strawberry.field(description="Year of the first shared paper (in the window).")
    last_year: int | None = strawberry.field(description="Year of the last shared paper (in the window).")

    @classmethod
    def from_tie(cls, values: Tie) -> NetworkEdge:
        """The edge of one of a Network's ties (a weight the database left null reads 0)."""
        source, target, weight, first_year, last_year = values
        return cls(source=source, target=target, weight=int(weight or 0), first_year=first_year, last_year=last_year)
