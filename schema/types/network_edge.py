"""`NetworkEdge`: one undirected tie of a network, with its weight and years."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import strawberry

Tie = tuple[str, str, int, int | None, int | None]
"""A NetworkEdge's values as a plain tuple (source, target, weight, first_year, last_year): what a cached
network keeps, since the garbage collector stops tracking such tuples (objects it would rescan)."""


def tie(source: str, target: str, attrs: Mapping[str, Any]) -> Tie:
    """The tie between two nodes from the edge attributes networkx holds."""
    return source, target, int(attrs.get("weight") or 0), attrs.get("first_year"), attrs.get("last_year")


@strawberry.type(description="An undirected tie; `source` has the smaller id.")
class NetworkEdge:
    source: str = strawberry.field(description="Id of one end (the smaller id).")
    target: str = strawberry.field(description="Id of the other end.")
    weight: int = strawberry.field(description="Shared papers (within yearFrom..yearTo when a window is given).")
    first_year: int | None = strawberry.field(description="Year of the first shared paper (in the window).")
    last_year: int | None = strawberry.field(description="Year of the last shared paper (in the window).")

    @classmethod
    def from_tie(cls, values: Tie) -> NetworkEdge:
        source, target, weight, first_year, last_year = values
        return cls(source=source, target=target, weight=weight, first_year=first_year, last_year=last_year)

    @classmethod
    def from_record(cls, source: str, target: str, attrs: Mapping[str, Any]) -> NetworkEdge:
        return cls.from_tie(tie(source, target, attrs))
