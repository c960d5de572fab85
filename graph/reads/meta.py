"""Reads about the graph as a whole: the version the network cache keys on, and when it last changed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from weft.graph.reads.reader import GraphReader
from weft.queries import read_meta as q

DataVersion = tuple[int | None, str | None, int | None, int | None]
"""(data_version, Meta element id, researcher count, co-authorship count); see `data_version`."""


async def data_version(reader: GraphReader) -> DataVersion:
    """The graph's version as analytics caches key it: (data_version, Meta element id, researcher
    count, co-authorship count); a load bumps data_version, a reset makes a new Meta node."""
    return version_of(await reader.one(q.DATA_VERSION, {}, "reading the data version") or {})


def version_of(row: Mapping[str, Any]) -> DataVersion:
    """The version in a row with DATA_VERSION's columns (its own, or a statement that reads it too)."""
    return (row.get("data_version"), row.get("meta"), row.get("researchers"), row.get("ties"))


async def data_changed_at(reader: GraphReader) -> float | None:
    """When the graph last changed (epoch seconds): the commit of its newest data version; None before any load.
    The same for every process reading the graph, so it can date a response (Last-Modified)."""
    row = await reader.one(q.DATA_CHANGED_AT, {}, "reading when the graph changed") or {}
    changed = row.get("changed_at")
    return float(changed) if changed is not None else None
