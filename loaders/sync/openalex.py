"""`weft sync openalex LOCATION`: apply the snapshot's partitions newer than the graph's watermark, then its merges.

For each partition date past the watermark, oldest first (a unit): every synced entity's part files are read
once to check them (record counts against the manifest, a sample's shape) and to tell new ids from updated
ones; the manifests are read again (a changed one aborts before writing); what the records will replace is
noted on the source's `SyncState` node (`pending_*`); the records go through the load path (loaders/write.py:
a record replaces what OpenAlex said about its entity); derived data is recomputed for what they and the
pending notes touched; then one transaction logs the changes and moves the watermark. Then the merged_ids files
up to the new watermark, each a unit: every retired id becomes an alias of its survivor (queries/sync.py).
A sync killed anywhere is run again: the unreached units are applied, the unit in flight again (idempotent).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, LiteralString

from neo4j import Driver, ManagedTransaction

from weft.graph.driver import check_connectivity, translated_errors
from weft.graph.errors import InvalidInput
from weft.graph.identity.ids import KEY_PROPERTIES, normalize_openalex
from weft.graph.migrate import migrate
from weft.graph.settings import Settings
from weft.graph.sync_state import sync_state
from weft.graph.versions import execute_marked
from weft.loaders import openalex
from weft.loaders.derived import DEFAULT_LIMITS, PairLimits, restate
from weft.loaders.reader import Item, is_object, read_records
from weft.loaders.records import Rejected, record_rows
from weft.loaders.rows import RecordRows
from weft.loaders.storage import DataPath
from weft.loaders.sync.authorships import note_batch, state_note
from weft.loaders.sync.openalex_layout import (
    LABELS,
    Manifest,
    Merge,
    Partition,
    entities_present,
    merge_files,
    partitions,
    read_manifest,
    read_merges,
    snapshot_root,
)
from weft.loaders.sync.units import (
    ChangeEntry,
    Echo,
    SyncReport,
    SyncSource,
    begin_unit,
    existing_ids,
    finish,
    log_and_mark,
    note_changes,
    record_summary,
)
from weft.loaders.write import GraphWriter
from weft.queries import sync as q
from weft.queries.load_nodes import REWRITE_INSTITUTION_IDS

SOURCE = "openalex"
MERGE_CHUNK = 200  # merges per transaction (each its own statement, in order)
SAMPLE = 100  # records of each part file whose shape is checked: most refused means scrambled fields
_SOURCE = SyncSource(
    SOURCE,
    {"works": q.EXISTING_PAPERS, "authors": q.EXISTING_RESEARCHERS, "institutions": q.EXISTING_INSTITUTIONS},
)
_MERGE_AWAY: dict[str, LiteralString] = {
    "works": q.MERGE_AWAY_PAPER,
    "authors": q.MERGE_AWAY_RESEARCHER,
    "institutions": q.MERGE_AWAY_INSTITUTION,
}
# A label's hard keys other than OpenAlex's (graph/identity/ids.py), which move to a survivor when another
# source states the loser; a paper-scoped researcher's `scoped_key` is no source's id and stays.
_OTHER_KEYS = {
    entity: [prop for _, prop in KEY_PROPERTIES[label] if prop not in ("openalex_id", "scoped_key")]
    for entity, label in LABELS.items()
}


@dataclass
class _Unit:
    """One partition date's records across entities, as checked by the first read."""

    date: str
    parts: list[Partition]
    ids: dict[str, list[str]] = field(default_factory=dict[str, list[str]])  # entity -> short ids, in order
    rejected: int = 0


