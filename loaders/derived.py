"""Recomputing what a load derives, for the nodes it touched: claims of id-less author slots, CITES,
STATES_AFFILIATION, AFFILIATED_WITH, COAUTHORED_WITH, SAME_NAME_AS, and the data_version bump.

Everything is recomputed from what is in the graph (never incremented), in chunks of DERIVE_CHUNK
ids, each its own write transaction, so rerunning after an interruption converges. The pair edges
follow PairLimits (graph/MODEL.md "Pair edges"), so their number grows linearly with the graph and a
load's work with what it touched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, LiteralString

from neo4j import Driver, ManagedTransaction, Session

from weft.graph.driver import translated_errors
from weft.graph.identity.names import names_compatible
from weft.graph.settings import Settings
from weft.graph.sources import SOURCE_PRIORITY
from weft.graph.versions import bump_data_version
from weft.loaders.claims import plan_claims
from weft.queries import derive, load_claims

DERIVE_CHUNK = 500
SAME_NAME_BUCKET_LIMIT = Settings.same_name_max_bucket
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class PairLimits:
    """What keeps pair edges linear (graph/MODEL.md "Pair edges"): a paper with more than
    `max_authors` authors makes no COAUTHORED_WITH pairs; a same-name bucket of more than
    `same_name_bucket` people gets no SAME_NAME_AS."""

    max_authors: int = Settings.pair_edge_max_authors
    same_name_bucket: int = Settings.same_name_max_bucket

    @classmethod
    def of(cls, settings: Settings) -> PairLimits:
        return cls(settings.pair_edge_max_authors, settings.same_name_max_bucket)


DEFAULT_LIMITS = PairLimits()


def recompute(
    driver: Driver,
    database: str,
    papers: set[str],
    researchers: set[str],
    progress: Progress | None = None,
    limits: PairLimits = DEFAULT_LIMITS,
) -> int:
    """Claims, then CITES, STATES_AFFILIATION, AFFILIATED_WITH, COAUTHORED_WITH and SAME_NAME_AS for the touched ids;
    returns the bumped data_version. `progress(step, done, total)` hears each chunk done.

    Co-author pairs are recomputed also for every author of a touched paper (its author count may
    have crossed `limits.max_authors`)."""
    researchers = set(researchers)
    with translated_errors("claiming id-less authors"), driver.session(database=database) as session:
        researchers |= _claim(session, sorted(papers), progress)
    paper_ids, researcher_ids = sorted(papers), sorted(researchers)
    with translated_errors("recomputing derived relationships"), driver.session(database=database) as session:
        for done, chunk in _chunks(paper_ids):
            session.execute_write(_run_all, _CITES, chunk)
            _report(progress, "citations", done, len(paper_ids))
        for done, chunk in _chunks(paper_ids):
            session.execute_write(_run_all, _STATED, chunk)
            _report(progress, "stated affiliations", done, len(paper_ids))
        for done, chunk in _chunks(researcher_ids):
            session.execute_write(_run_all, _AFFILIATED, chunk)
            _report(progress, "affiliations", done, len(researcher_ids))
        _coauthors(session, _with_authors(session, paper_ids, researchers), limits.max_authors, progress)
        _same_names(session, researcher_ids, limits.same_name_bucket, progress)
    return bump_data_version(driver, database)


_CITES = (derive.CLEAR_CITES_OUT, derive.BUILD_CITES_OUT, derive.BUILD_CITES_IN)
_STATED = (derive.CLEAR_STATED, derive.BUILD_STATED)


def restate(tx: ManagedTransaction, paper_ids: list[str]) -> None:
    """Rebuild the STATES_AFFILIATION edges of `paper_ids` within `tx` (after their institution ids changed)."""
    _run_all(tx, _STATED, paper_ids)


_AFFILIATED = (derive.CLEAR_AFFILIATED, derive.BUILD_AFFILIATED)


def _chunks(ids: list[str]) -> Iterator[tuple[int, list[str]]]:
    """(ids done once this chunk is, chunk) for chunks of DERIVE_CHUNK ids."""
    for start in range(0, len(ids), DERIVE_CHUNK):
        chunk = ids[start : start + DERIVE_CHUNK]
        yield start + len(chunk), chunk


def _report(progress: Progress | None, step: str, done: int, total: int) -> None:
    if progress is not None:
        progress(step, done, total)


def _claim(session: Session, papers: list[str], progress: Progress | None) -> set[str]:
    """Apply the id-less author claiming rule (loaders/claims.py); returns the researchers it moved edges of."""
    touched: set[str] = set()
    for done, chunk in _chunks(papers):
        for move in session.execute_write(_claim_tx, chunk):
            touched |= {move["from"], move["to"]}
        _report(progress, "claims", done, len(papers))
    return touched


def _with_authors(session: Session, papers: list[str], researchers: set[str]) -> list[str]:
    """The touched researchers and every author of a touched paper, sorted."""
    found = set(researchers)
    for _, chunk in _chunks(papers):
        found.update(session.execute_read(_column, derive.PAPER_AUTHORS, "id", chunk))
    return sorted(found)


def _coauthors(session: Session, ids: list[str], max_authors: int, progress: Progress | None) -> None:
    finished: set[str] = set()  # researchers of the chunks done: their pairs are computed
    for done, chunk in _chunks(ids):
        session.execute_write(_coauthors_tx, chunk, finished, max_authors)
        finished.update(chunk)
        _report(progress, "co-authorships", done, len(ids))


def _coauthors_tx(
    tx: ManagedTransaction, ids: list[str], finished: set[str], max_authors: int = Settings.pair_edge_max_authors
) -> None:
    """COAUTHORED_WITH of one chunk of researchers. A pair of two touched researchers is computed
    once: within the chunk from its smaller id (BUILD_COAUTHORED), across chunks by the chunk that
    came first, so co-authors in `finished` (earlier chunks) are skipped."""
    partners = [rec["partner"] for rec in tx.run(derive.CLEAR_COAUTHORED, ids=ids, max_authors=max_authors)]
    done = [partner for partner in partners if partner in finished]
    tx.run(derive.BUILD_COAUTHORED, ids=ids, done=done, max_authors=max_authors).consume()


def _same_names(session: Session, touched: list[str], cap: int, progress: Progress | None) -> None:
    """Recompute SAME_NAME_AS in every same-name bucket a touched researcher is in: the pairs with a
    touched researcher, any missing pair of the others, and nothing in a bucket over `cap` people.
    Each bucket is read up to cap + 1 people, so the work is linear in what the load touched."""
    keys: set[str] = set()
    for _, chunk in _chunks(touched):
        session.execute_write(_run_all, (derive.CLEAR_SAME_NAME,), chunk)  # a changed name leaves its bucket
        keys |= set(session.execute_read(_column, derive.TOUCHED_NAME_KEYS, "name_key", chunk))
    ordered = sorted(keys)
    for done, chunk in _chunks(ordered):
        members = session.execute_read(_records, derive.NAME_BUCKETS, keys=chunk, cap=cap)
        crowded = crowded_buckets(members, cap)
        ids = sorted({m["id"] for m in members if m["name_key"] not in crowded})
        linked = {(r["a"], r["b"]) for r in session.execute_read(_records, derive.SAME_NAME_LINKS, ids=ids)}
        pairs = [p for p in same_name_pairs(members, cap) if (p["a"], p["b"]) not in linked]
        session.execute_write(_same_name_tx, sorted(crowded), pairs)
        _report(progress, "same-name candidates", done, len(ordered))


def crowded_buckets(members: list[dict[str, Any]], bucket_limit: int = SAME_NAME_BUCKET_LIMIT) -> set[str]:
    """The name keys with more than `bucket_limit` people among `members` (never linked)."""
    sizes: dict[str, int] = {}
    for m in members:
        if m["is_person"] and m["name"]:
            sizes[m["name_key"]] = sizes.get(m["name_key"], 0) + 1
    return {key for key, size in sizes.items() if size > bucket_limit}


def same_name_pairs(members: list[dict[str, Any]], bucket_limit: int = SAME_NAME_BUCKET_LIMIT) -> list[dict[str, str]]:
    """Pairs {a, b} (a < b) of people in one name_key bucket whose names are compatible.

    Non-person records (`is_person` false) are never candidates; a bucket larger than
    `bucket_limit` ("Wang Y" in a full dump) is skipped rather than linked all-to-all, so each
    person has fewer than `bucket_limit` links and the links grow linearly with the researchers.
    """
    buckets: dict[str, list[dict[str, Any]]] = {}
    for m in members:
        if m["is_person"] and m["name"]:
            buckets.setdefault(m["name_key"], []).append(m)
    pairs: list[dict[str, str]] = []
    for people in buckets.values():
        if len(people) > bucket_limit:
            continue
        people.sort(key=lambda m: m["id"])
        for i, a in enumerate(people):
            for b in people[i + 1 :]:
                if names_compatible(a["name"], b["name"]):
                    pairs.append({"a": a["id"], "b": b["id"]})
    return pairs


def _column(tx: ManagedTransaction, query: LiteralString, column: str, ids: list[str]) -> list[Any]:
    return [rec[column] for rec in tx.run(query, ids=ids)]


def _records(tx: ManagedTransaction, query: LiteralString, **params: Any) -> list[dict[str, Any]]:
    return [rec.data() for rec in tx.run(query, **params)]


def _same_name_tx(tx: ManagedTransaction, crowded: list[str], pairs: list[dict[str, str]]) -> None:
    if crowded:
        tx.run(derive.CLEAR_SAME_NAME_BUCKETS, keys=crowded).consume()
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


def _run_all(tx: ManagedTransaction, statements: Iterable[LiteralString], ids: list[str]) -> None:
    for statement in statements:
        tx.run(statement, ids=ids).consume()
