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
        centre = network.centre
        weight_to_centre = {a if b == centre else b: w for a, b, w, *_ in network.ties if centre in (a, b)}
        order = sorted(network.nodes, key=lambda node: (node[0] != centre, -weight_to_centre.get(node[0], 0), node[0]))
        return cls(
            centre=centre,
            nodes=[InstitutionNetworkNode.from_record(n, attrs, network) for n, attrs in order],
            edges=[NetworkEdge.from_tie(values) for values in network.ties],
            truncated=network.truncated,
            network=network,
        )
