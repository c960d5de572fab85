"""Evidence-based identity links between researcher records: score the same-name candidates of the touched
researchers and store each as a SAME_PERSON link (at or above the threshold) or a MAYBE_SAME_PERSON candidate,
with its evidence and score (graph/MODEL.md "Identity links"); `unlink` undoes one by hand for good.

The work is linear in the touched researchers: their candidates are their SAME_NAME_AS links (bounded
buckets), and each record's profile is read once per chunk whatever its number of candidates.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, LiteralString

from neo4j import Driver, ManagedTransaction, Session

from weft.graph.driver import translated_errors
from weft.graph.errors import NotFound
from weft.graph.identity.link_model import MAYBE_FLOOR, MODEL, VERSION
from weft.graph.identity.linking import LinkModel, Profile, accepted_links, describe, evidence
from weft.graph.settings import Settings
from weft.graph.versions import execute_marked
from weft.queries import identity_links as q

CHUNK = 500
PROFILE_CAP = 500  # items per profile list: a prolific record's 501st paper adds little evidence
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class ScoredPair:
    """One candidate pair (a < b) with its evidence counts and score."""

    a: str
    b: str
    found: dict[str, int]
    score: float


def _chunks(items: list[str], size: int = CHUNK) -> Iterator[tuple[int, list[str]]]:
    for start in range(0, len(items), size):
        yield min(start + size, len(items)), items[start : start + size]


def _rows(tx: ManagedTransaction, query: LiteralString, **params: Any) -> list[dict[str, Any]]:
    return [record.data() for record in tx.run(query, params)]


def _write(tx: ManagedTransaction, query: LiteralString, **params: Any) -> None:
    tx.run(query, params).consume()


def score_candidates(
    session: Session,
    ids: list[str],
    model: LinkModel = MODEL,
    max_authors: int = Settings.pair_edge_max_authors,
    profiles: dict[str, Profile] | None = None,
) -> list[ScoredPair]:
    """The scored candidate pairs of `ids` (one chunk), each pair once; `profiles`, when given, receives the
    profiles read."""
    pairs = session.execute_read(_rows, q.CANDIDATES, ids=ids)
    ends = sorted({p["a"] for p in pairs} | {p["b"] for p in pairs})
    profiles = {} if profiles is None else profiles
    for _, chunk in _chunks(ends):
        for row in session.execute_read(_rows, q.PROFILES, ids=chunk, cap=PROFILE_CAP, max_authors=max_authors):
            profiles[row["id"]] = Profile.of(row)
    scored: list[ScoredPair] = []
    for pair in pairs:
        a, b = profiles.get(pair["a"]), profiles.get(pair["b"])
        if a is None or b is None:
            continue
        found = evidence(a, b)
        scored.append(ScoredPair(a.id, b.id, found, model.score(found)))
    return scored


def relink(
    driver: Driver,
    database: str,
    ids: list[str],
    *,
    model: LinkModel = MODEL,
    version: str = VERSION,
    max_authors: int = Settings.pair_edge_max_authors,
    same_name_bucket: int = Settings.same_name_max_bucket,
    progress: Progress | None = None,
) -> int:
    """Recompute the links and candidates of the same-name buckets of `ids` (a bucket's links are decided
    together, linking.accepted_links; only those that differ from the ones held are deleted and written); returns
    the links decided. Each chunk is one
    write transaction under the caller's writer lock (graph/versions.execute_marked)."""
    linked = 0
    with translated_errors("linking researcher records"), driver.session(database=database) as session:
        keys: set[str] = set()
        for _, chunk in _chunks(sorted(set(ids))):
            keys |= {r["name_key"] for r in session.execute_read(_rows, q.NAME_KEYS, ids=chunk)}
        ordered = sorted(keys)  # each bucket once, however many of its people were touched
        for done, chunk in _chunks(ordered):
            members = sorted(
                r["id"] for r in session.execute_read(_rows, q.BUCKET_MEMBERS, keys=chunk, cap=same_name_bucket)
            )
            profiles: dict[str, Profile] = {}
            scored = score_candidates(session, members, model, max_authors, profiles)
            records = {p.id: {"name": p.name, "papers": p.papers} for p in profiles.values()}
            kept = accepted_links([(s.a, s.b, s.score) for s in scored], records, model.threshold)
            links = [_row(s) for s in scored if (s.a, s.b) in kept]
            maybe = [_row(s) for s in scored if (s.a, s.b) not in kept and s.score >= MAYBE_FLOOR]
            execute_marked(session, _store, members, links, maybe, version)
            linked += len(links)
            if progress is not None:
                progress("identity links", done, len(ordered))
    return linked


def _row(pair: ScoredPair) -> dict[str, Any]:
    return {"a": pair.a, "b": pair.b, "score": round(pair.score, 4), "evidence": describe(pair.found)}


def _store(
    tx: ManagedTransaction, ids: list[str], links: list[dict[str, Any]], maybe: list[dict[str, Any]], version: str
) -> None:
    """Make the links and candidates of `ids` the decided ones, writing only what differs from those held (a
    bucket whose evidence is as it was keeps its edges untouched)."""
    held = _rows(tx, q.LINKS_OF, ids=ids)
    wanted = {("SAME_PERSON", r["a"], r["b"]): r for r in links} | {
        ("MAYBE_SAME_PERSON", r["a"], r["b"]): r for r in maybe
    }
    kept: set[tuple[str, str, str]] = set()
    stale: list[str] = []
    for h in held:
        key = (h["type"], h["a"], h["b"])
        row = wanted.get(key)
        same = row is not None and (h["score"], h["evidence"], h["model"]) == (row["score"], row["evidence"], version)
        if same and key not in kept:
            kept.add(key)
        else:
            stale.append(h["rel"])
    if stale:
        _write(tx, q.DELETE_LINKS, rels=stale)
    _write(tx, q.WRITE_LINKS, rows=[r for r in links if ("SAME_PERSON", r["a"], r["b"]) not in kept], model=version)
    fresh = [r for r in maybe if ("MAYBE_SAME_PERSON", r["a"], r["b"]) not in kept]
    _write(tx, q.WRITE_MAYBE, rows=fresh, model=version)


def all_researcher_ids(driver: Driver, database: str, page: int = 10_000) -> list[str]:
    """Every researcher id with a name key, read in pages (for `weft identity link --all`)."""
    found: list[str] = []
    with translated_errors("listing researchers"), driver.session(database=database) as session:
        while True:
            rows = session.execute_read(_rows, q.RESEARCHER_IDS, after=found[-1] if found else "", limit=page)
            found += [r["id"] for r in rows]
            if len(rows) < page:
                return found


def unlink(driver: Driver, database: str, a: str, b: str) -> tuple[str, str]:
    """Undo the link (or candidate) between two researchers and keep them apart from then on; NotFound when
    either id names no researcher."""
    low, high = sorted((a, b))
    with translated_errors("unlinking researcher records"), driver.session(database=database) as session:
        rows = execute_marked(session, _rows, q.UNLINK, a=low, b=high)
    if not rows:
        raise NotFound(f"no researcher pair {low} {high}")
    return low, high


def links_of(driver: Driver, database: str, ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """{researcher id: its links and candidates, linked first then by score} for the API and pages."""
    found: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
    with translated_errors("reading identity links"), driver.session(database=database) as session:
        for row in session.execute_read(_rows, q.RESEARCHER_LINKS, ids=ids):
            found[row["id"]].append(row)
    return found
