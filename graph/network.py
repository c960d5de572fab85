"""Researcher ego networks: parameters, one bounded Cypher read, assembly, cache.

`researcher_network` reads the network once (queries.network.EGO_NETWORK: the database explores the
rings it needs, ranks, keeps the `limit` most relevant researchers and reads only the ties among
them), puts its nodes and ties in canonical order and returns a `Network` whose networkx graph
(graph/nx_bridge.py) and analytics are computed on first use and cached with it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from operator import itemgetter
from typing import Any

import networkx as nx

from weft.graph.analytics import centrality, communities, structure
from weft.graph.errors import InvalidInput
from weft.graph.identity.lookup import parse_researcher_id
from weft.graph.network_cache import NETWORK_CACHE, VersionedCache, cached
from weft.graph.nx_bridge import ordered_graph
from weft.graph.reads.meta import DataVersion, version_of
from weft.graph.reads.page import keys_param
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


Tie = tuple[str, str, Any, Any, Any]
"""One edge of a network as (smaller id, larger id, weight, first_year, last_year): a plain tuple of atoms,
which the garbage collector stops tracking, so a cached network of 10,000 ties is not rescanned by every
full collection (as objects they made each one cost 150-270 ms; bench/RESULTS.md)."""

NodeRow = tuple[str, dict[str, Any]]
"""One node of a network: its id and its attributes."""


def canonical_parts(nodes: Iterable[NodeRow], ties: Iterable[Sequence[Any]]) -> tuple[list[NodeRow], list[Tie]]:
    """Nodes sorted by id and ties sorted by (smaller, larger) id: what `canonical_graph` would hold and in
    its order, without building it (a repeated node or pair keeps its last values, a tie to itself is
    dropped, an endpoint that is not a node joins the nodes bare, in the order the graph would add it).

    >>> canonical_parts([("b", {}), ("a", {"name": "A"})], [("b", "a", 2, None, None), ("c", "a", 1, 2001, 2001)])
    ([('a', {'name': 'A'}), ('b', {}), ('c', {})], [('a', 'b', 2, None, None), ('a', 'c', 1, 2001, 2001)])
    """
    by_id = dict(nodes)
    # A tie holds the nodes' own id strings and one object per year, not copies (the driver decodes each
    # occurrence anew): a cached network holds about half the bytes per tie (bench/RESULTS.md).
    same: dict[Any, Any] = {node_id: node_id for node_id in by_id}
    pairs: dict[tuple[str, str], Tie] = {}
    for a, b, weight, first_year, last_year in ties:
        if a != b:
            if b < a:
                a, b = b, a
            a = same.setdefault(a, a)
            b = same.setdefault(b, b)
            pairs[a, b] = (a, b, weight, same.setdefault(first_year, first_year), same.setdefault(last_year, last_year))
    sorted_ties = sorted(pairs.values())
    sorted_nodes = sorted(by_id.items(), key=itemgetter(0))
    for a, b, *_ in sorted_ties:
        for end in (a, b):
            if end not in by_id:
                by_id[end] = {}
                sorted_nodes.append((end, by_id[end]))
    return sorted_nodes, sorted_ties


@dataclass
class Network:
    """A computed network around one centre: its nodes and ties in canonical order (`canonical_parts`),
    and the networkx graph of them (`graph`) that the analytics describe, built only when one is asked
    for: an answer that lists the network needs no graph (building one was ~11 ms of an 8,000-tie
    network at 1M; bench/RESULTS.md).

    `total_node_count` counts the network within `explored_depth` hops before `limit` (researcher
    networks stop exploring where a nearer ring already overflows `limit`).

    Node attributes: `name`, `paper_count`, `distance` (hops from the centre; researcher networks);
    edge attributes: `weight`, `first_year`, `last_year`.
    """

    kind: str
    centre: str
    nodes: list[NodeRow]
    ties: list[Tie]
    truncated: bool
    total_node_count: int
    explored_depth: int = 1
    # What the API built from this network for its answers (its GraphQL object), kept with it while the
    # network is cached: a cache hit serves those instead of rebuilding 10,000 tie objects.
    built: dict[str, Any] = field(default_factory=dict[str, Any], repr=False, compare=False)
    # Told when the graph is built, so that a cache holding the network can weigh it again (`watch_growth`).
    on_growth: Callable[[Network], None] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(
        cls,
        kind: str,
        centre: str,
        nodes: Iterable[NodeRow],
        ties: Iterable[Sequence[Any]],
        truncated: bool,
        total_node_count: int,
        explored_depth: int = 1,
    ) -> Network:
        """A network of nodes and ties in any order (put in canonical order here)."""
        ordered_nodes, ordered_ties = canonical_parts(nodes, ties)
        return cls(kind, centre, ordered_nodes, ordered_ties, truncated, total_node_count, explored_depth)

    @classmethod
    def from_graph(
        cls,
        kind: str,
        centre: str,
        graph: nx.Graph[str],
        truncated: bool,
        total_node_count: int,
        explored_depth: int = 1,
    ) -> Network:
        """A network over an existing graph (tests, tools): its nodes and ties read from it, the graph kept.

        >>> n = Network.from_graph("researcher", "a", nx.Graph([("a", "b", {"weight": 2})]), False, 2)
        >>> n.nodes, n.ties, n.graph.number_of_edges()
        ([('a', {}), ('b', {})], [('a', 'b', 2, None, None)], 1)
        """
        network = cls.of(
            kind,
            centre,
            ((n, dict(attrs)) for n, attrs in graph.nodes(data=True)),
            (
                (a, b, attrs.get("weight"), attrs.get("first_year"), attrs.get("last_year"))
                for a, b, attrs in graph.edges(data=True)
            ),
            truncated,
            total_node_count,
            explored_depth,
        )
        network.__dict__["graph"] = graph
        return network

    @cached_property
    def graph(self) -> nx.Graph[str]:
        """The nodes and ties as a networkx graph (edge attributes `weight`, `first_year`, `last_year`)."""
        graph = ordered_graph(
            self.nodes,
            ((a, b, {"weight": w, "first_year": first, "last_year": last}) for a, b, w, first, last in self.ties),
        )
        self.__dict__["graph"] = graph  # held from here on: a cache weighing the network again counts it
        if self.on_growth is not None:
            self.on_growth(self)
        return graph

    def watch_growth(self, callback: Callable[[Network], None]) -> None:
        """Call `callback(self)` when this network comes to hold more (its graph is built): the network
        cache weighs it again then (graph/network_cache.py `cached`)."""
        self.on_growth = callback

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

    def release(self) -> None:
        """Forget what the API built from this network: the network cache calls it on dropping the network.

        The built object refers back to the network, a cycle only a full garbage collection would find
        (~11,000 ties each, found 150-270 ms into a collection); broken here, a dropped network is freed
        at once. A request still holding the built object keeps it whole.
        """
        self.built.clear()
        self.on_growth = None

    def precompute(self, names: AbstractSet[str]) -> None:
        """Compute the named analytics now (e.g. in a worker thread, off the event loop); `names` are
        `Analytics` members or their string values, others are ignored.

        >>> n = Network.from_graph("researcher", "a", nx.Graph([("a", "b")]), False, 2)
        >>> n.precompute({Analytics.COMMUNITIES, "summary"})
        >>> [name in n.__dict__ for name in ("communities", "summary", "pagerank")]
        [True, True, False]
        """
        for name in sorted(Analytics(name) for name in names if name in ANALYTICS):
            getattr(self, name.value)


def network_from_row(row: Mapping[str, Any]) -> Network:
    """The Network of one EGO_NETWORK row: the kept researchers and the ties among them, as chosen
    and counted by the database (pure; canonical node and edge order for seeded analytics).

    >>> row = {"centre": "c", "total": 3, "explored_depth": 1, "truncated": True,
    ...        "nodes": [{"id": "c", "name": "C", "paper_count": 2, "distance": 0},
    ...                  {"id": "a", "name": "A", "paper_count": 1, "distance": 1}],
    ...        "edges": [["c", "a", 2, 2001, 2003]]}
    >>> n = network_from_row(row)
    >>> list(n.graph.edges(data="weight")), n.truncated, n.total_node_count, n.explored_depth
    ([('a', 'c', 2)], True, 3, 1)
    """
    return Network.of(
        "researcher",
        row["centre"],
        (
            (node["id"], {"name": node["name"], "paper_count": node["paper_count"], "distance": node["distance"]})
            for node in row["nodes"]
        ),
        row["edges"],
        truncated=row["truncated"],
        total_node_count=row["total"],
        explored_depth=row["explored_depth"],
    )


INLINE_TIES = 500
"""Networks with at most this many ties are built on the event loop: a thread's hand-off costs more than they do."""


