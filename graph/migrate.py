"""Creating constraints and indexes, emptying the database, counting what is there."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from neo4j import Driver, ManagedTransaction

from weft.graph.driver import translated_errors
from weft.graph.settings import Settings
from weft.graph.versions import bump_data_version
from weft.queries import admin, derive


def _silent(_: str) -> None:
    """An `echo` that says nothing."""


# The round of backfills below: the Meta node keeps the round a graph has had, so loads skip them once it
# has. Raise it when a backfill is added or changed, so that every graph runs them once more.
BACKFILLS = 3


def migrate(
    driver: Driver,
    database: str,
    echo: Callable[[str], object] = _silent,
    *,
    recheck: bool = True,
    top_ties: int = Settings.network_top_ties,
) -> int:
    """Create every constraint and index and backfill papers' sort keys and category ids, the IN_CATEGORY
    edges' keys, the COAUTHORED_WITH pair keys and the TOP_TIE edges of `top_ties`, and remove the counts
    SAME_NAME_AS links held before their evidence was counted when read (idempotent); returns
    how many constraint and index statements ran. `echo` hears each step as it ends, with its time:
    minutes on a large graph just imported.

    With `recheck=False` (every load, and `weft import`) the backfills run only on a graph that has not had
    this round of them with these `top_ties` (the Meta node says which it had; `weft build` writes both):
    every writer keeps what they set, and checking reads every paper and category edge (12 s at a million
    works on each load; 40 s after an import)."""
    # Plain indexes first: each is populated in the background while the constraints, which each wait for
    # their own index, are created one by one (a million works: 43 s instead of 54, bench/RESULTS.md).
    statements = (*admin.INDEXES, *admin.CONSTRAINTS)
    began = time.monotonic()
    with translated_errors("migrating the schema"):
        for statement in statements:
            driver.execute_query(statement, database_=database)
        driver.execute_query(admin.AWAIT_INDEXES, database_=database)
    echo(f"{len(statements)} constraints and indexes online ({time.monotonic() - began:.1f}s)")
    if not recheck:
        with translated_errors("reading which backfills ran"):
            records, _, _ = driver.execute_query(admin.BACKFILLED, database_=database)
        if records[0]["backfilled"] >= BACKFILLS and records[0]["top_ties"] == top_ties:
            echo(f"backfills: round {BACKFILLS} with {top_ties} top ties ran or was built before, not checked again")
            _pair_constraint(driver, database, echo)
            return len(statements)
    steps = (
        ("papers' sort keys", backfill_sort_keys),
        ("papers' category ids", backfill_category_ids),
        ("category edges' keys", backfill_in_category_keys),
        ("co-author pair keys", backfill_coauthored_pairs),
        ("same-name links' stored counts", backfill_same_name_properties),
    )
    for what, backfill in steps:
        began = time.monotonic()
        written = backfill(driver, database)
        noun = "property" if written == 1 else "properties"
        echo(f"{what}: {written:,} {noun} backfilled ({time.monotonic() - began:.1f}s)")
    began = time.monotonic()
    refreshed = backfill_top_ties(driver, database, top_ties)
    if refreshed:  # networks changed: servers drop their cached ones
        bump_data_version(driver, database)
    noun = "researcher" if refreshed == 1 else "researchers"
    echo(f"heaviest ties (TOP_TIE): {refreshed:,} {noun} refreshed ({time.monotonic() - began:.1f}s)")
    with translated_errors("noting the backfills"):
        driver.execute_query(admin.MARK_BACKFILLED, round=BACKFILLS, k=top_ties, database_=database)
    return len(statements)


def _pair_constraint(driver: Driver, database: str, echo: Callable[[str], object]) -> None:
    """The pair keys' constraint, which their backfill creates last, on a graph whose backfills are not
    checked: a store just imported has every key and no constraint yet, and without its index each pair
    seek of a load (TOP_TIE) scans every tie."""
    with translated_errors("checking the co-author pair constraint"):
        records, _, _ = driver.execute_query(admin.COAUTHORED_PAIR_CONSTRAINED, database_=database)
    if not records[0]["present"]:
        began = time.monotonic()
        written = backfill_coauthored_pairs(driver, database)
        noun = "property" if written == 1 else "properties"
        echo(
            f"co-author pair keys: {written:,} {noun} backfilled, constraint created ({time.monotonic() - began:.1f}s)"
        )


def backfill_sort_keys(driver: Driver, database: str) -> int:
    """Set `sort_cited`/`sort_date` on papers lacking them or holding stale values (a database loaded
    before they existed, or a bulk import), and their IN_CATEGORY edges' copies; returns how many
    properties were written."""
    with translated_errors("backfilling sort keys"), driver.session(database=database) as session:
        summary = session.run(admin.BACKFILL_SORT_KEYS).consume()
    return summary.counters.properties_set


def backfill_same_name_properties(driver: Driver, database: str) -> int:
    """Remove the counts SAME_NAME_AS links held before their evidence was counted when read (a database
    loaded before); returns how many properties were removed."""
    with translated_errors("removing same-name links' stored counts"), driver.session(database=database) as session:
        summary = session.run(admin.BACKFILL_SAME_NAME_PROPERTIES).consume()
    return summary.counters.properties_set


def backfill_category_ids(driver: Driver, database: str) -> int:
    """Set `category_ids` on papers in a category lacking it (a database loaded before it existed);
    returns how many properties were written."""
    with translated_errors("backfilling category ids"), driver.session(database=database) as session:
        summary = session.run(admin.BACKFILL_CATEGORY_IDS).consume()
    return summary.counters.properties_set


def backfill_in_category_keys(driver: Driver, database: str) -> int:
    """Set the keys of IN_CATEGORY edges lacking them (a database loaded before they existed): the pass
    over every edge runs only when some edge is missing from their index; returns how many properties
    were written."""
    with translated_errors("backfilling category edge keys"):
        records, _, _ = driver.execute_query(admin.IN_CATEGORY_KEYS_COVERAGE, database_=database)
        if records[0]["keyed"] == records[0]["edges"]:
            return 0
        with driver.session(database=database) as session:
            summary = session.run(admin.BACKFILL_IN_CATEGORY_KEYS).consume()
    return summary.counters.properties_set


def backfill_coauthored_pairs(driver: Driver, database: str) -> int:
    """Set `pair` on COAUTHORED_WITH edges lacking it (a database loaded before edges had it), then create
    the `coauthored_pair` constraint; returns how many properties were written. Nothing is read once the
    constraint exists (every writer keys its edges); before that, the pass over every researcher runs
    only when some edge lacks its key (a fresh `weft import` has them all), and an interrupted pass is
    resumed by the next migration."""
    with translated_errors("backfilling co-author pair keys"):
        records, _, _ = driver.execute_query(admin.COAUTHORED_PAIR_CONSTRAINED, database_=database)
        if records[0]["present"]:
            return 0
        records, _, _ = driver.execute_query(admin.COAUTHORED_PAIR_COVERAGE, database_=database)
        written = 0
        if records[0]["keyed"] != records[0]["edges"]:
            with driver.session(database=database) as session:
                written = session.run(admin.BACKFILL_COAUTHORED_PAIRS).consume().counters.properties_set
        driver.execute_query(admin.COAUTHORED_PAIR_CONSTRAINT, database_=database)
        driver.execute_query(admin.AWAIT_INDEXES, database_=database)
    return written


def backfill_top_ties(driver: Driver, database: str, top_ties: int) -> int:
    """Give every researcher with more than `top_ties` co-authors exactly that many TOP_TIE edges and
    the others none (graph/MODEL.md "Network backbone": a store loaded before they existed, or
    `network_top_ties` changed), read from all their ties; returns how many researchers were refreshed.
    A researcher already holding the right number is not read again."""
    with translated_errors("backfilling the heaviest ties"):
        records, _, _ = driver.execute_query(admin.TOP_TIES_MISCOUNTED, k=top_ties, database_=database)
        ids = [record["id"] for record in records]
        with driver.session(database=database) as session:
            for start in range(0, len(ids), _TOP_TIES_CHUNK):
                rows = [{"id": rid, "partners": None} for rid in ids[start : start + _TOP_TIES_CHUNK]]
                session.execute_write(_refresh_top_ties, rows, top_ties)
    return len(ids)


_TOP_TIES_CHUNK = 500


def _refresh_top_ties(tx: ManagedTransaction, rows: list[dict[str, Any]], top_ties: int) -> None:
    tx.run(derive.REFRESH_TOP_TIES, rows=rows, k=top_ties).consume()


def reset(driver: Driver, database: str) -> None:
    """Delete every node and relationship; constraints and indexes stay. Relationships go first, so each
    transaction deletes a bounded number of them (DETACH DELETE of a category takes all its edges at once)."""
    with translated_errors("emptying the database"), driver.session(database=database) as session:
        session.run(admin.DELETE_ALL_RELATIONSHIPS).consume()
        session.run(admin.DELETE_ALL_NODES).consume()


def counts(driver: Driver, database: str) -> dict[str, int]:
    """`{'Paper': n, ..., 'AUTHORED': m, ...}` for every label and relationship type present."""
    with translated_errors("counting the graph"):
        records, _, _ = driver.execute_query(admin.COUNTS, database_=database, routing_="r")
    return {r["name"]: r["count"] for r in records}
