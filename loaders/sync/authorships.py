"""What a batch of updated works changes in authorship, noted on the source's SyncState before it is written.

A sync replaces a work's record; of its derived data only what hangs on its authorships needs more than the
paper itself: the co-author pairs, affiliations and network ties of its authors. So before each batch is
written, its works' authorships as the graph holds them (the edges this source states) are compared with what
the records say: an author the record no longer names is *lost* (every pair and affiliation of it is rebuilt:
`pending_moved`), and a work whose set of (author, institutions) differs is *reauthored* (its pairs are
recounted: `pending_reauthored`). A work whose authorships are the same (a new title, new references) costs
its paper's own derived data only. Noted before the write, so a sync killed after it and run again still
recomputes them (the rerun's comparison finds nothing left to change).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from neo4j import Driver

from weft.graph.driver import translated_errors
from weft.graph.identity.ids import internal_id, node_id
from weft.loaders.rows import RecordRows
from weft.queries import sync as q

Signature = frozenset[tuple[str, frozenset[str]]]


def record_signature(rows: RecordRows) -> tuple[str, tuple[str, Signature]] | None:
    """(the work's OpenAlex id, (the paper's internal id as the record keys it, its authorships as {(author
    OpenAlex id, institution ids)})) of a work record's rows; None for a record that is no work with an OpenAlex
    id. An author without an OpenAlex id is ''."""
    if not rows.nodes or rows.nodes[0].label != "Paper":
        return None
    oid = rows.nodes[0].keys.get("openalex_id")
    if not isinstance(oid, str):
        return None
    authors = {n.key: n.keys.get("openalex_id") or "" for n in rows.nodes if n.label == "Researcher"}
    signature = frozenset(
        (
            str(authors.get(rel.start, "")),
            frozenset(internal_id("Institution", k) for k in rel.props.get("institution_keys") or ()),
        )
        for rel in rows.rels
        if rel.type == "AUTHORED"
    )
    return oid, (node_id("Paper", rows.nodes[0].keys), signature)


def compare(new: dict[str, tuple[str, Signature]], held: Iterable[dict[str, Any]]) -> tuple[set[str], set[str]]:
    """(lost researchers, reauthored papers), internal ids, from the records' signatures and the graph's
    rows {paper, oid, authorships: [{id, oid, institutions}]} (pure). A work the graph lacks is reauthored:
    new now, its pairs are added when it is created, but a rerun after a kill finds it and must recount them.

    >>> sig = frozenset({("A1", frozenset({"i1"})), ("A2", frozenset())})
    >>> held = [{"paper": "p1", "oid": "W1", "authorships": [
    ...     {"id": "r1", "oid": "A1", "institutions": ["i1"]}, {"id": "r3", "oid": "A3", "institutions": []}]}]
    >>> compare({"W1": ("p1", sig)}, held)
    ({'r3'}, {'p1'})
    >>> compare({"W1": ("p1", sig), "W2": ("p2", sig)}, [{"paper": "p1", "oid": "W1", "authorships": [
    ...     {"id": "r2", "oid": "A2", "institutions": []}, {"id": "r1", "oid": "A1", "institutions": ["i1"]}]}])
    (set(), {'p2'})
    """
    lost: set[str] = set()
    reauthored: set[str] = set()
    held = list(held)
    found = {row["oid"] for row in held}
    reauthored |= {pid for oid, (pid, _) in new.items() if oid not in found}
    for row in held:
        wanted: Signature = new[row["oid"]][1] if row["oid"] in new else frozenset[tuple[str, frozenset[str]]]()
        names = {author for author, _ in wanted}
        had = frozenset((a["oid"] or "", frozenset(a["institutions"] or ())) for a in row["authorships"])
        lost |= {a["id"] for a in row["authorships"] if not a["oid"] or a["oid"] not in names}
        if had != wanted:
            reauthored.add(row["paper"])
    return lost, reauthored


def note_batch(driver: Driver, database: str, source: str, batch: list[RecordRows]) -> None:
    """Note the batch's lost authors and reauthored works on the source's pending unit (module docstring)."""
    new = dict(sig for rows in batch if (sig := record_signature(rows)) is not None)
    if not new:
        return
    with translated_errors("reading the authorships a sync replaces"):
        held, _, _ = driver.execute_query(
            q.AUTHORSHIPS_HELD, ids=sorted(new), source=source, database_=database, routing_="r"
        )
        lost, reauthored = compare(new, [r.data() for r in held])
        if lost or reauthored:
            driver.execute_query(
                q.NOTE_REAUTHORED, source=source, moved=sorted(lost), papers=sorted(reauthored), database_=database
            )