async def built(row: Mapping[str, Any]) -> Network:
    """`network_from_row(row)`, in a thread of its own when large (a 10,000-tie network would hold up every other
    request for tens of milliseconds)."""
    if len(row["edges"]) <= INLINE_TIES:
        return network_from_row(row)
    return await asyncio.to_thread(network_from_row, row)


def shape_of(params: NetworkParams) -> dict[str, Any]:
    """EGO_NETWORK's parameters beside the centre (validated `params`)."""
    return {
        "depth": params.depth,
        "min_weight": params.min_weight,
        "year_from": params.year_from,
        "year_to": params.year_to,
        "limit": params.limit,
        "rank_by": params.rank_by,
    }


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
    shape = shape_of(params)
    what = f"reading the network of researcher {researcher_id!r}"

    async def compute() -> Network | None:
        centre = await find_researcher(reader, researcher_id)
        if centre is None:
            return None
        query = q.EGO_NETWORK_WINDOWED if params.windowed else q.EGO_NETWORK
        row = await reader.one(query, {"id": centre["id"], **shape}, what, values_only=True)
        return await built(row) if row else None

    async def read_missing() -> tuple[DataVersion, Network | None] | None:
        """The version and the network in one read, for an id any key but an alias finds (else None)."""
        keys = keys_param(parse_researcher_id(researcher_id))
        if not keys:
            return None
        query = q.VERSIONED_EGO_NETWORK[params.windowed]
        row = await reader.one(query, {"keys": keys, **shape}, what, values_only=True)
        if row is None:
            return None
        return version_of(row), await built(row)

    key = ("researcher", researcher_id, params)
    return await cached(reader, cache, key, compute, network_weight, read_missing)


# Bytes a cached network holds per node and per tie (measured with tracemalloc, bench/RESULTS.md): a node
# ~400 in the lists and ~330 more in the networkx graph the analytics and exports build, a tie ~90 and
# ~240 (what the analytics keep is small beside these); about a fifth more, so that the cache's bound
# holds in RSS too.
NODE_BYTES = 480
TIE_BYTES = 110
NODE_GRAPH_BYTES = 400
TIE_GRAPH_BYTES = 290
# What the network cache counts for an unknown id's None and a network's own fields.
ENTRY_BYTES = 1000


def network_weight(network: Network | None) -> int:
    """The bytes a network holds in the cache: its nodes and ties, and its graph once one is built."""
    if network is None:
        return ENTRY_BYTES
    nodes, ties = len(network.nodes), len(network.ties)
    weight = ENTRY_BYTES + NODE_BYTES * nodes + TIE_BYTES * ties
    if "graph" in network.__dict__:
        weight += NODE_GRAPH_BYTES * nodes + TIE_GRAPH_BYTES * ties
    return weight
