"""Whole-graph researcher scores for `weft analytics`: PageRank and Louvain community over every
researcher, computed with networkx on the full co-authorship graph and stored as node properties
`page_rank` and `community` in batched writes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import networkx as nx
from neo4j import Driver

from weft.graph.analytics import centrality, communities
from weft.graph.driver import translated_errors
from weft.graph.nx_bridge import read_coauthor_graph
from weft.queries import network as q


@dataclass(frozen=True)
class ScoresSummary:
    """What `weft analytics` reports."""

    researchers: int
    ties: int
    communities: int
    written: int


def score_rows(graph: nx.Graph[str], seed: int = communities.LOUVAIN_SEED) -> list[dict[str, Any]]:
    """One `{id, page_rank, community}` row per node: weighted PageRank and seeded Louvain.

    >>> rows = score_rows(nx.Graph([("a", "b", {"weight": 1})]))
    >>> [(r["id"], round(r["page_rank"], 2), r["community"]) for r in rows]
    [('a', 0.5, 0), ('b', 0.5, 0)]
    """
    ranks = centrality.pagerank(graph)
    index = communities.community_index(communities.louvain(graph, seed=seed))
    return [{"id": n, "page_rank": ranks[n], "community": index[n]} for n in graph.nodes]


def batches(rows: list[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    """Consecutive slices of `rows` of at most `size` items.

    >>> [len(b) for b in batches([{}] * 5, 2)]
    [2, 2, 1]
    """
    for start in range(0, len(rows), size):
        yield rows[start : start + size]


def compute_and_store(
    driver: Driver,
    database: str,
    batch_size: int = 5000,
    seed: int = communities.LOUVAIN_SEED,
    on_batch: Callable[[int], None] | None = None,
) -> ScoresSummary:
    """Read the whole co-authorship graph once, score it, write `page_rank`/`community` in batches."""
    graph = read_coauthor_graph(driver, database)
    rows = score_rows(graph, seed)
    written = 0
    with translated_errors("storing researcher scores"):
        for batch in batches(rows, batch_size):
            records, _, _ = driver.execute_query(q.WRITE_RESEARCHER_SCORES, rows=batch, database_=database)
            written += records[0]["written"]
            if on_batch:
                on_batch(len(batch))
    return ScoresSummary(
        researchers=graph.number_of_nodes(),
        ties=graph.number_of_edges(),
        communities=len({r["community"] for r in rows}),
        written=written,
    )
