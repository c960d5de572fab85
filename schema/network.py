"""`ResearcherNetwork`: a researcher's co-authorship ego network, and the `RankBy` choice."""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

import strawberry
from strawberry.types.nodes import FragmentSpread, InlineFragment, SelectedField, Selection

from weft.graph.network import Network
from weft.schema.network_edge import NetworkEdge
from weft.schema.network_node import NetworkNode
from weft.schema.network_stats import NetworkStats

FIELD_ANALYTICS = {
    "community": "communities",
    "centrality": "pagerank",
    "degreeCentrality": "degree",
    "betweenness": "betweenness",
    "stats": "summary",
    "networkStats": "summary",
}


def analytics_wanted(selections: Iterable[Selection], in_nodes: bool = False) -> set[str]:
    """The Network analytics a query's selection asks for (fields of `nodes`, `stats`), through
    fragments; so the resolver can compute them once, off the event loop."""
    wanted: set[str] = set()
    for selection in selections:
        if isinstance(selection, (FragmentSpread, InlineFragment)):
            wanted |= analytics_wanted(selection.selections, in_nodes)
        elif isinstance(selection, SelectedField):
            if selection.name in FIELD_ANALYTICS and (in_nodes or selection.name in ("stats", "networkStats")):
                wanted.add(FIELD_ANALYTICS[selection.name])
            if selection.name == "nodes" and not in_nodes:
                wanted |= analytics_wanted(selection.selections, True)
    return wanted


@strawberry.enum(description="How `limit` chooses which researchers to keep (nearer rings always first).")
class RankBy(Enum):
    WEIGHT = strawberry.enum_value(
        "WEIGHT", description="Shared papers with the researchers one hop nearer the centre."
    )
    PAPERS = strawberry.enum_value("PAPERS", description="Paper count.")
    CENTRALITY = strawberry.enum_value("CENTRALITY", description="Weighted PageRank in the whole ego network.")


@strawberry.type(description="A researcher's co-authorship network within `depth` hops.")
class ResearcherNetwork:
    centre: str = strawberry.field(description="Internal id of the researcher at the centre.")
    nodes: list[NetworkNode] = strawberry.field(description="Researchers, nearest first.")
    edges: list[NetworkEdge] = strawberry.field(description="Co-authorship ties among the returned researchers.")
    truncated: bool = strawberry.field(description="True when `limit` left researchers out.")
    total_node_count: int = strawberry.field(description="Researchers in the network before `limit`.")
    network: strawberry.Private[Network]

    @strawberry.field(description="Counts, density, components and clustering of the returned network.")
    def stats(self) -> NetworkStats:
        return NetworkStats.from_record(self.network.summary)

    @strawberry.field(description="The same as `stats`.")
    def network_stats(self) -> NetworkStats:
        return NetworkStats.from_record(self.network.summary)

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
