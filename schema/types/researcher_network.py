"""`ResearcherNetwork`: a researcher's co-authorship ego network."""

from __future__ import annotations

import strawberry

from weft.graph.network import Network
from weft.schema.types.collaboration_network import CollaborationNetwork
from weft.schema.types.network_edge import NetworkEdge
from weft.schema.types.network_node import NetworkNode


@strawberry.type(description="A researcher's co-authorship network within `depth` hops.")
class ResearcherNetwork(CollaborationNetwork):
    centre: str = strawberry.field(description="Internal id of the researcher at the centre.")
    nodes: list[NetworkNode] = strawberry.field(description="Researchers, nearest first.")
    edges: list[NetworkEdge] = strawberry.field(description="Co-authorship ties among the returned researchers.")
    truncated: bool = strawberry.field(description="True when `limit` left researchers out.")
    total_node_count: int = strawberry.field(description="Researchers in the network before `limit`.")

    @classmethod
    def from_record(cls, network: Network) -> ResearcherNetwork:
        g = network.graph
        order = sorted(g.nodes, key=lambda n: (g.nodes[n].get("distance", 0), n))
        return cls(
            centre=network.centre,
            nodes=[NetworkNode.from_record(n, g.nodes[n], network) for n in order],
            edges=[NetworkEdge.from_record(a, b, attrs) for a, b, attrs in g.edges(data=True)],
            truncated=network.truncated,
            total_node_count=network.total_node_count,
            network=network,
        )
