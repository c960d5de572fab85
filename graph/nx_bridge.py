"""The bridge between Neo4j and networkx: one Cypher read in, one canonical `nx.Graph` out.

Graphs are built in a canonical order (nodes sorted by id, edges sorted by their endpoint ids)
because networkx's seeded algorithms (Louvain) depend on insertion order as well as on the seed:
the same subgraph then always gives the same communities.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from operator import itemgetter
from typing import Any, cast

import networkx as nx
from neo4j import Driver

from weft.graph.driver import translated_errors
from weft.queries import network as q


def canonical_graph(
    nodes: Iterable[tuple[str, Mapping[str, Any]]],
    edges: Iterable[tuple[str, str, Mapping[str, Any]]],
) -> nx.Graph[str]:
    """An undirected graph with nodes added sorted by id and edges sorted by (smaller, larger) id.

    The same graph as `add_nodes_from` + `add_edges_from` in that order (an endpoint that is not a node
    becomes one, a repeated edge's attributes update the first's), with the fresh graph's adjacency
    written directly: networkx's `add_edges_from` merges attributes and checks both ends per edge,
    ~6 µs an edge, which was most of building a 10,000-tie network.

    >>> g = canonical_graph([("b", {}), ("a", {"name": "A"})], [("b", "a", {"weight": 2}), ("c", "a", {})])
    >>> list(g.nodes), list(g.edges(data="weight")), g.nodes["a"]
    (['a', 'b', 'c'], [('a', 'b', 2), ('a', 'c', None)], {'name': 'A'})
    """
    # Sorted as (smaller, larger, position): the position keeps equal pairs in input order, as a stable
    # sort would, while tuples of strings and ints compare without a key function.
    given: list[Mapping[str, Any]] = []
    keyed: list[tuple[str, str, int]] = []
    for a, b, attrs in edges:
        if a != b:
            keyed.append((a, b, len(given)) if a < b else (b, a, len(given)))
            given.append(attrs)
    keyed.sort()
    return ordered_graph(
        sorted(((n, dict(attrs)) for n, attrs in nodes), key=itemgetter(0)),
        ((a, b, given[position]) for a, b, position in keyed),
    )


def ordered_graph(
    nodes: Iterable[tuple[str, dict[str, Any]]],
    edges: Iterable[tuple[str, str, Mapping[str, Any]]],
) -> nx.Graph[str]:
    """An undirected graph with nodes and then edges added in the order given, as `add_nodes_from` +
    `add_edges_from` would (an endpoint that is not a node becomes one, a repeated edge's attributes update
    the first's), the adjacency written directly (see `canonical_graph`).

    >>> list(ordered_graph([("b", {}), ("a", {})], [("b", "a", {"weight": 2})]).edges(data="weight"))
    [('b', 'a', 2)]
    """
    graph: nx.Graph[str] = nx.Graph()
    graph.add_nodes_from(nodes)
    adjacency = cast("dict[str, dict[str, dict[str, Any]]]", getattr(graph, "_adj"))  # noqa: B009 - see canonical_graph
    for a, b, attrs in edges:
        if a == b or a not in adjacency or b not in adjacency:
            graph.add_edge(a, b, **attrs)  # a new endpoint joins in the order add_edges_from would add it
            continue
        data = adjacency[a].get(b)
        if data is None:
            data = dict(attrs)
            adjacency[a][b] = data
            adjacency[b][a] = data
        else:
            data.update(attrs)
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
