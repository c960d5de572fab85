"""`NetworkNode`: one researcher of an ego network, with analytics computed on demand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import strawberry

from weft.graph.network import Network
from weft.schema.context import Info
from weft.schema.types.network_member import NetworkMember
from weft.schema.types.refs import ResearcherRef


@strawberry.type(
    description="A researcher in a network. Community and centralities describe the returned network "
    "and are computed only when asked for (then cached with it)."
)
class NetworkNode(NetworkMember):
    id: str = strawberry.field(description="The researcher's internal id.")
    name: str | None = strawberry.field(description="The researcher's display name.")
    paper_count: int = strawberry.field(
        description="Papers by this researcher in the graph (within the year window when one is given)."
    )
    distance: int = strawberry.field(description="Co-authorship hops from the centre (0 for the centre).")

    @strawberry.field(description="The researcher's full profile (batched: one read for all nodes).")
    async def researcher(self, info: Info) -> ResearcherRef | None:
        from weft.schema.types.researcher import Researcher

        props = await info.context.data.researcher.load(self.id)
        return Researcher.from_record(props) if props else None

    @strawberry.field(description="Degree centrality in this network: share of other nodes tied to.")
    def degree_centrality(self) -> float:
        return self.network.degree[self.id]

    @strawberry.field(
        description="Normalised betweenness in this network (exact up to 400 nodes, seeded sample above)."
    )
    def betweenness(self) -> float:
        return self.network.betweenness[self.id]

    @classmethod
    def from_record(cls, node_id: str, attrs: Mapping[str, Any], network: Network) -> NetworkNode:
        return cls(
            id=node_id,
            name=attrs.get("name"),
            paper_count=int(attrs.get("paper_count") or 0),
            distance=int(attrs.get("distance") or 0),
            network=network,
        )
