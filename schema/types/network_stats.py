"""`NetworkStats`: summary statistics of a returned network."""

from __future__ import annotations

import strawberry

from weft.graph.analytics.structure import NetworkSummary


@strawberry.type(description="Summary statistics of the returned network (its nodes and edges).")
class NetworkStats:
    node_count: int = strawberry.field(description="Nodes in the returned network.")
    edge_count: int = strawberry.field(description="Edges in the returned network.")
    density: float = strawberry.field(description="Edges over possible edges (0 for fewer than two nodes).")
    components: int = strawberry.field(description="Connected components.")
    average_clustering: float = strawberry.field(description="Mean (unweighted) local clustering coefficient.")

    @classmethod
    def from_record(cls, summary: NetworkSummary) -> NetworkStats:
        return cls(
            node_count=summary.node_count,
            edge_count=summary.edge_count,
            density=summary.density,
            components=summary.components,
            average_clustering=summary.average_clustering,
        )
