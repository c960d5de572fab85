"""`weft sync s2 LOCATION`: apply Semantic Scholar's datasets diffs from the graph's release onwards.

The watermark is one release id for the whole source (`SyncState {source: 's2'}.watermark`): a step is one
unit across datasets (a paper's record, its abstract and its citations of one release go in together), so
the datasets never stand at different releases. A graph never synced from S2 starts at the oldest step's
`from` release (load that release in full first). Steps are applied in release order; a gap is refused.

Per step (loaders/sync/s2_layout.py): every file is read once to check it (a sample's shape) and to collect
ids; the listing is read again (changed: abort before writing); what the step replaces is noted (units.py);
then, replacing what S2 said: an S2 abstract row replaces S2's abstract, a papers row S2's authorships and
fields (the load path: loaders/write.py), an authors row the author's S2 properties; citations are added and
removed by pair; a deleted paper or author loses what S2 stated, and goes when no other source states it
(its change logged as a deletion: the site answers 410); a researcher left with no authorship and no record
of its own goes too. Then derived data for what was touched, and the log and the watermark in one transaction.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, LiteralString

from neo4j import Driver, ManagedTransaction

from weft.graph.driver import check_connectivity, translated_errors
from weft.graph.errors import InvalidInput
from weft.graph.migrate import migrate
from weft.graph.settings import Settings
from weft.graph.sources import SOURCE_PRIORITY
from weft.graph.sync_state import sync_state
from weft.graph.versions import execute_marked, run_marked
from weft.loaders import s2
from weft.loaders.derived import DEFAULT_LIMITS, PairLimits
from weft.loaders.reader import Item, is_object, read_records
from weft.loaders.records import record_rows
from weft.loaders.rows import FULL_RECORD, RecordRows
from weft.loaders.storage import DataPath
from weft.loaders.sync.s2_layout import SYNCED_DATASETS, Step, chain, diffs_root, listing, read_steps
from weft.loaders.sync.units import (
    Echo,
    SyncReport,
    SyncSource,
    begin_unit,
    existing_ids,
    finish,
    log_and_mark,
    note_change,
    record_summary,
)
from weft.loaders.write import GraphWriter
from weft.queries import sync as q
from weft.queries import sync_s2 as qs

SOURCE = "s2"
SAMPLE = 100  # records of each file whose shape is checked: most refused means a wrong or scrambled file
_SOURCE = SyncSource(SOURCE, {"works": qs.EXISTING_S2_PAPERS, "authors": qs.EXISTING_S2_RESEARCHERS})


@dataclass
class _Ids:
    """What one step names, read and checked before anything is written."""

    papers: list[str] = field(default_factory=list[str])  # corpus ids of paper records
    authors: list[str] = field(default_factory=list[str])  # author ids of author records
    abstracts: list[str] = field(default_factory=list[str])  # corpus ids of abstract records
    citations: list[tuple[str, str]] = field(default_factory=list[tuple[str, str]])  # (citing, cited) added
    gone_papers: list[str] = field(default_factory=list[str])
    gone_authors: list[str] = field(default_factory=list[str])
    gone_abstracts: list[str] = field(default_factory=list[str])
    gone_citations: list[tuple[str, str]] = field(default_factory=list[tuple[str, str]])
    rejected: int = 0

    def deletes(self) -> int:
        return len(self.gone_papers) + len(self.gone_authors)


def sync_s2(
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
    """Apply the S2 diff steps at `location` from the graph's release on (module docstring).

    Raises InvalidInput (nothing of the step at hand written) for a layout it cannot follow, a gap in the
    chain of releases, a listing that changed while reading, more deletes than `max_deletes`, or a file
    whose sample is mostly unusable."""
    started = time.perf_counter()
    root = diffs_root(location)
    steps, skipped = read_steps(root)
    before = listing(root)
    check_connectivity(driver)
    mark = sync_state(driver, database, SOURCE).get("watermark")
    report = SyncReport(SOURCE, dry_run, mark, mark)
    report.notes += [f"skipped {name}/: Weft does not follow the S2 {name} dataset" for name in skipped]
    if mark is None and steps:
        report.notes.append(f"first S2 sync: the graph is taken to hold release {steps[0].from_release}")
    todo = chain(steps, mark)
    checked = [(step, _read_step(step)) for step in todo]
    deletes = sum(ids.deletes() for _, ids in checked)
    if max_deletes is not None and deletes > max_deletes:
        raise InvalidInput(
            f"the diffs would delete {deletes} papers and authors, more than --max-deletes {max_deletes}: nothing "
            "was written; check the diffs, or rebuild the graph from a full release",
            "max_deletes",
        )
    migrated = False
    for step, ids in checked:
        existing = existing_ids(
            driver,
            database,
            _SOURCE,
            {"works": ids.papers + ids.gone_papers, "authors": ids.authors + ids.gone_authors},
        )
        _count(report, ids, existing)
        report.rejected += ids.rejected
        report.units.append(step.name)
        report.watermark = step.to_release
        if dry_run:
            continue
        if listing(root) != before:
            raise InvalidInput(
                "the S2 diffs listing changed while the sync read it; nothing more was written: run the sync again",
                "location",
            )
        if not migrated:  # just before the first write: a refused sync writes nothing at all
            migrate(driver, database, recheck=False, top_ties=limits.top_ties)
            migrated = True
        _apply_step(driver, database, step, ids, existing, batch_size, limits)
        echo(f"applied {step.name}: {len(ids.papers)} papers, {len(ids.authors)} authors, {ids.deletes()} deletes")
    report.seconds = time.perf_counter() - started
    if not dry_run:
        record_summary(driver, database, report)
    return report


# --- reading and checking -----------------------------------------------------------------------------


def _rows(dataset: str, path: DataPath) -> Iterator[tuple[RecordRows | None, dict[str, Any] | None]]:
    """Each record of an update file: its rows (None when refused or writing nothing) and the raw record."""
    for item in read_records(path):
        rows = record_rows(lambda record: s2.dataset_rows(dataset, record), item)
        raw = item.record if isinstance(item, Item) and is_object(item.record) else None
        yield (rows if isinstance(rows, RecordRows) else None, dict(raw) if raw is not None else None)


def _id(raw: dict[str, Any] | None, *names: str) -> str | None:
    """The first of `names` the record holds, as the graph keeps it (corpus ids: digits; author ids: text)."""
    if raw is None:
        return None
    for name in names:
        value = raw.get(name)
        if value is not None and str(value).strip():
            return s2.corpus_id(value) if "corpus" in name else str(value).strip()
    return None


def _read_step(step: Step) -> _Ids:
    """Read every file of the step once: ids collected, a sample's shape checked (InvalidInput otherwise)."""
    ids = _Ids()
    for dataset in SYNCED_DATASETS:
        files = step.datasets.get(dataset)
        if files is None:
            continue
        for path in files.updates:
            ids.rejected += _read_updates(ids, dataset, f"{dataset}/{step.name}/update_files/{path.name}", path)
        for path in files.deletes:
            _read_deletes(ids, dataset, f"{dataset}/{step.name}/delete_files/{path.name}", path)
    return ids


