"""`NetworkEdge`: one undirected tie of a network, with its weight and years."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import strawberry


@strawberry.type(description="An undirected tie; `source` has the smaller id.")
class NetworkEdge:
    source: str = strawberry.field(description="Id of one end (the smaller id).")
    target: str = strawberry.field(description="Id of the other end.")
    weight: int = strawberry.field(description="Shared papers (within yearFrom..yearTo when a window is given).")
    first_year: int | None = strawberry.field(description="Year of the first shared paper (in the window).")
    last_year: int | None = strawberry.field(description="Year of the last shared paper (in the window).")

    @classmethod
    def from_record(cls, source: str, target: str, attrs: Mapping[str, Any]) -> NetworkEdge:
        return cls(
            source=source,
            target=target,
            weight=int(attrs.get("weight") or 0),
            first_year=attrs.get("first_year"),
            last_year=attrs.get("last_year"),
        )
