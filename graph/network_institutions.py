"""Institution networks: institutions linked by papers their researchers wrote together.

One Cypher read (queries.network.INSTITUTION_NETWORK) ranks the institutions stated on at least
`min_weight` of the centre's papers, keeps the strongest `limit - 1` in the database and gives the
paper ids of those only; a tie's weight is the number of papers stating both institutions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from weft.graph.errors import InvalidInput
from weft.graph.network import MAX_LIMIT, Network, network_weight
from weft.graph.network_cache import NETWORK_CACHE, VersionedCache, cached
from weft.graph.reads.institutions import find_institution
from weft.graph.reads.reader import GraphReader
from weft.queries import network as q


def check_institution_args(min_weight: int, limit: int) -> None:
    """InvalidInput naming the argument when one is out of range."""
    if min_weight < 1:
        raise InvalidInput(f"minWeight must be at least 1, got {min_weight}", argument="minWeight")
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidInput(f"limit must be between 1 and {MAX_LIMIT}, got {limit}", argument="limit")


def institution_network_from_rows(rows: Sequence[Mapping[str, Any]], min_weight: int, limit: int) -> Network | None:
    """The network from INSTITUTION_NETWORK rows: the centre plus its `limit - 1` strongest partners
    (the rows hold at most those; `partners` counts every one passing `min_weight`).

    >>> row = {"centre": "i1", "partners": 2}
    >>> rows = [row | {"id": "i1", "name": "A", "country": "GB", "papers": ["p1", "p2"]},
    ...         row | {"id": "i2", "name": "B", "country": "US", "papers": ["p1", "p2"]},
    ...         row | {"id": "i3", "name": "C", "country": None, "papers": ["p2", "p9"]}]
    >>> n = institution_network_from_rows(rows, 1, 10)
    >>> sorted(n.graph.edges(data="weight"))
    [('i1', 'i2', 2), ('i1', 'i3', 1), ('i2', 'i3', 1)]
    """
    if not rows:
        return None
    centre = rows[0]["centre"]
    papers = {row["id"]: set(row["papers"]) for row in rows}
    to_centre = {i: len(papers[i] & papers[centre]) for i in papers if i != centre}
    partners = sorted((i for i, w in to_centre.items() if w >= min_weight), key=lambda i: (-to_centre[i], i))
    kept = [centre, *partners[: limit - 1]]
    by_id = {row["id"]: row for row in rows}
    ties: list[tuple[str, str, int, None, None]] = []
    for a, b in combinations(kept, 2):
        shared = len(papers[a] & papers[b])
        if shared >= min_weight:
            ties.append((a, b, shared, None, None))
    nodes = (
        (
            i,
            {
                "name": by_id[i]["name"],
                "country": by_id[i]["country"],
                "paper_count": len(papers[i]),
                "distance": 0 if i == centre else 1,
            },
        )
        for i in kept
    )
    return Network.of(
        "institution",
        centre,
        nodes,
        ties,
        truncated=rows[0]["partners"] > limit - 1,
        total_node_count=rows[0]["partners"] + 1,
    )


async def institution_network(
    reader: GraphReader,
    institution_id: str,
    min_weight: int = 1,
    limit: int = 200,
    cache: VersionedCache = NETWORK_CACHE,
) -> Network | None:
    """The co-publication network of an institution (any id form `institution(id:)` accepts);
    None when unknown."""
    check_institution_args(min_weight, limit)

    async def compute() -> Network | None:
        centre = await find_institution(reader, institution_id)
        if centre is None:
            return None
        rows = await reader.rows(
            q.INSTITUTION_NETWORK,
            {"id": centre["id"], "min_weight": min_weight, "limit": limit},
            f"reading the network of institution {institution_id!r}",
        )
        return institution_network_from_rows(rows, min_weight, limit)

    return await cached(reader, cache, ("institution", institution_id, min_weight, limit), compute, network_weight)
