"""Whole-graph researcher scores for `weft analytics`: PageRank, Louvain community, connected
component, degree and betweenness centrality over every researcher, stored as node properties
`page_rank`, `community`, `component`, `degree_centrality` and `betweenness` in batched writes.

Two engines compute them: networkx on the full co-authorship graph read into Python, or Neo4j Graph
Data Science inside the server (graph/analytics/gds.py); `auto` picks GDS when the server has it and
the graph has at least AUTO_GDS_MIN_TIES ties (bench/analytics.py measured where GDS starts to win)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import networkx as nx
from neo4j import Driver

from weft.graph.analytics import centrality, communities, components, gds
from weft.graph.driver import translated_errors
from weft.graph.errors import InvalidInput, Unavailable
from weft.graph.nx_bridge import read_coauthor_graph
from weft.graph.versions import run_marked
from weft.queries import network as q


@dataclass(frozen=True)
class ScoresSummary:
    """What `weft analytics` reports."""

    researchers: int
    ties: int
    communities: int
    written: int
    engine: str = "networkx"


ENGINES = ("auto", "gds", "networkx")
# measured (bench/RESULTS.md, "Whole-graph analytics"): networkx 0.9 s vs GDS 2.3 s at 229 ties (GDS's fixed
# cost of a projection and six procedure calls), GDS 4.8 s vs networkx 11.6 s at 5,786 ties, and the gap
# grows with size (sampled betweenness is 400 breadth-first searches in Python); the crossover lies between
AUTO_GDS_MIN_TIES = 1_000


def score_rows(
    graph: nx.Graph[str], seed: int = communities.LOUVAIN_SEED, on_step: gds.Step = gds.no_step
) -> list[dict[str, Any]]:
    """One row per node: weighted PageRank, seeded Louvain community, component (0 = largest), degree
    and betweenness centrality (normalised); `on_step` hears each algorithm end.

    >>> rows = score_rows(nx.Graph([("a", "b", {"weight": 1}), ("b", "c", {"weight": 1})]))
    >>> [(r["id"], round(r["page_rank"], 2), r["community"], r["component"], r["betweenness"]) for r in rows]
    [('a', 0.26, 0, 0, 0.0), ('b', 0.49, 0, 0, 1.0), ('c', 0.26, 0, 0, 0.0)]
    """
    ranks = centrality.pagerank(graph)
    on_step("pagerank")
    index = communities.community_index(communities.louvain(graph, seed=seed))
    on_step("louvain")
    component = components.component_index(graph)
    on_step("components")
    degree = centrality.degree(graph)
    on_step("degree")
    between = centrality.betweenness(graph)
    on_step("betweenness")
    return [
        {
            "id": n,
            "page_rank": ranks[n],
            "community": index[n],
            "component": component[n],
            "degree_centrality": degree[n],
            "betweenness": between[n],
        }
        for n in graph.nodes
    ]


def batches(rows: list[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    """Consecutive slices of `rows` of at most `size` items.

    >>> [len(b) for b in batches([{}] * 5, 2)]
    [2, 2, 1]
    """
    for start in range(0, len(rows), size):
        yield rows[start : start + size]


def write_rows(
    driver: Driver, database: str, rows: list[dict[str, Any]], batch_size: int, on_batch: Callable[[int], None] | None
) -> int:
    """Store the score rows in batches of `batch_size`; returns how many researchers were written."""
    written = 0
    with translated_errors("storing researcher scores"):
        for batch in batches(rows, batch_size):
            # each batch moves the data version: cached answers showing scores are stale as it commits
            records = run_marked(driver, database, q.WRITE_RESEARCHER_SCORES, rows=batch)
            written += records[0]["written"]
            if on_batch:
                on_batch(len(batch))
    return written


def choose_engine(driver: Driver, database: str, engine: str) -> str:
    """`gds` or `networkx` for the requested engine; `auto` counts the ties and asks the server for GDS."""
    if engine not in ENGINES:
        raise InvalidInput(f"--engine must be one of {', '.join(ENGINES)}, got {engine!r}", argument="--engine")
    has_gds = engine != "networkx" and gds.gds_version(driver, database) is not None
    if engine == "gds" and not has_gds:
        raise Unavailable("the server has no Graph Data Science library (RETURN gds.version() fails)")
    if engine != "auto":
        return engine
    if not has_gds:
        return "networkx"
    with translated_errors("counting co-authorship ties"):
        records, _, _ = driver.execute_query(q.COUNT_COAUTHOR_TIES, database_=database, routing_="r")
    return "gds" if records[0]["ties"] >= AUTO_GDS_MIN_TIES else "networkx"


def compute_and_store(
    driver: Driver,
    database: str,
    batch_size: int = 5000,
    seed: int = communities.LOUVAIN_SEED,
    on_batch: Callable[[int], None] | None = None,
    engine: str = "networkx",
    on_step: gds.Step = gds.no_step,
) -> ScoresSummary:
    """Score the whole co-authorship graph with the chosen engine and write the scores in batches;
    `on_step` hears each step end ("read" or "project", each algorithm, "stream", "write")."""
    chosen = choose_engine(driver, database, engine)
    if chosen == "gds":
        run = gds.score_rows(driver, database, on_step=on_step)
        rows, researchers, ties = run.rows, run.researchers, run.ties
    else:
        graph = read_coauthor_graph(driver, database)
        on_step("read")
        rows = score_rows(graph, seed, on_step)
        researchers, ties = graph.number_of_nodes(), graph.number_of_edges()
    written = write_rows(driver, database, rows, batch_size, on_batch)
    on_step("write")
    return ScoresSummary(
        researchers=researchers,
        ties=ties,
        communities=len({r["community"] for r in rows}),
        written=written,
        engine=chosen,
    )
