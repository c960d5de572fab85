"""The CollaborationNetwork interface: what researcher and institution networks share (their statistics)."""

from __future__ import annotations

import strawberry

from weft.graph.network import Network
from weft.schema.types.network_stats import NetworkStats


@strawberry.interface(
    description="A network of researchers or institutions tied by shared papers, with its summary statistics."
)
class CollaborationNetwork:
    network: strawberry.Private[Network]

    @strawberry.field(description="Counts, density, components and clustering of the returned network.")
    def stats(self) -> NetworkStats:
        return NetworkStats.from_record(self.network.summary)

    @strawberry.field(description="The same as `stats`.")
    def network_stats(self) -> NetworkStats:
        return NetworkStats.from_record(self.network.summary)