def sync_openalex(
    driver: Driver,
    location: str | DataPath,
    *,
    database: str = "neo4j",
    dry_run: bool = False,
    max_deletes: int | None = None,
    batch_size: int = Settings.load_batch_size,
    limits: PairLimits = DEFAULT_LIMITS,
    echo: Echo = lambda _: None,
) -> SyncReport:
    """Apply what the OpenAlex snapshot at `location` holds past the graph's watermark (module docstring).

    Raises InvalidInput (nothing of the unit at hand written) for a layout it cannot follow, a count that
    differs from the manifest, a manifest that changed while reading, more deletes than `max_deletes`, or a
    snapshot whose older partitions are gone (a source-wide id change: rebuild instead)."""
    started = time.perf_counter()
    root = snapshot_root(location)
    entities, skipped = entities_present(root)
    check_connectivity(driver)
    state = sync_state(driver, database, SOURCE)
    mark = state.get("watermark")
    report = SyncReport(SOURCE, dry_run, mark, mark)
    report.notes += [f"skipped data/{name}: Weft does not follow OpenAlex {name}" for name in skipped]
    if not entities:
        raise InvalidInput(f"{location}: no works, authors or institutions under data/", "location")
    manifests = {e: read_manifest(root, e) for e in entities}
    units = _units(root, entities, mark)
    plan = _merge_plan(root, entities, state, units[-1].date if units else mark, max_deletes)
    seen_new: set[str] = set()  # a dry run's ids counted new by an earlier unit
    migrated = False
    for unit in units:
        _check_unit(root, unit, manifests, report)
        existing = _existing(driver, database, unit.ids)
        for entity, ids in unit.ids.items():
            for oid in dict.fromkeys(ids):
                new = oid not in existing[entity] and f"{entity}:{oid}" not in seen_new
                if new:
                    seen_new.add(f"{entity}:{oid}")
                counts = report.counts(entity)
                counts.new, counts.updated = counts.new + new, counts.updated + (not new)
        report.watermark = unit.date
        report.units.append(unit.date)
        if dry_run:
            continue
        _same_manifests(root, manifests)
        if not migrated:  # just before the first write: a refused sync writes nothing at all
            migrate(driver, database, recheck=False, top_ties=limits.top_ties)
            migrated = True
        _apply_unit(driver, database, root, unit, existing, batch_size, limits)
        echo(f"applied updated_date={unit.date}: {sum(len(v) for v in unit.ids.values())} records")
    if plan and not dry_run and not migrated:
        migrate(driver, database, recheck=False, top_ties=limits.top_ties)
    _merges(driver, database, plan, report, limits, echo)
    report.seconds = time.perf_counter() - started
    if not dry_run:
        record_summary(driver, database, report)
    return report


# --- reading and checking -----------------------------------------------------------------------------


def _units(root: DataPath, entities: list[str], mark: str | None) -> list[_Unit]:
    """The partitions past `mark`, one unit per date, oldest first; refused when an entity's older partitions
    are all gone (every record changed: a rebuild, not a diff)."""
    by_date: dict[str, list[Partition]] = {}
    for entity in entities:
        every = partitions(root, entity, None)
        if mark is not None and every and every[0].date > mark:
            raise InvalidInput(
                f"data/{entity}: every partition is newer than the watermark {mark}: the source changed every "
                "record (as OpenAlex's 2023 author-id reset did); rebuild the graph instead of syncing",
                "location",
            )
        for part in every:
            if mark is None or part.date > mark:
                by_date.setdefault(part.date, []).append(part)
    return [_Unit(date, by_date[date]) for date in sorted(by_date)]


def _check_unit(root: DataPath, unit: _Unit, manifests: dict[str, Manifest], report: SyncReport) -> None:
    """Read the unit's files once: every file listed by the manifest with the count it states, a sample's shape
    usable; collects the unit's ids. InvalidInput otherwise (nothing written)."""
    for part in unit.parts:
        ids = unit.ids.setdefault(part.entity, [])
        for relative in part.files:
            stated = manifests[part.entity].count_of(relative)
            if stated is None and not any(e.relative == relative for e in manifests[part.entity].entries):
                raise InvalidInput(
                    f"data/{part.entity}/{relative}: not in the manifest (written after it?)", "location"
                )
            read = rejected = 0
            for rows, oid in _records(root / "data" / part.entity / relative):
                read += 1
                if rows is None or oid is None:
                    rejected += 1
                    if read <= SAMPLE and rejected * 2 > SAMPLE:
                        raise InvalidInput(
                            f"data/{part.entity}/{relative}: most of the first {SAMPLE} records are unusable "
                            "(scrambled fields?); nothing of this partition written",
                            "location",
                        )
                    continue
                ids.append(oid)
            if stated is not None and read != stated:
                raise InvalidInput(
                    f"data/{part.entity}/{relative}: {read} records, the manifest says {stated}; nothing written",
                    "location",
                )
            unit.rejected += rejected
    report.rejected += unit.rejected


