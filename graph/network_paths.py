"""Collaboration paths: the shortest co-authorship chains between two researchers, with the
papers that link each hop (one Cypher read: queries.network.SHORTEST_PATHS)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from weft.graph.errors import InvalidInput
from weft.graph.network_cache import NETWORK_CACHE, VersionedCache, cached
from weft.graph.reads.reader import GraphReader
from weft.graph.reads.researchers import find_researcher
from weft.queries import network as q

MAX_PATH_LENGTH = 6  # the hop bound written into SHORTEST_PATHS
MAX_PATHS = 50


@dataclass(frozen=True)
class PathResult:
    """Endpoints (`{id, name}` maps) and the shortest paths found, strongest first; `reason` when none."""

    source: Mapping[str, Any]
    target: Mapping[str, Any]
    paths: list[dict[str, Any]]
    reason: str | None


def check_path_args(max_length: int, min_weight: int, max_paths: int) -> None:
    """InvalidInput naming the argument when one is out of range."""
    if not 1 <= max_length <= MAX_PATH_LENGTH:
        raise InvalidInput(f"maxLength must be between 1 and {MAX_PATH_LENGTH}, got {max_length}", argument="maxLength")
    if min_weight < 1:
        raise InvalidInput(f"minWeight must be at least 1, got {min_weight}", argument="minWeight")
    if not 1 <= max_paths <= MAX_PATHS:
        raise InvalidInput(f"maxPaths must be between 1 and {MAX_PATHS}, got {max_paths}", argument="maxPaths")


def path_strength(path: Mapping[str, Any]) -> tuple[int, int]:
    """Sort key ranking equally short paths: weakest hop, then total weight (both higher first).

    >>> path_strength({"hops": [{"weight": 3}, {"weight": 1}]})
    (1, 4)
    """
    weights = [hop["weight"] or 0 for hop in path["hops"]]
    return (min(weights, default=0), sum(weights))


def result_from_row(row: Mapping[str, Any], max_length: int) -> PathResult | None:
    """The PathResult of a SHORTEST_PATHS row; None when either researcher is unknown.

    >>> r = result_from_row({"source": {"id": "r1"}, "target": {"id": "r1"}, "paths": []}, 3)
    >>> r.paths[0]["hops"], r.reason is None
    ([], True)
    """
    source, target = row["source"], row["target"]
    if source is None or target is None:
        return None
    if source["id"] == target["id"]:
        return PathResult(source, target, [{"nodes": [dict(source)], "hops": []}], None)
    paths = sorted(
        row["paths"],
        key=lambda p: (tuple(-x for x in path_strength(p)), [n["id"] for n in p["nodes"]]),
    )
    reason = None
    if not paths:
        reason = f"no co-authorship path of at most {max_length} hops links {source['id']} and {target['id']}"
    return PathResult(source, target, paths, reason)


async def collaboration_paths(
    reader: GraphReader,
    source: str,
    target: str,
    max_length: int = 4,
    min_weight: int = 1,
    max_paths: int = 10,
    cache: VersionedCache = NETWORK_CACHE,
) -> PathResult | None:
    """Shortest paths between two researchers (any id form); None when either is unknown."""
    check_path_args(max_length, min_weight, max_paths)

    async def compute() -> PathResult | None:
        start, end = await find_researcher(reader, source), await find_researcher(reader, target)
        if start is None or end is None:
            return None
        rows = await reader.rows(
            q.SHORTEST_PATHS,
            {
                "source": start["id"],
                "target": end["id"],
                "max_length": max_length,
                "min_weight": min_weight,
                "max_paths": max_paths,
            },
            "finding a collaboration path",
        )
        return result_from_row(rows[0], max_length) if rows else None

    key = ("path", source, target, max_length, min_weight, max_paths)
    return await cached(reader, cache, key, compute)
