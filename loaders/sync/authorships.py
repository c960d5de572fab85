"""What a batch of updated works changes in authorship, noted on the source's SyncState before it is written.

A sync replaces a work's record; of its derived data only what hangs on its authorships needs more than the
paper itself: the co-author pairs, affiliations, network ties and identity evidence of its authors. So before
each batch is written, the state of each work it replaces is noted (`pending_before`: its year, its authors with
the institutions each states, its categories and the papers it cites, as the graph holds them); when the unit's
records are written, loaders/derived.paper_changes compares that with what the graph holds then, and only the
pairs, affiliations, ties and identity links the difference reaches are recomputed. A work whose authorships are
the same (a new title, new references) costs its paper's own derived data only. A work the graph lacks is
*reauthored* (`pending_reauthored`): new now, its pairs are added when it is created, and a rerun after a kill
finds it and recounts them. Noted before the write, and a work's first note wins, so a sync killed after it and
run again compares the state before any write with the state after.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson
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
    """Note the batch's works the graph lacks and the state of those it replaces on the source's pending unit
    (module docstring)."""
    new = dict(sig for rows in batch if (sig := record_signature(rows)) is not None)
    if not new:
        return
    with translated_errors("reading the authorships a sync replaces"):
        held, _, _ = driver.execute_query(
            q.AUTHORSHIPS_HELD, ids=sorted(new), source=source, database_=database, routing_="r"
        )
        rows = [r.data() for r in held]
        _, reauthored = compare(new, rows)
        reauthored &= {pid for oid, (pid, _) in new.items() if oid not in {row["oid"] for row in rows}}
        driver.execute_query(
            q.NOTE_REAUTHORED,
            source=source,
            papers=sorted(reauthored),
            before=[before_note(row) for row in rows],
            database_=database,
        )


def before_note(row: dict[str, Any]) -> str:
    """The note of a work's state before a sync replaces it (AUTHORSHIPS_HELD's row), keyed by its OpenAlex id."""
    return state_note({**row, "id": row["paper"]}, "oid")


def state_note(row: dict[str, Any], by: str) -> str:
    """The note of a paper's state (queries/sync.py _PAPER_STATE's columns) before a sync changes it: JSON keyed
    by `by` ('oid': the OpenAlex id, for a work replaced by its record; 'id': the internal id), the columns
    loaders/derived.paper_changes compares.

    >>> state_note({"oid": "W1", "id": "p1", "year": 2020, "authors": [["r1", ["i1"], "A B"]], "categories": [],
    ...             "cited": ["p2"]}, "oid")
    '{"key":"oid:W1","id":"p1","year":2020,"authors":[["r1",["i1"],"A B"]],"categories":[],"cited":["p2"]}'
    """
    state = {"key": f"{by}:{row[by]}", "id": row["id"], "year": row["year"], "authors": row["authors"]}
    return orjson.dumps(state | {"categories": row["categories"], "cited": row["cited"]}).decode()
