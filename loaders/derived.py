"""Recomputing what a load derives, for the nodes it touched: claims of id-less author slots, CITES,
AFFILIATED_WITH, COAUTHORED_WITH, SAME_NAME_AS, and the data_version bump.

Everything is recomputed from what is in the graph (never incremented), in chunks of DERIVE_CHUNK
ids, each its own write transaction, so rerunning after an interruption converges.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from neo4j import Driver, ManagedTransaction, Session

from weft.graph.driver import translated_errors
from weft.graph.identity.names import names_compatible
from weft.graph.sources import SOURCE_PRIORITY
from weft.loaders.claims import plan_claims
from weft.queries import derive, load_claims

DERIVE_CHUNK = 500
SAME_NAME_BUCKET_LIMIT = 200
Progress = Callable[[str, int, int], None]


def recompute(
    driver: Driver, database: str, papers: set[str], researchers: set[str], progress: Progress | None = None
) -> int:
    """Claims, then CITES, AFFILIATED_WITH, COAUTHORED_WITH and SAME_NAME_AS for the touched ids;
    returns the bumped data_version."""
    researchers = set(researchers)
    with translated_errors("claiming id-less authors"), driver.session(database=database) as session:
        researchers |= _claim(session, sorted(papers), progress)
    steps = (
        ("citations", sorted(papers), (derive.CLEAR_CITES_OUT, derive.BUILD_CITES_OUT, derive.BUILD_CITES_IN)),
        ("affiliations", sorted(researchers), (derive.CLEAR_AFFILIATED, derive.BUILD_AFFILIATED)),
        ("co-authorships", sorted(researchers), (derive.CLEAR_COAUTHORED, derive.BUILD_COAUTHORED)),
    )
    with translated_errors("recomputing derived relationships"), driver.session(database=database) as session:
        for name, ids, statements in steps:
            for start in range(0, len(ids), DERIVE_CHUNK):
                session.execute_write(_run_all, statements, ids[start : start + DERIVE_CHUNK])
                if progress:
                    progress(name, min(start + DERIVE_CHUNK, len(ids)), len(ids))
        _same_names(session, sorted(researchers), progress)
        return session.execute_write(_bump)


def _claim(session: Session, papers: list[str], progress: Progress | None) -> set[str]:
    """Apply the id-less author claiming rule (loaders/claims.py); returns the researchers it moved edges of."""
    touched: set[str] = set()
    for start in range(0, len(papers), DERIVE_CHUNK):
        for move in session.execute_write(_claim_tx, papers[start : start + DERIVE_CHUNK]):
            touched |= {move["from"], move["to"]}
        if progress:
            progress("claims", min(start + DERIVE_CHUNK, len(papers)), len(papers))
    return touched


def _same_names(session: Session, touched: list[str], progress: Progress | None) -> None:
    """Recompute SAME_NAME_AS in every same-name bucket a touched researcher is in."""
    keys: set[str] = set()
    for start in range(0, len(touched), DERIVE_CHUNK):
        chunk = touched[start : start + DERIVE_CHUNK]
        session.execute_write(_run_all, (derive.CLEAR_SAME_NAME,), chunk)  # a changed name leaves its bucket
        keys |= set(session.execute_read(_column, derive.TOUCHED_NAME_KEYS, "name_key", chunk))
    ordered = sorted(keys)
    for start in range(0, len(ordered), DERIVE_CHUNK):
        members = session.execute_read(_records, derive.NAME_BUCKETS, keys=ordered[start : start + DERIVE_CHUNK])
        session.execute_write(_same_name_tx, sorted({m["id"] for m in members}), same_name_pairs(members))
        if progress:
            progress("same-name candidates", min(start + DERIVE_CHUNK, len(ordered)), len(ordered))


def same_name_pairs(members: list[dict[str, Any]], bucket_limit: int = SAME_NAME_BUCKET_LIMIT) -> list[dict[str, str]]:
    """Pairs {a, b} (a < b) of people in one name_key bucket whose names are compatible.

    Non-person records (`is_person` false) are never candidates; a bucket larger than
    `bucket_limit` ("Wang Y" in a full dump) is skipped rather than linked all-to-all.
    """
    buckets: dict[str, list[dict[str, Any]]] = {}
    for m in members:
        if m["is_person"] and m["name"]:
            buckets.setdefault(m["name_key"], []).append(m)
    pairs = []
    for people in buckets.values():
        if len(people) > bucket_limit:
            continue
        people.sort(key=lambda m: m["id"])
        for i, a in enumerate(people):
            for b in people[i + 1 :]:
                if names_compatible(a["name"], b["name"]):
                    pairs.append({"a": a["id"], "b": b["id"]})
    return pairs


def _column(tx: ManagedTransaction, query: str, column: str, ids: list[str]) -> list[Any]:
    return [rec[column] for rec in tx.run(query, ids=ids)]


def _records(tx: ManagedTransaction, query: str, **params: Any) -> list[dict[str, Any]]:
    return [rec.data() for rec in tx.run(query, **params)]


def _same_name_tx(tx: ManagedTransaction, ids: list[str], pairs: list[dict[str, str]]) -> None:
    tx.run(derive.CLEAR_SAME_NAME, ids=ids).consume()
    for start in range(0, len(pairs), 5000):
        tx.run(derive.BUILD_SAME_NAME, pairs=pairs[start : start + 5000]).consume()


def _claim_tx(tx: ManagedTransaction, papers: list[str]) -> list[dict[str, Any]]:
    slots = [rec.data() for rec in tx.run(load_claims.CLAIM_SLOTS, ids=papers)]
    moves = plan_claims(slots)
    onto: dict[tuple[str, str], set[str]] = {}
    for m in moves:
        onto.setdefault((m["paper"], m["to"]), set()).update(m["sources"])
    if moves:
        tx.run(
            load_claims.CLAIM_ONTO,
            sources=sorted(SOURCE_PRIORITY),
            moves=[{"paper": p, "to": t, "sources": sorted(v)} for (p, t), v in sorted(onto.items())],
        ).consume()
        tx.run(load_claims.CLAIM_FROM, moves=moves).consume()
    return moves


def _run_all(tx: ManagedTransaction, statements: Iterable[str], ids: list[str]) -> None:
    for statement in statements:
        tx.run(statement, ids=ids).consume()


def _bump(tx: ManagedTransaction) -> int:
    return tx.run(derive.BUMP_DATA_VERSION).single()["data_version"]
