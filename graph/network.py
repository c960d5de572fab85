"""Researcher ego networks: parameters, assembly from one Cypher read, ranking, truncation, cache.

`researcher_network` reads the ego subgraph once (queries.network.EGO_SUBGRAPH), turns it into a
canonical networkx graph (graph/nx_bridge.py), keeps the `limit` most relevant researchers and
returns a `Network` whose analytics are computed on first use and cached with it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

import networkx as nx

from weft.graph.analytics import centrality, communities, structure
from weft.graph.errors import InvalidInput
from weft.graph.network_cache import NETWORK_CACHE, VersionedCache, cached
from weft.graph.nx_bridge import canonical_graph
from weft.graph.reads.reader import GraphReader
from weft.graph.reads.researchers import find_researcher
from weft.queries import network as q

MAX_DEPTH = 3
MAX_LIMIT = 1000
MAX_MIN_WEIGHT = 10_000
YEAR_RANGE = (1000, 2100)
RANK_BY = ("WEIGHT", "PAPERS", "CENTRALITY")


class Analytics(StrEnum):
    """The analytics a `Network` computes on first use; each value is the `Network` attribute name."""

    COMMUNITIES = "communities"
    PAGERANK = "pagerank"
    DEGREE = "degree"
    BETWEENNESS = "betweenness"
    SUMMARY = "summary"


ANALYTICS: frozenset[Analytics] = frozenset(Analytics)


@dataclass(frozen=True)
class NetworkParams:
    """The arguments every network query and export shares; `validated()` checks their ranges."""

    depth: int = 1
    min_weight: int = 1
    year_from: int | None = None
    year_to: int | None = None
    limit: int = 200
    rank_by: str = "WEIGHT"

    @property
    def windowed(self) -> bool:
        return self.year_from is not None or self.year_to is not None

    def validated(self) -> NetworkParams:
        """Self, or InvalidInput naming the first bad argument (GraphQL argument names)."""
        if not 1 <= self.depth <= MAX_DEPTH:
            raise InvalidInput(f"depth must be between 1 and {MAX_DEPTH}, got {self.depth}", argument="depth")
        if not 1 <= self.min_weight <= MAX_MIN_WEIGHT:
            raise InvalidInput(
                f"minWeight must be between 1 and {MAX_MIN_WEIGHT}, got {self.min_weight}", argument="minWeight"
            )
        if not 1 <= self.limit <= MAX_LIMIT:
            raise InvalidInput(f"limit must be between 1 and {MAX_LIMIT}, got {self.limit}", argument="limit")
        for name, year in (("yearFrom", self.year_from), ("yearTo", self.year_to)):
            if year is not None and not YEAR_RANGE[0] <= year <= YEAR_RANGE[1]:
                raise InvalidInput(
                    f"{name} must be a year between {YEAR_RANGE[0]} and {YEAR_RANGE[1]}, got {year}", argument=name
                )
        if self.year_from is not None and self.year_to is not None and self.year_from > self.year_to:
            raise InvalidInput(f"yearFrom ({self.year_from}) is after yearTo ({self.year_to})", argument="yearFrom")
        if self.rank_by not in RANK_BY:
            raise InvalidInput(f"rankBy must be one of {', '.join(RANK_BY)}, got {self.rank_by}", argument="rankBy")
        return self


@dataclass
class Network:
    """A computed network around one centre; analytics describe `graph` (the returned nodes/edges).

    Node attributes: `name`, `paper_count`, `distance` (hops from the centre; researcher networks);
    edge attributes: `weight`, `first_year`, `last_year`.
    """

    kind: str
    centre: str
    graph: nx.Graph[str]
    truncated: bool
    total_node_count: int
    extra: dict[str, Any] = field(default_factory=dict[str, Any])

    @cached_property
    def communities(self) -> dict[str, int]:
        """Node -> Louvain community number (seeded; 0 = largest community)."""
        return communities.community_index(communities.louvain(self.graph))

    @cached_property
    def pagerank(self) -> dict[str, float]:
        return centrality.pagerank(self.graph)

    @cached_property
    def degree(self) -> dict[str, float]:
        return centrality.degree(self.graph)

    @cached_property
    def betweenness(self) -> dict[str, float]:
        return centrality.betweenness(self.graph)

    @cached_property
    def summary(self) -> structure.NetworkSummary:
        return structure.summary(self.graph)

    def precompute(self, names: AbstractSet[str]) -> None:
        """Compute the named analytics now (e.g. in a worker thread, off the event loop); `names` are
        `Analytics` members or their string values, others are ignored.

        >>> n = Network("researcher", "a", nx.Graph([("a", "b")]), False, 2)
        >>> n.precompute({Analytics.COMMUNITIES, "summary"}); sorted(n.__dict__)[:2]
        ['centre', 'communities']
        """
        for name in sorted(Analytics(name) for name in names if name in ANALYTICS):
            getattr(self, name.value)


def window_ties(
    papers: Mapping[str, Mapping[str, int]], candidates: Iterable[tuple[str, str]], min_weight: int
) -> list[tuple[str, str, dict[str, Any]]]:
    """Ties recomputed from the papers two researchers share in the year window.

    `papers` maps researcher id -> {paper id: year} (papers in the window only).

    >>> window_ties({"a": {"p1": 2001, "p2": 2003}, "b": {"p1": 2001, "p2": 2003}, "c": {"p9": 2002}},
    ...             [("a", "b"), ("a", "c")], 1)
    [('a', 'b', {'weight': 2, 'first_year': 2001, 'last_year': 2003})]
    """
    ties: list[tuple[str, str, dict[str, Any]]] = []
    for a, b in candidates:
        shared = papers.get(a, {}).keys() & papers.get(b, {}).keys()
        if len(shared) >= min_weight:
            years = [papers[a][p] for p in shared]
            ties.append((a, b, {"weight": len(shared), "first_year": min(years), "last_year": max(years)}))
    return ties


def ego_graph_from_rows(rows: Sequence[Mapping[str, Any]], params: NetworkParams) -> tuple[str, nx.Graph[str]] | None:
    """(centre id, full ego graph) from EGO_SUBGRAPH rows; None when the researcher is unknown.

    Ties are the stored COAUTHORED_WITH ones, or, with a year window, recomputed from the papers
    shared in the window; then only researchers within `depth` hops over the kept ties remain,
    each with its `distance`.
    """
    if not rows:
        return None
    centre: str = rows[0]["centre"]
    known: set[str] = {row["id"] for row in rows}
    candidates = [(row["id"], tie["target"], tie) for row in rows for tie in row["ties"] if tie["target"] in known]
    if params.windowed:
        papers = {row["id"]: {p["id"]: p["year"] for p in row["papers"]} for row in rows}
        ties = window_ties(papers, [(a, b) for a, b, _ in candidates], params.min_weight)
        counts = {row["id"]: len(row["papers"]) for row in rows}
    else:
        ties = [
            (a, b, {"weight": t["weight"], "first_year": t["first_year"], "last_year": t["last_year"]})
            for a, b, t in candidates
            if (t["weight"] or 0) >= params.min_weight
        ]
        counts = {row["id"]: row["paper_count"] for row in rows}
    graph = canonical_graph(
        ((row["id"], {"name": row["name"], "paper_count": counts[row["id"]]}) for row in rows), ties
    )
    distances: dict[str, int] = nx.single_source_shortest_path_length(graph, centre, cutoff=params.depth)
    graph.remove_nodes_from([n for n in list(graph.nodes) if n not in distances])
    for node, distance in distances.items():
        graph.nodes[node]["distance"] = distance
    return centre, graph


def relevance(graph: nx.Graph[str], centre: str, rank_by: str) -> dict[str, float]:
    """Each node's score under `rank_by` (higher = more relevant; the centre scores infinity).

    WEIGHT: shared papers with the researchers one hop nearer the centre (for direct co-authors,
    the tie to the centre); PAPERS: paper count; CENTRALITY: weighted PageRank in the whole ego graph.

    >>> g = nx.Graph([("c", "a", {"weight": 1}), ("c", "b", {"weight": 5})])
    >>> nx.set_node_attributes(g, {"c": 0, "a": 1, "b": 1}, "distance")
    >>> relevance(g, "c", "WEIGHT")["b"]
    5
    """
    if rank_by == "CENTRALITY":
        scores: dict[str, float] = dict(centrality.pagerank(graph))
    elif rank_by == "PAPERS":
        scores = {n: graph.nodes[n].get("paper_count") or 0 for n in graph.nodes}
    else:
        dist = {n: attrs["distance"] for n, attrs in graph.nodes.items()}
        scores = {
            n: sum(w for _, m, w in graph.edges(n, data="weight", default=1) if dist[m] == dist[n] - 1)
            for n in graph.nodes
        }
    scores[centre] = float("inf")
    return scores


def keep_most_relevant(graph: nx.Graph[str], centre: str, params: NetworkParams) -> Network:
    """The `limit` most relevant nodes: nearest first, then by `rank_by` score, then by id.

    Nearer rings are kept before farther ones, so the kept network stays connected to the centre.
    """
    scores = relevance(graph, centre, params.rank_by) if graph.number_of_nodes() > params.limit else {}
    order = sorted(graph.nodes, key=lambda n: (graph.nodes[n]["distance"], -scores.get(n, 0), n))
    kept = set(order[: params.limit])
    trimmed = canonical_graph(
        ((n, graph.nodes[n]) for n in kept),
        ((a, b, attrs) for a, b, attrs in graph.edges(data=True) if a in kept and b in kept),
    )
    return Network(
        kind="researcher",
        centre=centre,
        graph=trimmed,
        truncated=len(kept) < graph.number_of_nodes(),
        total_node_count=graph.number_of_nodes(),
    )


def assemble(rows: Sequence[Mapping[str, Any]], params: NetworkParams) -> Network | None:
    """EGO_SUBGRAPH rows to the returned Network (pure; the server runs it in a worker thread)."""
    built = ego_graph_from_rows(rows, params)
    return keep_most_relevant(built[1], built[0], params) if built else None


async def researcher_network(
    reader: GraphReader,
    researcher_id: str,
    params: NetworkParams,
    cache: VersionedCache = NETWORK_CACHE,
) -> Network | None:
    """The ego network of a researcher (any id form `researcher(id:)` accepts); None when unknown.

    Cached per (id, params, data_version): a repeat on unchanged data reads only the data version.
    """
    params = params.validated()

    async def compute() -> Network | None:
        centre = await find_researcher(reader, researcher_id)
        if centre is None:
            return None
        rows = await reader.rows(
            q.EGO_SUBGRAPH,
            {
                "id": centre["id"],
                "depth": params.depth,
                "min_weight": params.min_weight,
                "year_from": params.year_from,
                "year_to": params.year_to,
                "windowed": params.windowed,
            },
            f"reading the network of researcher {researcher_id!r}",
        )
        return await asyncio.to_thread(assemble, rows, params)

    return await cached(reader, cache, ("researcher", researcher_id, params), compute)
