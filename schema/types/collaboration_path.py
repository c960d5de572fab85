"""`CollaborationPath`: one co-authorship chain from one researcher to another."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import strawberry

from weft.schema.types.path_hop import PathHop
from weft.schema.types.path_researcher import PathResearcher


@strawberry.type(description="A co-authorship chain from one researcher to another.")
class CollaborationPath:
    length: int = strawberry.field(description="Number of hops.")
    researchers: list[PathResearcher] = strawberry.field(description="From the start to the end.")
    hops: list[PathHop] = strawberry.field(description="One per consecutive pair of researchers.")

    @classmethod
    def from_record(cls, path: Mapping[str, Any]) -> CollaborationPath:
        """From a `{nodes, hops}` path map."""
        return cls(
            length=len(path["hops"]),
            researchers=[PathResearcher.from_record(n) for n in path["nodes"]],
            hops=[PathHop.from_record(h) for h in path["hops"]],
        )