def _records(path: DataPath) -> Iterator[tuple[RecordRows | None, str | None]]:
    """Each record of a part file: its rows (None when refused) and its short OpenAlex id."""
    for item in read_records(path):
        rows = record_rows(openalex.build_rows, item)
        raw = item.record.get("id") if isinstance(item, Item) and is_object(item.record) else None
        oid = normalize_openalex(raw) if isinstance(raw, str) else None
        yield (None if isinstance(rows, Rejected) else rows, oid)


def _same_manifests(root: DataPath, before: dict[str, Manifest]) -> None:
    """InvalidInput when any manifest differs from its first read (the snapshot moved while we read it)."""
    for entity, manifest in before.items():
        if read_manifest(root, entity).raw != manifest.raw:
            raise InvalidInput(
                f"data/{entity}/manifest changed while the sync read the snapshot; nothing more was written: "
                "run the sync again",
                "location",
            )


def _existing(driver: Driver, database: str, ids: dict[str, list[str]]) -> dict[str, dict[str, str]]:
    """Per entity, the unit's ids already in the graph -> their internal ids."""
    return existing_ids(driver, database, _SOURCE, ids)


# --- applying -----------------------------------------------------------------------------------------


def _apply_unit(
    driver: Driver,
    database: str,
    root: DataPath,
    unit: _Unit,
    existing: dict[str, dict[str, str]],
    batch_size: int,
    limits: PairLimits,
) -> None:
    """Note what the unit replaces, write its records, recompute, then log and move the watermark."""
    name = f"updated_date={unit.date}"
    works = sorted(existing.get("works", {}))
    with translated_errors("reading the works a sync replaces"):
        before, _, _ = driver.execute_query(q.WORKS_BEFORE, ids=works, database_=database, routing_="r")
    authors = sorted({a for r in before for a in r["authors"]})
    seen = [f"{e}:{oid}" for e, ids in unit.ids.items() for oid in dict.fromkeys(ids)]
    new = [x for x in seen if x.split(":", 1)[1] not in existing[x.split(":", 1)[0]]]
    begin_unit(
        driver,
        database,
        _SOURCE,
        name,
        papers=[r["paper"] for r in before],
        researchers=authors,
        reauthored=[],  # the works the graph lacks: noted per batch (note_batch)
        notes_before=True,  # and the state of each work replaced (ditto)
        refs=sorted({k for r in before for k in r["refs"]}),
        categories=sorted({c for r in before for c in r["categories"]}),
        new=new,
        seen=seen,
    )
    writer = GraphWriter(driver, database, limits)
    batch: list[RecordRows] = []
    pending = 0
    for part in unit.parts:
        for relative in part.files:
            for rows, _ in _records(root / "data" / part.entity / relative):
                if rows is None:
                    continue
                batch.append(rows)
                pending += rows.size()
                if pending >= batch_size:
                    note_batch(driver, database, SOURCE, batch)
                    writer.write(batch)
                    batch, pending = [], 0
    if batch:
        note_batch(driver, database, SOURCE, batch)
        writer.write(batch)
    finish(driver, database, _SOURCE, writer, limits)
    log_and_mark(driver, database, _SOURCE, name, "watermark", unit.date)


# --- merges -------------------------------------------------------------------------------------------


_Plan = list[tuple[str, str, list[Merge]]]  # (entity, date, merges) per merged_ids file, in order


def _merge_plan(
    root: DataPath, entities: list[str], state: dict[str, Any], through: str | None, max_deletes: int | None
) -> _Plan:
    """The merged_ids files after each entity's merge watermark and up to `through` (the partition watermark
    the sync will reach), read before anything is written; InvalidInput for more deletes than `max_deletes`."""
    if through is None:
        return []
    plan = [
        (entity, date, read_merges(path, entity))
        for entity in entities
        for date, path in merge_files(root, entity, state.get(f"merged_{entity}"), through)
    ]
    deletes = sum(1 for _, _, merges in plan for m in merges if m.into is None)
    if max_deletes is not None and deletes > max_deletes:
        raise InvalidInput(
            f"the merged_ids files would delete {deletes} records, more than --max-deletes {max_deletes}: "
            "nothing was written; check the snapshot, or rebuild the graph",
            "max_deletes",
        )
    return plan