def _read_updates(ids: _Ids, dataset: str, where: str, path: DataPath) -> int:
    """Collect an update file's keys; returns the records refused (most of a sample refused: InvalidInput)."""
    read = rejected = 0
    for rows, raw in _rows(dataset, path):
        read += 1
        key = _record_key(dataset, raw)
        if dataset == "citations" and key is None and _id(raw, "citingcorpusid"):
            continue  # a citation to a paper S2 does not know: nothing to write (as a load)
        if key is None or (rows is None and dataset in ("papers", "authors")):
            rejected += 1
            if read <= SAMPLE and rejected * 2 > SAMPLE:
                raise InvalidInput(
                    f"{where}: most of the first {SAMPLE} records are unusable (a wrong or scrambled file?); "
                    "nothing of this step written",
                    "location",
                )
            continue
        _collect(ids, dataset, key, gone=False)
    return rejected


def _read_deletes(ids: _Ids, dataset: str, where: str, path: DataPath) -> None:
    """Collect a delete file's keys (a record without one: InvalidInput)."""
    for item in read_records(path):
        raw = dict(item.record) if isinstance(item, Item) and is_object(item.record) else None
        key = _record_key(dataset, raw)
        if key is None:
            raise InvalidInput(
                f"{where}: a record without the {dataset} id to delete; nothing of this step written", "location"
            )
        _collect(ids, dataset, key, gone=True)


