"""Researcher ego networks: parameters, one bounded Cypher read, assembly, cache.

`researcher_network` reads the network once (queries.network.EGO_NETWORK: the database explores the
rings it needs, ranks, keeps the `limit` most relevant researchers and reads only the ties among
them), turns it into a canonical networkx graph (graph/nx_bridge.py) and returns a `Network` whose
analytics are computed on first use and cached with it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
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

    `total_node_count` counts the network within `explored_depth` hops before `limit` (researcher
    networks stop exploring where a nearer ring already overflows `limit`).

    Node attributes: `name`, `paper_count`, `distance` (hops from the centre; researcher networks);
    edge attributes: `weight`, `first_year`, `last_year`.
    """

    kind: str
    centre: str
    graph: nx.Graph[str]
    truncated: bool
    total_node_count: int
    explored_depth: int = 1
    # What the API built from this network for its answers (its GraphQL object), kept with it while the
    # network is cached: a cache hit serves those instead of rebuilding 10,000 tie objects.
    built: dict[str, Any] = field(default_factory=dict[str, Any], repr=False, compare=False)

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

    def precompute(self, names: AbstractSet[str]) -> None:
        """Compute the named analytics now (e.g. in a worker thread, off the event loop); `names` are
        `Analytics` members or their string values, others are ignored.

        >>> n = Network("researcher", "a", nx.Graph([("a", "b")]), False, 2)
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
    graph = canonical_graph(
        (
            (node["id"], {"name": node["name"], "paper_count": node["paper_count"], "distance": node["distance"]})
            for node in row["nodes"]
        ),
        (
            (source, target, {"weight": weight, "first_year": first, "last_year": last})
            for source, target, weight, first, last in row["edges"]
        ),
    )
    return Network(
        kind="researcher",
        centre=row["centre"],
        graph=graph,
        truncated=row["truncated"],
        total_node_count=row["total"],
        explored_depth=row["explored_depth"],
    )


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
        row = await reader.one(
            q.EGO_NETWORK_WINDOWED if params.windowed else q.EGO_NETWORK,
            {
                "id": centre["id"],
                "depth": params.depth,
                "min_weight": params.min_weight,
                "year_from": params.year_from,
                "year_to": params.year_to,
                "limit": params.limit,
                "rank_by": params.rank_by,
            },
            f"reading the network of researcher {researcher_id!r}",
            values_only=True,
        )
        return await asyncio.to_thread(network_from_row, row) if row else None

    return await cached(reader, cache, ("researcher", researcher_id, params), compute, network_weight)


def network_weight(network: Network | None) -> int:
    """What a network weighs in the cache: its nodes plus edges (an unknown id's None: 1)."""
    return 1 if network is None else 1 + network.graph.number_of_nodes() + network.graph.number_of_edges()
