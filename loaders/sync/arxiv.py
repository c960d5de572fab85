"""`weft sync arxiv LOCATION`: take in a newer arXiv metadata file (the snapshot's JSON Lines format).

The watermark (`SyncState {source: 'arxiv'}.watermark`) is the newest datestamp applied: a record's `updated`,
the newer of its `update_date` and its last version's date (loaders/arxiv.py). A sync applies, as one unit, the
records dated after the watermark whose content differs from what arXiv said before (a record the graph holds
with the same arXiv rank is skipped): a new version replaces arXiv's title, abstract, authors, categories and
version list (its authorships and categories are owned here, so arXiv's old ones go; a load only adds them),
derived data is recomputed for what changed, and the log and the watermark move in one transaction. A killed
sync re-applies its whole unit when run again (the unit's name is its newest datestamp).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from neo4j import Driver

from weft.graph.driver import check_connectivity, translated_errors
from weft.graph.errors import InvalidInput
from weft.graph.identity.ids import normalize_arxiv
from weft.graph.migrate import migrate
from weft.graph.settings import Settings
from weft.graph.sync_state import sync_state
from weft.graph.versions import run_marked
from weft.loaders import arxiv
from weft.loaders.derived import DEFAULT_LIMITS, PairLimits
from weft.loaders.reader import Item, data_files, is_object, read_records
from weft.loaders.records import record_rows
from weft.loaders.rows import FULL_RECORD, RecordRows, RelRow
from weft.loaders.storage import DataPath, storage_error
from weft.loaders.sync.units import (
    Echo,
    SyncReport,
    SyncSource,
    begin_unit,
    existing_ids,
    finish,
    log_and_mark,
    record_summary,
)
from weft.loaders.write import GraphWriter, row_ranks
from weft.queries import sync_s2 as qs

SOURCE = "arxiv"
SAMPLE = 100  # records whose shape is checked: most refused means a wrong or scrambled file
_SOURCE = SyncSource(SOURCE, {"works": qs.EXISTING_ARXIV_PAPERS})
_OWNED = ("AUTHORED", "IN_CATEGORY")


def sync_arxiv(
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
    """Apply the arXiv records at `location` (a file or a folder of them) dated after the watermark (module
    docstring). arXiv deletes nothing, so `max_deletes` is accepted and never reached. InvalidInput for
    files whose sample is mostly unusable (nothing written)."""
    del max_deletes
    started = time.perf_counter()
    try:
        files = data_files([location])
    except (FileNotFoundError, OSError) as exc:
        raise storage_error(location, exc) from exc
    check_connectivity(driver)
    state = sync_state(driver, database, SOURCE)
    mark: str | None = state.get("watermark")
    report = SyncReport(SOURCE, dry_run, mark, mark)
    candidates: dict[str, str] = {}  # arXiv id -> source rank of the newest record dated after the mark
    newest = ""
    for path in files:
        for oid, rows in _records(path, report):
            updated = rows.nodes[0].updated
            if mark is not None and updated <= mark:
                continue
            candidates[oid] = row_ranks(rows.nodes[0])[0]
            newest = max(newest, updated)
    if not candidates:
        return _done(driver, database, report, started)
    unit = f"through {newest}"
    held = _held_ranks(driver, database, sorted(candidates))
    again = state.get("pending_unit") == unit  # a killed run of this unit: all of it again
    chosen = [oid for oid, rank in candidates.items() if again or held.get(oid) != rank]
    existing = existing_ids(driver, database, _SOURCE, {"works": chosen})["works"]
    counts = report.counts("works")
    counts.new = sum(1 for oid in chosen if oid not in existing)
    counts.updated = len(chosen) - counts.new
    report.units.append(unit)
    report.watermark = max(newest, mark or "")
    if dry_run:
        return _done(driver, database, report, started)
    migrate(driver, database, recheck=False, top_ties=limits.top_ties)
    _apply(driver, database, files, unit, set(chosen), existing, batch_size, limits)
    log_and_mark(driver, database, _SOURCE, unit, "watermark", report.watermark)
    echo(f"applied {unit}: {len(chosen)} records")
    return _done(driver, database, report, started)


def _done(driver: Driver, database: str, report: SyncReport, started: float) -> SyncReport:
    report.seconds = time.perf_counter() - started
    if not report.dry_run:
        record_summary(driver, database, report)
    return report


def _records(path: DataPath, report: SyncReport) -> Iterator[tuple[str, RecordRows]]:
    """Each usable record of a file as (arXiv id, rows owning arXiv's authorships and categories)."""
    read = rejected = 0
    for item in read_records(path):
        read += 1
        rows = record_rows(arxiv.build_rows, item)
        raw = item.record.get("id") if isinstance(item, Item) and is_object(item.record) else None
        oid = normalize_arxiv(raw) if isinstance(raw, str) else None
        if not isinstance(rows, RecordRows) or oid is None:
            rejected += 1
            if read <= SAMPLE and rejected * 2 > SAMPLE:
                raise InvalidInput(
                    f"{path.name}: most of the first {SAMPLE} records are unusable (not arXiv metadata?); "
                    "nothing written",
                    "location",
                )
            continue
        yield oid, _owning(rows)
    report.rejected += rejected


def _owning(rows: RecordRows) -> RecordRows:
    """The record's paper owns its AUTHORED and IN_CATEGORY rows: a new version replaces arXiv's old ones."""
    rows.nodes[0].owns = _OWNED
    rows.rels = [RelRow(r.type, r.start, r.end, r.props, 0 if r.type in _OWNED else r.owner) for r in rows.rels]
    return rows


def _held_ranks(driver: Driver, database: str, ids: list[str]) -> dict[str, str]:
    """The arXiv rank of each paper the graph holds for these arXiv ids (what arXiv said last)."""
    with translated_errors("reading what the sync replaces"):
        records, _, _ = driver.execute_query(qs.ARXIV_RANKS, ids=ids, database_=database, routing_="r")
    return {r["oid"]: r["rank"] for r in records if r["rank"]}


def _apply(
    driver: Driver,
    database: str,
    files: list[DataPath],
    unit: str,
    chosen: set[str],
    existing: dict[str, str],
    batch_size: int,
    limits: PairLimits,
) -> None:
    """Note what the unit replaces, write its records, drop authors nothing states, recompute."""
    with translated_errors("reading what a sync replaces"):
        works, _, _ = driver.execute_query(
            qs.ARXIV_PAPERS_BEFORE, ids=sorted(set(existing)), database_=database, routing_="r"
        )
    authors = sorted({a for r in works for a in r["authors"]})
    seen = [f"works:{oid}" for oid in sorted(chosen)]
    begin_unit(
        driver,
        database,
        _SOURCE,
        unit,
        papers=[r["paper"] for r in works],
        researchers=authors,
        moved=authors,
        categories=sorted({c for r in works for c in r["categories"]}),
        new=[x for x in seen if x.split(":", 1)[1] not in existing],
        seen=seen,
    )
    if authors:  # a paper-scoped author's names are the replaced record's only
        with translated_errors("releasing what arXiv no longer states"):
            run_marked(driver, database, qs.CLEAR_SCOPED_NAMES, ids=authors, prefix=f"{SOURCE}:")
    writer = GraphWriter(driver, database, limits)
    batch: list[RecordRows] = []
    pending = 0
    scratch = SyncReport(SOURCE, False, None, None)
    for path in files:
        for oid, rows in _records(path, scratch):
            if oid not in chosen:
                continue
            batch.append(rows)
            pending += rows.size()
            if pending >= batch_size:
                writer.write(batch)
                batch, pending = [], 0
    if batch:
        writer.write(batch)
    if authors:  # an author slot a new version dropped: its paper-scoped researcher goes
        with translated_errors("removing what nothing states any more"):
            run_marked(driver, database, qs.DELETE_UNSTATED_RESEARCHERS, ids=authors, full=str(FULL_RECORD))
    finish(driver, database, _SOURCE, writer, limits)
