"""The NetworkMember interface: a node of a collaboration network, with analytics computed on demand."""

from __future__ import annotations

import strawberry

from weft.graph.network import Network


@strawberry.interface(
    description="A researcher or institution in a collaboration network. Community and centrality describe "
    "the returned network and are computed only when asked for (then cached with it)."
)
class NetworkMember:
    id: str = strawberry.field(description="The node's internal id.")
    network: strawberry.Private[Network]

    @strawberry.field(description="Louvain community number in this network (seeded; 0 = largest).")
    def community(self) -> int:
        return self.network.communities[self.id]

    @strawberry.field(description="Weighted PageRank in this network.")
    def centrality(self) -> float:
        return self.network.pagerank[self.id]
