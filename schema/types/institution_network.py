"""`InstitutionNetwork`: institutions linked by papers their researchers wrote together."""

from __future__ import annotations

import strawberry

from weft.graph.network import Network
from weft.schema.types.collaboration_network import CollaborationNetwork
from weft.schema.types.institution_network_node import InstitutionNetworkNode
from weft.schema.types.network_edge import NetworkEdge


@strawberry.type(
    description="An institution and its co-publication partners; a tie's weight is the number of "
    "papers stating both institutions."
)
class InstitutionNetwork(CollaborationNetwork):
    centre: str = strawberry.field(description="Internal id of the institution at the centre.")
    nodes: list[InstitutionNetworkNode] = strawberry.field(description="The centre first, then partners.")
    edges: list[NetworkEdge] = strawberry.field(description="Ties among the returned institutions.")
    truncated: bool = strawberry.field(description="True when `limit` left partners out.")

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
