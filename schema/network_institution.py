"""`InstitutionNetwork`: institutions linked by papers their researchers wrote together."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import strawberry

from weft.graph.network import Network
from weft.schema.network_edge import NetworkEdge
from weft.schema.network_stats import NetworkStats


@strawberry.type(description="An institution in an institution network.")
class InstitutionNetworkNode:
    id: str = strawberry.field(description="The institution's internal id.")
    name: str | None = strawberry.field(description="The institution's display name.")
    country: str | None = strawberry.field(description="ISO country code.")
    paper_count: int = strawberry.field(description="Papers in the graph stating this institution.")
    distance: int = strawberry.field(description="0 for the centre, 1 for its partners.")
    network: strawberry.Private[Network]

    @strawberry.field(description="Louvain community number in this network (seeded; 0 = largest).")
    def community(self) -> int:
        return self.network.communities[self.id]

    @strawberry.field(description="Weighted PageRank in this network.")
    def centrality(self) -> float:
        return self.network.pagerank[self.id]

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


@strawberry.type(
    description="An institution and its co-publication partners; a tie's weight is the number of "
    "papers stating both institutions."
)
class InstitutionNetwork:
    centre: str = strawberry.field(description="Internal id of the institution at the centre.")
    nodes: list[InstitutionNetworkNode] = strawberry.field(description="The centre first, then partners.")
    edges: list[NetworkEdge] = strawberry.field(description="Ties among the returned institutions.")
    truncated: bool = strawberry.field(description="True when `limit` left partners out.")
    network: strawberry.Private[Network]

    @strawberry.field(description="Counts, density, components and clustering of the returned network.")
    def stats(self) -> NetworkStats:
        return NetworkStats.from_record(self.network.summary)

    @strawberry.field(description="The same as `stats`.")
    def network_stats(self) -> NetworkStats:
        return NetworkStats.from_record(self.network.summary)

    @classmethod
    def from_record(cls, network: Network) -> InstitutionNetwork:
        g = network.graph
        weight_to_centre = {n: g.edges[network.centre, n]["weight"] for n in g.neighbors(network.centre)}
        order = sorted(g.nodes, key=lambda n: (n != network.centre, -weight_to_centre.get(n, 0), n))
        return cls(
            centre=network.centre,
            nodes=[InstitutionNetworkNode.from_record(n, g.nodes[n], network) for n in order],
            edges=[NetworkEdge.from_record(a, b, attrs) for a, b, attrs in g.edges(data=True)],
            truncated=network.truncated,
            network=network,
        )