def _merges(driver: Driver, database: str, plan: _Plan, report: SyncReport, limits: PairLimits, echo: Echo) -> None:
    """Apply the merged_ids files, each a unit: merges, derived data, then the log and the entity's merge mark."""
    for entity, date, merges in plan:
        present = _existing(driver, database, {entity: [m.id for m in merges]})[entity]
        counts = report.counts(entity)
        for m in merges:
            if m.id in present:
                counts.merged += m.into is not None
                counts.deleted += m.into is None
        unit = f"merged_ids/{entity}/{date}"
        report.units.append(unit)
        if report.dry_run:
            continue
        _apply_merges(driver, database, entity, unit, merges)
        finish(driver, database, _SOURCE, None, limits)
        log_and_mark(driver, database, _SOURCE, unit, f"merged_{entity}", date)
        echo(f"applied {unit}: {len(merges)} merges")


def _apply_merges(driver: Driver, database: str, entity: str, unit: str, merges: list[Merge]) -> None:
    """Merges in transactions of MERGE_CHUNK, each noting what to recompute and the changes to log. Works and
    authors: the state of each paper a merge changes is noted before it, and only what differs after is
    recomputed (derived.paper_changes); institutions: their researchers' derived data is rebuilt whole."""
    notes = entity in ("works", "authors")
    begin_unit(driver, database, _SOURCE, unit, reauthored=[] if notes else None, notes_before=notes)
    with translated_errors("merging retired ids"), driver.session(database=database) as session:
        for start in range(0, len(merges), MERGE_CHUNK):
            execute_marked(session, _merge_chunk_tx, entity, merges[start : start + MERGE_CHUNK])


def _merge_chunk_tx(tx: ManagedTransaction, entity: str, merges: list[Merge]) -> None:
    """Merges in order, one statement each, in one transaction that also notes what to recompute and the
    changes to log (once for the chunk: the pending lists are rewritten per chunk, not per merge)."""
    papers: list[str] = []
    researchers: list[str] = []
    categories: list[str] = []
    entries: list[ChangeEntry] = []
    before: list[str] = []
    for merge in merges:
        if entity == "works":
            categories += [r["id"] for r in tx.run(q.CATEGORIES_OF_WORK, old=merge.id)]
            works = [merge.id] if merge.into is None else [merge.id, merge.into]
            before += [state_note(r.data(), "oid") for r in tx.run(q.PAPER_STATES, ids=works)]
        elif entity == "authors":
            before += [state_note(r.data(), "id") for r in tx.run(q.PAPER_STATES_OF_AUTHOR, old=merge.id)]
        rec = tx.run(_MERGE_AWAY[entity], old=merge.id, into=merge.into, keys=_OTHER_KEYS[entity]).single()
        if rec is None:
            continue  # not in the graph (or only another source states it and nothing survives): nothing moved
        papers += [p for p in rec["papers"] if p]
        researchers += [r for r in rec["researchers"] if r]
        if entity == "institutions" and rec["survivor"]:
            rename = {"old": rec["loser"], "new": rec["survivor"]}
            restated = [r["paper"] for r in tx.run(REWRITE_INSTITUTION_IDS, renames=[rename])]
            restate(tx, restated)
            papers += restated
        kind = "merged" if rec["survivor"] else "deleted"
        entries.append(ChangeEntry(entity, kind, merge.id, rec["loser"], rec["survivor"]))
    if entries:
        tx.run(
            q.ADD_PENDING,
            source=SOURCE,
            researchers=sorted(set(researchers)),
            papers=sorted(set(papers)),
            categories=sorted(set(categories)),
            before=before,
        ).consume()
        note_changes(tx, _SOURCE, entries)
