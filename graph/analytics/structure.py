"""Summary statistics of a whole collaboration network: counts, density, components, clustering."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import networkx as nx

from weft.graph.analytics.nodes import N

# typeshed's networkx stub leaves density()'s return type out; it returns a number
_density: Callable[[nx.Graph[Any]], float] = nx.density  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]


@dataclass(frozen=True)
class NetworkSummary:
    """What `networkStats` answers."""

    node_count: int
    edge_count: int
    density: float
    components: int
    average_clustering: float


def summary(graph: nx.Graph[N]) -> NetworkSummary:
    """Counts, density, number of connected components and (unweighted) average clustering.

    >>> summary(nx.complete_graph(3))
    NetworkSummary(node_count=3, edge_count=3, density=1.0, components=1, average_clustering=1.0)
    """
    n = graph.number_of_nodes()
    return NetworkSummary(
        node_count=n,
        edge_count=graph.number_of_edges(),
        density=_density(graph) if n > 1 else 0.0,
        components=nx.number_connected_components(graph) if n else 0,
        average_clustering=nx.average_clustering(graph) if n else 0.0,
    )
