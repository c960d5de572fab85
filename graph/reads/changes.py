"""Reads of the sync change log for the API and the site: pages in log order, the newest, and tombstones."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from neo4j.time import DateTime

from weft.graph.reads.reader import GraphReader
from weft.queries import read_changes as q

Row = dict[str, Any]

ENTITY_LABELS: dict[str, str] = {
    "works": "Paper",
    "papers": "Paper",
    "authors": "Researcher",
    "institutions": "Institution",
}
"""The node label of each entity name the sources' change logs use (OpenAlex's `works`, Semantic Scholar's `papers`)."""


@dataclass(frozen=True)
class ChangePage:
    """One page of the change log: its rows (oldest first), the filtered log's size, and whether more follow."""

    rows: list[Row]
    total: int
    has_more: bool


def _native(change: Row) -> Row:
    """A change with its time as a Python datetime (the driver gives Neo4j's own)."""
    at = change.get("at")
    return {**change, "at": at.to_native() if isinstance(at, DateTime) else at}


async def change_page(
    reader: GraphReader, after: int, limit: int, entities: list[str] | None, since: datetime | None
) -> ChangePage:
    """The changes after number `after`, of `entities` (the log's entity names; None: all), logged at or after
    `since`, at most `limit` in `seq` order."""
    params = {"after": after, "entities": entities, "since": since}
    rows = await reader.rows(q.CHANGE_PAGE, {**params, "limit": limit + 1}, "reading the change log")
    counted = await reader.one(q.CHANGE_COUNT, params, "counting the change log") or {}
    changes = [_native(r["change"]) for r in rows]
    return ChangePage(changes[:limit], int(counted.get("total") or 0), len(changes) > limit)


async def newest_changes(reader: GraphReader, limit: int) -> list[Row]:
    """The `limit` newest changes, newest first."""
    rows = await reader.rows(q.NEWEST_CHANGES, {"limit": limit}, "reading the newest changes")
    return [_native(r["change"]) for r in rows]


async def deletion_of(reader: GraphReader, ids: list[str], source_ids: list[str]) -> Row | None:
    """The newest logged deletion of a node known by any of internal `ids` or `source_ids`; None if none."""
    if not ids and not source_ids:
        return None
    row = await reader.one(q.DELETION_OF, {"ids": ids, "source_ids": source_ids}, "looking for a deletion")
    return _native(row) if row else None
