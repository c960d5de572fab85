"""`InstitutionNetworkNode`: one institution of an institution network."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import strawberry

from weft.graph.network import Network
from weft.schema.types.network_member import NetworkMember


@strawberry.type(description="An institution in an institution network.")
class InstitutionNetworkNode(NetworkMember):
    id: str = strawberry.field(description="The institution's internal id.")
    name: str | None = strawberry.field(description="The institution's display name.")
    country: str | None = strawberry.field(description="ISO country code.")
    paper_count: int = strawberry.field(description="Papers in the graph stating this institution.")
    distance: int = strawberry.field(description="0 for the centre, 1 for its partners.")

    @classmethod
    def from_record(cls, node_id: str, attrs: Mapping[str, Any], network: Network) -> InstitutionNetworkNode:
        return cls(
            id=node_id,
            name=attrs.get("name"),
            country=attrs.get("country"),
            paper_count=int(attrs.get("paper_count") or 0),
            distance=int(attrs.get("distance") or 0),
            network=network,
        )
