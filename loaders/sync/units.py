"""What every source's sync shares: the report, a unit's pending notes, recompute, the log and the watermark.

A unit (an OpenAlex partition or merged_ids file, a Semantic Scholar diff step, an arXiv metadata file) is
applied as: `begin_unit` notes on the source's `SyncState` node what the unit will replace (so a killed sync
that is run again recomputes it too), the records are written through the load path, `finish` recomputes
derived data for what the writer and the notes touched, and `log_and_mark` logs the unit's changes and moves
the watermark in one transaction. A source is named by a `SyncSource`: its name and, per entity, the query
that finds the graph's nodes for the source's ids (queries/sync.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, LiteralString, cast

import orjson
from neo4j import Driver, ManagedTransaction

from weft.graph.driver import translated_errors
from weft.graph.versions import execute_marked, run_marked
from weft.loaders.derived import PairLimits, recompute
from weft.loaders.write import GraphWriter
from weft.queries import sync as q

Echo = Callable[[str], object]


@dataclass(frozen=True)
class SyncSource:
    """A source a sync follows: its name (the `SyncState` key) and, per entity it logs, the query taking
    `$ids` (the source's own ids) and returning `{oid, id}` for the nodes the graph holds."""

    name: str
    existing: Mapping[str, LiteralString]


@dataclass
class EntityCounts:
    """What a sync did (or, dry, would do) to one entity."""

    new: int = 0
    updated: int = 0
    merged: int = 0
    deleted: int = 0


@dataclass
class SyncReport:
    """What one `weft sync` run did: the watermark before and after, the units applied, counts per entity."""

    source: str
    dry_run: bool
    watermark_before: str | None
    watermark: str | None
    units: list[str] = field(default_factory=list[str])
    entities: dict[str, EntityCounts] = field(default_factory=dict[str, EntityCounts])
    notes: list[str] = field(default_factory=list[str])
    rejected: int = 0
    seconds: float = 0.0

    def counts(self, entity: str) -> EntityCounts:
        return self.entities.setdefault(entity, EntityCounts())

    def as_json(self) -> str:
        """The summary `weft status` shows (stored on the source's SyncState node)."""
        doc = {k: v for k, v in asdict(self).items() if k not in ("notes", "seconds")}
        return orjson.dumps(doc).decode()


def existing_ids(
    driver: Driver, database: str, source: SyncSource, ids: Mapping[str, Iterable[str]]
) -> dict[str, dict[str, str]]:
    """Per entity of the source, the given source ids already in the graph -> their internal ids."""
    found: dict[str, dict[str, str]] = {}
    with translated_errors("reading what the sync replaces"):
        for entity, query in source.existing.items():
            wanted = sorted(set(ids.get(entity, ())))
            records, _, _ = driver.execute_query(query, ids=wanted, database_=database, routing_="r")
            found[entity] = {r["oid"]: r["id"] for r in records}
    return found


def begin_unit(
    driver: Driver,
    database: str,
    source: SyncSource,
    unit: str,
    *,
    papers: Iterable[str] = (),
    researchers: Iterable[str] = (),
    moved: Iterable[str] = (),
    refs: Iterable[str] = (),
    categories: Iterable[str] = (),
    new: Iterable[str] = (),
    seen: Iterable[str] = (),
    reauthored: Iterable[str] | None = None,
    notes_before: bool = False,
) -> None:
    """Note the unit's pending work before its first write (`new`/`seen`: 'entity:source id' in order; a
    unit already pending from a killed run keeps its first classification and gains the rest). `reauthored`
    is [] for a source that notes reauthored works per batch (loaders/sync/authorships.py); None rebuilds every
    author of a replaced record whole. `notes_before`: the source notes each replaced work's state per batch
    too, and only what differs from it after the write is recomputed (derived.paper_changes)."""
    with translated_errors("noting the sync's unit"):
        driver.execute_query(
            q.BEGIN_UNIT,
            source=source.name,
            unit=unit,
            papers=list(papers),
            researchers=list(researchers),
            moved=list(moved),
            refs=list(refs),
            categories=list(categories),
            new=list(new),
            seen=list(seen),
            reauthored=None if reauthored is None else list(reauthored),
            before=[] if notes_before else None,
            database_=database,
        )


def finish(driver: Driver, database: str, source: SyncSource, writer: GraphWriter | None, limits: PairLimits) -> None:
    """Recompute derived data for what the writer and the pending notes touched; drop unreferenced Refs and
    categories nothing is in any more."""
    with translated_errors("reading the sync's pending work"):
        records, _, _ = driver.execute_query(q.READ_PENDING, source=source.name, database_=database)
    pend = records[0]
    papers, researchers, lost = set(pend["papers"]), set(pend["researchers"]), set(pend["moved"])
    moved = lost | researchers
    if writer is not None and writer.batches:
        writer.touched_papers |= papers
        writer.touched_researchers |= researchers
        if pend["reauthored"] is None:  # every author of a replaced record rebuilt whole
            writer.moved_researchers |= moved
            writer.reaffiliated |= researchers
        elif pend["before"] is None:  # only the authors records lost, and the pairs of works whose authorships changed
            writer.moved_researchers |= lost
            writer.reaffiliated |= lost
            writer.reauthored = set(pend["reauthored"])
        else:  # what differs from the replaced works' noted states; only merged or renamed researchers whole
            writer.before = first_notes(strings(pend["before"]))
            # released researchers the notes name are recounted from them (paper_changes); any other is rebuilt whole
            noted = {a[0] for state in writer.before.values() for a in state["authors"]}
            writer.moved_researchers = (writer.moved_researchers - (writer.released & noted)) | lost
            writer.reaffiliated = (writer.reaffiliated - (writer.released & noted)) | lost
            writer.reauthored = set(pend["reauthored"])
        writer.finish()
    elif (papers or researchers) and pend["before"] is None:
        recompute(driver, database, papers, researchers, None, limits, moved=moved, reaffiliated=researchers)
    elif papers or researchers:  # merges that noted the papers they change: what differs after
        before = first_notes(strings(pend["before"]))
        reauthored = set(pend["reauthored"] or ())
        recompute(
            driver,
            database,
            papers,
            researchers,
            None,
            limits,
            moved=lost,
            reaffiliated=lost,
            reauthored=reauthored,
            before=before,
        )
    with translated_errors("removing what nothing states any more"):
        if pend["refs"]:
            run_marked(driver, database, q.DELETE_ORPHAN_REFS, keys=pend["refs"])
        # a category's parent may lose its last child: again until none goes (4 levels: topic to domain)
        while pend["categories"]:
            deleted = run_marked(driver, database, q.DELETE_ORPHAN_CATEGORIES, ids=pend["categories"])
            if not deleted[0]["deleted"]:
                break


def first_notes(notes: list[str]) -> dict[str, dict[str, Any]]:
    """The noted states of replaced or merged papers by key ('oid:…' or 'id:…'), each paper's first note (made
    before any write of it).

    >>> first_notes(['{"key": "oid:W1", "year": 1}', '{"key": "oid:W1", "year": 2}'])
    {'oid:W1': {'key': 'oid:W1', 'year': 1}}
    """
    found: dict[str, dict[str, Any]] = {}
    for note in notes:
        state = orjson.loads(note)
        found.setdefault(state["key"], state)
    return found


def log_and_mark(driver: Driver, database: str, source: SyncSource, unit: str, mark: str, value: str) -> None:
    """One transaction: the unit's changes (from its pending notes) logged, the watermark moved, pending cleared."""
    with translated_errors("moving the sync watermark"), driver.session(database=database) as session:
        execute_marked(session, _log_and_mark_tx, source, unit, mark, value)


def _log_and_mark_tx(tx: ManagedTransaction, source: SyncSource, unit: str, mark: str, value: str) -> None:
    state = tx.run(q.READ_STATE, source=source.name).single()
    props: dict[str, Any] = dict(state["state"]) if state else {}
    changes: list[dict[str, Any]] = []
    if props.get("pending_unit") == unit:
        new = set(strings(props.get("pending_new")))
        noted = strings(props.get("pending_seen"))
        seen = [x for x in noted if not x.startswith("{")]
        by_entity: dict[str, list[str]] = {}
        for x in seen:
            entity, oid = x.split(":", 1)
            by_entity.setdefault(entity, []).append(oid)
        ids = {e: {r["oid"]: r["id"] for r in tx.run(source.existing[e], ids=oids)} for e, oids in by_entity.items()}
        for x in seen:
            entity, oid = x.split(":", 1)
            kind = "new" if x in new else "updated"
            changes.append(change(source, unit, entity, kind, oid, ids[entity].get(oid), None))
        for x in noted:
            if x.startswith("{"):
                doc = orjson.loads(x)
                changes.append(change(source, unit, doc["entity"], doc["kind"], doc["oid"], doc["id"], doc["into"]))
    logged = {r["key"] for r in tx.run(q.CHANGES_OF_KEYS, keys=[c["key"] for c in changes])}
    changes = [c for c in changes if c["key"] not in logged]
    last = tx.run(q.LAST_CHANGE_SEQ).single()
    base = int(last["seq"]) if last else 0
    for i, item in enumerate(changes, 1):
        item["seq"] = base + i
    tx.run(q.FINISH_UNIT, source=source.name, unit=unit, changes=changes, mark=mark, value=value).consume()


@dataclass(frozen=True)
class ChangeEntry:
    """A merge or deletion noted inside a unit's write transaction, logged when the unit ends."""

    entity: str
    kind: str
    oid: str
    id: str | None
    into: str | None


def note_changes(tx: ManagedTransaction, source: SyncSource, entries: list[ChangeEntry]) -> None:
    """Inside a unit's write transaction: merges or deletions to log when the unit ends (one list rewrite)."""
    docs = [orjson.dumps(asdict(e)).decode() for e in entries]
    tx.run(q.NOTE_CHANGES, source=source.name, entries=docs).consume()


def note_change(
    tx: ManagedTransaction, source: SyncSource, entity: str, kind: str, oid: str, nid: str | None, into: str | None
) -> None:
    """Inside a unit's write transaction: one merge or deletion to log when the unit ends."""
    note_changes(tx, source, [ChangeEntry(entity, kind, oid, nid, into)])


def record_summary(driver: Driver, database: str, report: SyncReport) -> None:
    """End of a sync run: what it did (`weft status`) and when."""
    with translated_errors("recording the sync"):
        driver.execute_query(q.RECORD_SUMMARY, source=report.source, summary=report.as_json(), database_=database)


def strings(value: object) -> list[str]:
    """A list property read back (None: empty)."""
    return [str(x) for x in cast(list[object], value)] if isinstance(value, list) else []


def change(
    source: SyncSource, unit: str, entity: str, kind: str, oid: str, nid: str | None, into: str | None
) -> dict[str, Any]:
    """A change-log entry; its key makes logging it again (a re-run unit) a no-op."""
    return {
        "key": f"{source.name} {unit} {entity} {oid}",
        "entity": entity,
        "kind": kind,
        "source_id": oid,
        "id": nid,
        "into": into,
    }
