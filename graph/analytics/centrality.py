"""Degree, betweenness and PageRank centrality of a collaboration network.

PageRank and degree use the `weight` edge attribute (shared papers); betweenness treats every tie
as one step (weights are strengths, not distances). Betweenness is exact up to
`EXACT_BETWEENNESS_MAX_NODES` nodes and estimated from a seeded sample of pivots above that.
"""

from __future__ import annotations

import networkx as nx

from weft.graph.analytics.nodes import N

EXACT_BETWEENNESS_MAX_NODES = 400
BETWEENNESS_SAMPLE = 400
BETWEENNESS_SEED = 42


def degree(graph: nx.Graph[N]) -> dict[N, float]:
    """Degree centrality: the share of the other nodes each node is tied to.

    >>> degree(nx.path_graph(3))
    {0: 0.5, 1: 1.0, 2: 0.5}
    """
    return nx.degree_centrality(graph)


def betweenness(graph: nx.Graph[N]) -> dict[N, float]:
    """Normalised betweenness: exact for small graphs, seeded pivot sample for large ones.

    >>> betweenness(nx.path_graph(3))
    {0: 0.0, 1: 1.0, 2: 0.0}
    """
    n = graph.number_of_nodes()
    if n <= EXACT_BETWEENNESS_MAX_NODES:
        return nx.betweenness_centrality(graph, normalized=True)
    return nx.betweenness_centrality(graph, k=BETWEENNESS_SAMPLE, normalized=True, seed=BETWEENNESS_SEED)


def pagerank(graph: nx.Graph[N], weight: str | None = "weight") -> dict[N, float]:
    """Weighted PageRank (alpha 0.85); an empty graph gives {}.

    >>> round(pagerank(nx.Graph([("a", "b")]))["a"], 3)
    0.5
    """
    if graph.number_of_nodes() == 0:
        return {}
    return nx.pagerank(graph, alpha=0.85, weight=weight)
