"""The bridge between Neo4j and networkx: one Cypher read in, one canonical `nx.Graph` out.

Graphs are built in a canonical order (nodes sorted by id, edges sorted by their endpoint ids)
because networkx's seeded algorithms (Louvain) depend on insertion order as well as on the seed:
the same subgraph then always gives the same communities.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import networkx as nx
from neo4j import Driver

from weft.graph.driver import translated_errors
from weft.queries import network as q


def canonical_graph(
    nodes: Iterable[tuple[str, Mapping[str, Any]]],
    edges: Iterable[tuple[str, str, Mapping[str, Any]]],
) -> nx.Graph[str]:
    """An undirected graph with nodes added sorted by id and edges sorted by (smaller, larger) id.

    >>> g = canonical_graph([("b", {}), ("a", {"name": "A"})], [("b", "a", {"weight": 2})])
    >>> list(g.nodes), list(g.edges(data="weight"))
    (['a', 'b'], [('a', 'b', 2)])
    """
    graph: nx.Graph[str] = nx.Graph()
    graph.add_nodes_from(sorted(((n, dict(attrs)) for n, attrs in nodes), key=lambda item: item[0]))
    ordered = sorted(
        ((min(a, b), max(a, b), dict(attrs)) for a, b, attrs in edges if a != b),
        key=lambda item: (item[0], item[1]),
    )
    graph.add_edges_from(ordered)
    return graph


def coauthor_graph_from_rows(rows: Iterable[Mapping[str, Any]]) -> nx.Graph[str]:
    """The whole co-authorship graph from ALL_COAUTHOR_TIES rows (isolated researchers included).

    >>> coauthor_graph_from_rows([{"id": "r1", "ties": [["r2", 3]]}, {"id": "r2", "ties": []}]).edges(data=True)
    EdgeDataView([('r1', 'r2', {'weight': 3})])
    """
    rows = list(rows)
    known = {row["id"] for row in rows}
    return canonical_graph(
        ((row["id"], {}) for row in rows),
        (
            (row["id"], target, {"weight": weight or 1})
            for row in rows
            for target, weight in row["ties"]
            if target in known
        ),
    )


def read_coauthor_graph(driver: Driver, database: str) -> nx.Graph[str]:
    """The whole co-authorship graph in one read (for `weft analytics`)."""
    with translated_errors("reading the co-authorship graph"):
        records, _, _ = driver.execute_query(q.ALL_COAUTHOR_TIES, database_=database, routing_="r")
    return coauthor_graph_from_rows(record.data() for record in records)


def without_nulls(attrs: Mapping[str, Any]) -> dict[str, Any]:
    """Attributes minus None values (GraphML and GEXF writers cannot store None).

    >>> without_nulls({"a": 1, "b": None})
    {'a': 1}
    """
    return {key: value for key, value in attrs.items() if value is not None}