def _record_key(dataset: str, raw: dict[str, Any] | None) -> str | tuple[str, str] | None:
    """A record's primary key in its dataset (citations: the pair of corpus ids)."""
    if dataset == "authors":
        return _id(raw, "authorid", "authorId")
    if dataset == "citations":
        citing, cited = _id(raw, "citingcorpusid"), _id(raw, "citedcorpusid")
        return (citing, cited) if citing and cited else None
    return _id(raw, "corpusid", "corpusId")


def _collect(ids: _Ids, dataset: str, key: str | tuple[str, str], *, gone: bool) -> None:
    if isinstance(key, tuple):
        (ids.gone_citations if gone else ids.citations).append(key)
    elif dataset == "papers":
        (ids.gone_papers if gone else ids.papers).append(key)
    elif dataset == "authors":
        (ids.gone_authors if gone else ids.authors).append(key)
    else:
        (ids.gone_abstracts if gone else ids.abstracts).append(key)


def _count(report: SyncReport, ids: _Ids, existing: dict[str, dict[str, str]]) -> None:
    for entity, updated, gone in (
        ("works", ids.papers, ids.gone_papers),
        ("authors", ids.authors, ids.gone_authors),
    ):
        counts = report.counts(entity)
        for oid in dict.fromkeys(updated):
            new = oid not in existing[entity]
            counts.new, counts.updated = counts.new + new, counts.updated + (not new)
        counts.deleted += sum(1 for oid in dict.fromkeys(gone) if oid in existing[entity])


# --- applying -----------------------------------------------------------------------------------------


def _apply_step(
    driver: Driver,
    database: str,
    step: Step,
    ids: _Ids,
    existing: dict[str, dict[str, str]],
    batch_size: int,
    limits: PairLimits,
) -> None:
    """Note what the step replaces, write its updates, remove its deletes, recompute, then log and mark."""
    attached = sorted(set(ids.abstracts + ids.gone_abstracts + [c for c, _ in ids.citations + ids.gone_citations]))
    with translated_errors("reading what a sync replaces"):
        works, _, _ = driver.execute_query(
            qs.S2_PAPERS_BEFORE, ids=sorted(set(ids.papers + ids.gone_papers)), database_=database, routing_="r"
        )
        attached_ids, _, _ = driver.execute_query(
            qs.PAPERS_OF_CORPUS_IDS,
            ids=sorted(set(attached) | {c for _, c in ids.gone_citations + ids.citations}),
            database_=database,
            routing_="r",
        )
        people, _, _ = driver.execute_query(
            qs.S2_AUTHORS_BEFORE, ids=sorted(set(ids.gone_authors)), database_=database, routing_="r"
        )
    authors = sorted({a for r in works for a in r["authors"]} | {a for r in people for a in r["authors"]})
    seen = [f"works:{oid}" for oid in dict.fromkeys(ids.papers)] + [
        f"authors:{oid}" for oid in dict.fromkeys(ids.authors)
    ]
    new = [x for x in seen if x.split(":", 1)[1] not in existing[x.split(":", 1)[0]]]
    begin_unit(
        driver,
        database,
        _SOURCE,
        step.name,
        papers=sorted(
            {r["paper"] for r in works}
            | {p for r in works for p in r["citing"]}
            | {r["id"] for r in attached_ids}
            | {p for r in people for p in r["papers"]}
        ),
        researchers=authors,
        moved=authors,
        refs=sorted({k for r in works for k in r["refs"]} | {f"corpus:{c}" for _, c in ids.gone_citations}),
        categories=sorted({c for r in works for c in r["categories"]}),
        new=new,
        seen=seen,
    )
    _release(driver, database, ids)
    if authors:  # an id-less author slot's names are the replaced record's only
        with translated_errors("releasing what S2 no longer states"):
            run_marked(driver, database, qs.CLEAR_SCOPED_NAMES, ids=authors, prefix=f"{SOURCE}:")
    writer = _write_updates(driver, database, step, batch_size, limits)
    with translated_errors("deleting what S2 deleted"), driver.session(database=database) as session:
        for oid in dict.fromkeys(ids.gone_papers):
            execute_marked(session, _delete_tx, "works", qs.DELETE_S2_PAPER, oid)
        for oid in dict.fromkeys(ids.gone_authors):
            execute_marked(session, _delete_tx, "authors", qs.DELETE_S2_RESEARCHER, oid)
    _drop_unstated_researchers(driver, database)
    finish(driver, database, _SOURCE, writer, limits)
    log_and_mark(driver, database, _SOURCE, step.name, "watermark", step.to_release)


