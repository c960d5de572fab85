"""Louvain communities, seeded so a repeated query gives the same partition.

networkx's Louvain shuffles nodes with the seed, so the answer depends on the seed *and* on the
graph's node/edge insertion order; graph/nx_bridge.py builds every graph in a canonical order
(nodes sorted by id, edges sorted by endpoint ids), so equal subgraphs give equal partitions.
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx

from weft.graph.analytics.nodes import N

LOUVAIN_SEED = 42


def louvain(graph: nx.Graph[N], seed: int = LOUVAIN_SEED, weight: str | None = "weight") -> list[set[N]]:
    """Louvain communities, largest first (ties broken by smallest member), seeded.

    >>> g = nx.Graph([("a", "b"), ("b", "c"), ("a", "c"), ("x", "y"), ("y", "z"), ("x", "z"), ("c", "x")])
    >>> [sorted(c) for c in louvain(g)]
    [['a', 'b', 'c'], ['x', 'y', 'z']]
    """
    if graph.number_of_nodes() == 0:
        return []
    found: list[set[N]] = nx.community.louvain_communities(graph, weight=weight, seed=seed)
    return sorted(found, key=lambda c: (-len(c), min(map(str, c))))


def community_index(communities: Iterable[set[N]]) -> dict[N, int]:
    """Node -> community number (0 = the first community of `communities`).

    >>> community_index([{"a", "b"}, {"c"}])["c"]
    1
    """
    return {node: index for index, members in enumerate(communities) for node in members}
