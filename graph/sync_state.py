"""Where each source's sync stands (its `SyncState` node) and the change log, read for `weft status` and the API."""

from __future__ import annotations

from typing import Any

import orjson
from neo4j import Driver

from weft.graph.driver import translated_errors
from weft.queries import sync as q


def sync_state(driver: Driver, database: str, source: str) -> dict[str, Any]:
    """The source's stored sync state (`watermark`, `merged_<entity>`, `last_sync_at`, `last_summary`,
    `pending_*`); empty when it never synced."""
    with translated_errors("reading the sync state"):
        records, _, _ = driver.execute_query(q.READ_STATE, source=source, database_=database, routing_="r")
    return dict(records[0]["state"]) if records else {}


def sync_states(driver: Driver, database: str) -> list[dict[str, Any]]:
    """Every source's stored sync state, by source; `last_summary` decoded."""
    with translated_errors("reading the sync states"):
        records, _, _ = driver.execute_query(q.READ_STATES, database_=database, routing_="r")
    states = [dict(r["state"]) for r in records]
    for state in states:
        if isinstance(state.get("last_summary"), str):
            state["last_summary"] = orjson.loads(state["last_summary"])
    return states


def changes(
    driver: Driver,
    database: str,
    *,
    after: int = 0,
    first: int = 100,
    entity: str | None = None,
    since: str | None = None,
) -> list[dict[str, Any]]:
    """Logged changes after change number `after` (and at or after ISO time `since`), of `entity` (`works`,
    `authors`, `institutions`; None: all), oldest first, at most `first`: the page a Relay connection serves."""
    with translated_errors("reading the change log"):
        records, _, _ = driver.execute_query(
            q.READ_CHANGES, after=after, first=first, entity=entity, since=since, database_=database, routing_="r"
        )
    return [dict(r["change"]) for r in records]
