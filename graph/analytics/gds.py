"""Whole-graph researcher scores in Neo4j Graph Data Science: the same five scores as the networkx
engine (graph/network_scores.py), computed inside the database from a projection of COAUTHORED_WITH.

networkx holds the whole graph in Python objects (hundreds of bytes per edge) and runs single-threaded;
GDS projects it into compact arrays in the server and runs on up to 4 threads (the open edition's cap).
Scores are scaled to networkx's conventions so either engine writes the same properties: PageRank sums
to 1, degree and betweenness are normalised, communities and components are numbered from 0 = largest.
Louvain in GDS has no random seed; it runs on one thread, which makes it repeatable.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Callable, Generator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from neo4j import Driver
from neo4j.exceptions import ClientError

from weft.graph.analytics.centrality import BETWEENNESS_SAMPLE, BETWEENNESS_SEED, EXACT_BETWEENNESS_MAX_NODES
from weft.graph.driver import translated_errors
from weft.queries import gds as q

MAX_CONCURRENCY = 4  # the open edition refuses more


Step = Callable[[str], None]  # called with a step's name as each step ends (bench/analytics.py times them)


def no_step(_name: str) -> None:
    """The default Step: nothing."""


@dataclass(frozen=True)
class GdsRun:
    """One GDS scoring run: a row per researcher (as graph/network_scores.py writes them) and counts."""

    rows: list[dict[str, Any]]
    researchers: int
    ties: int
    modularity: float


def gds_version(driver: Driver, database: str) -> str | None:
    """The server's GDS version, or None when it has no GDS (unknown function)."""
    try:
        records, _, _ = driver.execute_query(q.GDS_VERSION, database_=database, routing_="r")
    except ClientError:
        return None
    return str(records[0]["version"])


@contextmanager
def projection(driver: Driver, database: str, concurrency: int) -> Generator[tuple[str, int, int], None, None]:
    """The co-authorship graph projected under a fresh name: (name, researchers, ties); dropped on exit."""
    name = f"weft-coauthors-{uuid.uuid4().hex[:12]}"
    with translated_errors("projecting the co-authorship graph into GDS"):
        records, _, _ = driver.execute_query(
            q.PROJECT_COAUTHORS, graph=name, concurrency=concurrency, database_=database
        )
    try:
        yield name, int(records[0]["researchers"]), int(records[0]["ties"])
    finally:
        driver.execute_query(q.DROP_GRAPH, graph=name, database_=database)


def numbered(labels: Mapping[str, int]) -> dict[str, int]:
    """Group labels renumbered as networkx's engine numbers them: 0 = the largest group, ties broken by
    the smallest member id.

    >>> numbered({"a": 7, "b": 7, "c": 3, "d": 5})
    {'a': 0, 'b': 0, 'c': 1, 'd': 2}
    """
    groups: dict[int, list[str]] = defaultdict(list)
    for node, label in labels.items():
        groups[label].append(node)
    ordered = sorted(groups.values(), key=lambda members: (-len(members), min(members)))
    index = {node: i for i, members in enumerate(ordered) for node in members}
    return {node: index[node] for node in labels}


def betweenness_config(researchers: int, concurrency: int) -> dict[str, Any]:
    """Exact betweenness for small graphs, a seeded sample of source nodes above the networkx engine's
    threshold (the same sample size)."""
    config: dict[str, Any] = {"mutateProperty": "betweenness", "concurrency": concurrency}
    if researchers > EXACT_BETWEENNESS_MAX_NODES:
        config |= {"samplingSize": BETWEENNESS_SAMPLE, "samplingSeed": BETWEENNESS_SEED}
    return config


def betweenness_scale(researchers: int) -> float:
    """Factor from GDS's raw betweenness (every ordered pair, sampled sources unscaled) to networkx's
    normalised one.

    >>> betweenness_scale(3), betweenness_scale(2)
    (0.5, 0.0)
    """
    n = researchers
    if n <= 2:
        return 0.0
    scale = 1.0 / ((n - 1) * (n - 2))
    return scale * n / BETWEENNESS_SAMPLE if n > EXACT_BETWEENNESS_MAX_NODES else scale


def _run_algorithms(
    driver: Driver, database: str, name: str, researchers: int, concurrency: int, on_step: Step
) -> float:
    """Mutate the projection with all five scores; returns Louvain's modularity."""
    steps: list[tuple[str, Any, dict[str, Any]]] = [
        (
            "pagerank",
            q.PAGE_RANK,
            {
                "mutateProperty": "page_rank",
                "relationshipWeightProperty": "weight",
                "dampingFactor": 0.85,
                "maxIterations": 100,
                "tolerance": 1e-8,
                "scaler": "L1Norm",
                "concurrency": concurrency,
            },
        ),
        ("components", q.COMPONENTS, {"mutateProperty": "component", "concurrency": concurrency}),
        ("degree", q.DEGREE, {"mutateProperty": "degree", "concurrency": concurrency}),
        ("betweenness", q.BETWEENNESS, betweenness_config(researchers, concurrency)),
    ]
    for step, statement, config in steps:
        with translated_errors("running a GDS algorithm"):
            driver.execute_query(statement, graph=name, config=config, database_=database)
        on_step(step)
    louvain = {"mutateProperty": "community", "relationshipWeightProperty": "weight", "concurrency": 1}
    with translated_errors("running GDS Louvain"):
        records, _, _ = driver.execute_query(q.LOUVAIN, graph=name, config=louvain, database_=database)
    on_step("louvain")
    return float(records[0]["modularity"])


def score_rows(driver: Driver, database: str, concurrency: int = MAX_CONCURRENCY, on_step: Step = no_step) -> GdsRun:
    """Every researcher's page_rank, community, component, degree_centrality and betweenness from GDS;
    `on_step` hears "project", each algorithm and "stream" end (while the projection exists)."""
    concurrency = max(1, min(concurrency, MAX_CONCURRENCY))
    with projection(driver, database, concurrency) as (name, researchers, ties):
        on_step("project")
        modularity = _run_algorithms(driver, database, name, researchers, concurrency, on_step)
        with translated_errors("reading GDS scores"):
            # Routed like the projection (to the writer): a GDS graph lives in one server's memory, and on a
            # cluster a read could go to a secondary that does not hold it.
            records, _, _ = driver.execute_query(q.SCORES, graph=name, database_=database)
        on_step("stream")
    raw = [record.data() for record in records]
    communities = numbered({r["id"]: int(r["community"]) for r in raw})
    components = numbered({r["id"]: int(r["component"]) for r in raw})
    degree_scale = 1.0 / (researchers - 1) if researchers > 1 else 1.0
    between = betweenness_scale(researchers)
    rows = [
        {
            "id": r["id"],
            "page_rank": float(r["page_rank"]),
            "community": communities[r["id"]],
            "component": components[r["id"]],
            "degree_centrality": float(r["degree"]) * degree_scale,
            "betweenness": float(r["betweenness"]) * between,
        }
        for r in raw
    ]
    return GdsRun(rows=rows, researchers=researchers, ties=ties, modularity=modularity)
