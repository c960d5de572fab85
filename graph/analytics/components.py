"""Connected components of a collaboration network."""

from __future__ import annotations

import networkx as nx

from weft.graph.analytics.nodes import N


def components(graph: nx.Graph[N]) -> list[set[N]]:
    """Connected components, largest first (ties broken by smallest member).

    >>> [sorted(c) for c in components(nx.Graph([(1, 2), (3, 4), (4, 5)]))]
    [[3, 4, 5], [1, 2]]
    """
    return sorted(nx.connected_components(graph), key=lambda c: (-len(c), min(map(str, c))))


def component_index(graph: nx.Graph[N]) -> dict[N, int]:
    """Node -> number of its connected component (0 = the largest).

    >>> component_index(nx.Graph([(1, 2), (3, 4), (4, 5)]))[1]
    1
    """
    return {node: i for i, members in enumerate(components(graph)) for node in members}
