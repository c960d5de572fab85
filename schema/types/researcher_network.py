"""`ResearcherNetwork`: a researcher's co-authorship ego network."""

from __future__ import annotations

import strawberry

from weft.graph.network import Network, Tie
from weft.schema.types.collaboration_network import CollaborationNetwork
from weft.schema.types.network_edge import NetworkEdge
from weft.schema.types.network_node import NetworkNode


def _edges(root: ResearcherNetwork) -> list[NetworkEdge]:
    """The ties as NetworkEdge objects, made per request (11,000 in ~5 ms) and freed with the response."""
    return [NetworkEdge.from_tie(values) for values in root.ties]


@strawberry.type(description="A researcher's co-authorship network within `depth` hops.")
class ResearcherNetwork(CollaborationNetwork):
    centre: str = strawberry.field(description="Internal id of the researcher at the centre.")
    nodes: list[NetworkNode] = strawberry.field(description="Researchers, nearest first.")
    edges: list[NetworkEdge] = strawberry.field(
        resolver=_edges,
        description="Co-authorship ties among the returned researchers: the centre's, and those the "
        "rings were reached through (past ring 1 a prolific researcher reaches only its heaviest ties).",
    )
    truncated: bool = strawberry.field(description="True when `limit` left researchers out (exact).")
    total_node_count: int = strawberry.field(
        description="Researchers within `exploredDepth` hops before `limit`: the whole network when "
        "`exploredDepth` equals `depth`, else a lower bound (and `truncated` is true)."
    )
    explored_depth: int = strawberry.field(
        description="Rings explored: `depth`, or the nearest ring k that already leaves out researchers "
        "(rings 0..k hold more than `limit`, or exactly `limit` with more beyond); farther rings could not "
        "be kept, so they are not read."
    )
    # The network's own ties (plain tuples, see `Tie`), turned into objects per request by `_edges`.
    ties: strawberry.Private[list[Tie]]

    @classmethod
    def from_record(cls, network: Network) -> ResearcherNetwork:
        """The network's GraphQL object, built once per (cached) network: a hit reuses it."""
        built = network.built.get(cls.__name__)
        if built is None:
            built = network.built[cls.__name__] = cls._build(network)
        return built

    @classmethod
    def _build(cls, network: Network) -> ResearcherNetwork:
        order = sorted(network.nodes, key=lambda node: (node[1].get("distance", 0), node[0]))
        return cls(
            centre=network.centre,
            nodes=[NetworkNode.from_record(n, attrs, network) for n, attrs in order],
            ties=network.ties,
            truncated=network.truncated,
            total_node_count=network.total_node_count,
            explored_depth=network.explored_depth,
            network=network,
        )