def _release(driver: Driver, database: str, ids: _Ids) -> None:
    """S2's abstract of the step's abstract records goes (replaced or withdrawn: not ranked against the old
    one), and so do the citations it deleted."""
    abstract_papers = _paper_ids(driver, database, ids.abstracts + ids.gone_abstracts)
    with translated_errors("releasing what S2 no longer states"):
        if abstract_papers:
            run_marked(
                driver,
                database,
                qs.DROP_SOURCE_PROPERTY,
                ids=abstract_papers,
                prop="abstract",
                priority=str(SOURCE_PRIORITY[SOURCE]),
            )
        if ids.gone_citations:
            pairs = [{"citing": c, "cited": f"corpus:{d}"} for c, d in dict.fromkeys(ids.gone_citations)]
            run_marked(driver, database, qs.DROP_S2_CITATIONS, pairs=pairs)


def _write_updates(driver: Driver, database: str, step: Step, batch_size: int, limits: PairLimits) -> GraphWriter:
    """The step's update records through the load path, dataset by dataset (abstracts and citations attach to
    papers written before them)."""
    writer = GraphWriter(driver, database, limits)
    batch: list[RecordRows] = []
    pending = 0
    for dataset in SYNCED_DATASETS:
        files = step.datasets.get(dataset)
        for path in files.updates if files else ():
            for rows, _ in _rows(dataset, path):
                if rows is None:
                    continue
                batch.append(rows)
                pending += rows.size()
                if pending >= batch_size:
                    writer.write(batch)
                    batch, pending = [], 0
        if batch:
            writer.write(batch)
            batch, pending = [], 0
    return writer


def _paper_ids(driver: Driver, database: str, corpus_ids: list[str]) -> list[str]:
    with translated_errors("reading the papers a sync replaces"):
        records, _, _ = driver.execute_query(
            qs.PAPERS_OF_CORPUS_IDS, ids=sorted(set(corpus_ids)), database_=database, routing_="r"
        )
    return [r["id"] for r in records]


def _delete_tx(tx: ManagedTransaction, entity: str, query: LiteralString, oid: str) -> None:
    """One deleted record: S2's statements of it go (the node too when no other source states it); what to
    recompute and the change to log are noted on the pending unit in the same transaction."""
    rec = tx.run(query, old=oid, source=SOURCE).single()
    if rec is None:
        return  # not in the graph (or deleted by an earlier run of this step)
    researchers = [r for r in rec["researchers"] if r]
    papers = [p for p in rec["papers"] if p]
    if entity == "authors" and not rec["gone"]:
        researchers.append(rec["id"])
    tx.run(q.ADD_PENDING, source=SOURCE, researchers=researchers, papers=papers, categories=[], before=[]).consume()
    if rec["gone"]:
        note_change(tx, _SOURCE, entity, "deleted", oid, rec["id"], None)


def _drop_unstated_researchers(driver: Driver, database: str) -> None:
    """Researchers the step left with no authorship and no record of their own (an S2 author only named on
    a paper that dropped or deleted them; an id-less author slot that moved) go, as a load of after would
    not make them."""
    with translated_errors("reading the sync's pending work"):
        records, _, _ = driver.execute_query(q.READ_PENDING, source=SOURCE, database_=database)
    if records and records[0]["researchers"]:
        with translated_errors("removing what nothing states any more"):
            run_marked(
                driver, database, qs.DELETE_UNSTATED_RESEARCHERS, ids=records[0]["researchers"], full=str(FULL_RECORD)
            )
