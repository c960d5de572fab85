"""`weft build`: dump files -> neo4j-admin Parquet input, the same graph `weft load` builds.

1. stage (loaders/bulk/stage.py): each data file through the online loader's row builders (an
   OpenAlex works file mostly in SQL: loaders/bulk/links.py), in parallel worker processes, to
   Parquet row chunks;
2. transform (loaders/bulk/transform.py, SQL in loaders/bulk/sql.py): an engine joins the rows into
   nodes and edges (identity, who wins, claims, derived edges, the pair rule): DuckDB within
   `memory_limit` (the default), or Spark on any master (`engine="spark"`, loaders/bulk/spark.py),
   which also runs step 1 as Spark tasks;
3. output (loaders/bulk/output.py): Parquet per label and relationship type + manifest.json.

Layouts (loaders.detect.layout): S2 diff delete files and OpenAlex merged_ids drop the records of
the entities they remove; references to a merged work point at the work it was merged into.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from weft.graph.errors import InvalidInput
from weft.graph.settings import Settings
from weft.loaders.bulk import sql
from weft.loaders.bulk.engine import DuckDBEngine, Engine
from weft.loaders.bulk.output import write_import_files
from weft.loaders.bulk.stage import (
    NODE_COLUMNS,
    REL_COLUMNS,
    StageFile,
    StageResult,
    merge_kinds,
    stage_task,
    tasks_for,
    worker_count,
)
from weft.loaders.bulk.transform import (
    Transform,
    claims,
    derived,
    identity,
    lookup_tables,
    node_properties,
    relationships,
)
from weft.loaders.detect import S2_DELETES, Layout, layout
from weft.loaders.reader import Item, is_object, read_records
from weft.loaders.records import write_rejects
from weft.loaders.storage import DataPath, check_writable, local_copy, location, upload

# Merged ids apply to every file, whatever its diff sequence.
ALWAYS = 1 << 30
Echo = Callable[[str], object]
ENGINES = ("duckdb", "spark")


@dataclass(frozen=True)
class BuildOptions:
    """How a build runs (defaults from Settings: WEFT_BULK_* and the pair rule's limits)."""

    engine: str = "duckdb"  # or "spark"
    master: str = "local[*]"  # the Spark master (engine "spark")
    memory_limit: str = "2GB"  # DuckDB's memory_limit; the Spark driver's memory
    threads: int = 0  # DuckDB threads; 0: DuckDB's default (one per core)
    workers: int = 0  # staging processes; 0: one per core
    max_authors: int = Settings.pair_edge_max_authors
    same_name_cap: int = Settings.same_name_max_bucket
    top_ties: int = Settings.network_top_ties
    keep_work: bool = False  # keep the staged rows and the DuckDB file (for debugging)

    @classmethod
    def of(cls, settings: Settings) -> BuildOptions:
        return cls(
            engine=settings.bulk_engine,
            master=settings.spark_master,
            memory_limit=settings.bulk_memory_limit,
            threads=settings.bulk_threads,
            workers=settings.bulk_workers,
            max_authors=settings.pair_edge_max_authors,
            same_name_cap=settings.same_name_max_bucket,
            top_ties=settings.network_top_ties,
        )


@dataclass
class BuildSummary:
    """What one build read and wrote, and where the time went (seconds per step)."""

    files: int = 0
    records: int = 0
    rejected: int = 0
    removed_records: int = 0
    linked_in_sql: int = 0  # OpenAlex works staged in SQL but for their Paper row
    claims: int = 0
    counts: dict[str, int] = field(default_factory=dict[str, int])
    steps: dict[str, float] = field(default_factory=dict[str, float])
    warnings: list[str] = field(default_factory=list[str])
    rejects_file: DataPath | None = None
    out: DataPath | None = None

    @property
    def seconds(self) -> float:
        return sum(self.steps.values())


def _stage(plan: Layout, stage_dir: Path, echo: Echo, engine: Engine) -> list[StageResult]:
    files = [StageFile(i, path, fmt.source, seq) for i, (path, fmt, seq) in enumerate(plan.data)]
    tasks = tasks_for(files, stage_dir)
    results: list[StageResult] = []

    def note(result: StageResult) -> None:
        results.append(result)
        echo(f"staged {len(results)}/{len(tasks)} parts, {sum(r.records for r in results):,} records")

    for result in engine.map_tasks(stage_task, tasks):
        note(result)
    return sorted(results, key=lambda r: r.task)  # file order, whatever order the tasks ran in


def _note_sql_staging(linked: int, builder_files: list[str], echo: Echo) -> None:
    """Say how many OpenAlex works were staged in SQL (loaders/bulk/links.py), and which files were not."""
    if linked:
        echo(f"staged in SQL: {linked:,} OpenAlex works (every row but the Paper's)")
    if builder_files:
        echo(f"{len(builder_files)} OpenAlex file(s) staged by the row builders alone, e.g. {builder_files[0]}")


def open_engine(options: BuildOptions, work: Path) -> Engine:
    """The engine `options` name, its files under `work`."""
    if options.engine == "duckdb":
        return DuckDBEngine(work, options.memory_limit, options.threads, worker_count(options.workers))
    if options.engine == "spark":
        try:
            from weft.loaders.bulk.spark import SparkEngine
        except ImportError as exc:
            needs = "the Spark engine needs pyspark and sqlglot: pip install 'weft[spark]'"
            raise InvalidInput(f"{needs} ({exc})") from exc
        partitions = max(4, 2 * (options.threads or os.cpu_count() or 2))
        return SparkEngine(work, options.master, options.memory_limit, partitions)
    raise InvalidInput(f"unknown engine {options.engine!r}: choose one of {', '.join(ENGINES)}")


def _gone(t: Transform, plan: Layout, copies: Path) -> None:
    """gone + merged tables from the layout's delete files and merged_ids lists (those in object storage
    copied into `copies` first: engines read them as local CSV)."""
    rows: list[list[object]] = []
    for delete in plan.deletes:
        if delete.dataset not in S2_DELETES:
            t.warnings.append(f"{delete.path}: deletes of S2 dataset {delete.dataset or '?'} are not applied")
            continue
        key_field, label, prop = S2_DELETES[delete.dataset]
        for item in read_records(delete.path):
            record = item.record if isinstance(item, Item) else None
            if is_object(record) and record.get(key_field) is not None:
                value = str(record[key_field]).strip()
                rows.append([label, prop, str(int(value)) if prop == "corpus_id" else value, delete.seq])
    columns = {"label": "VARCHAR", "prop": "VARCHAR", "val": "VARCHAR", "seq": "INTEGER"}
    t.engine.create_table("gone_deletes", columns, rows)
    merged_columns = {"label": "VARCHAR", "id": "VARCHAR", "merge_into_id": "VARCHAR"}
    labels = sorted({label for _, label in plan.merged})
    parts: list[str] = []
    for i, label in enumerate(labels):
        files = [str(local_copy(path, copies)) for path, of in plan.merged if of == label]
        t.engine.load_csv(f"merged_ids_{i}", files, {"id": "VARCHAR", "merge_into_id": "VARCHAR"})
        parts.append(f"SELECT '{label}' AS label, id, merge_into_id FROM merged_ids_{i}")  # noqa: S608 - our labels
    if parts:
        t.run(f"CREATE OR REPLACE TABLE merged_ids AS {' UNION ALL '.join(parts)}")
    else:
        t.engine.create_table("merged_ids", merged_columns, [])
    t.run(sql.MERGED)
    t.run(sql.GONE, always=ALWAYS)


def build_paths(
    paths: Iterable[DataPath | str],
    out: DataPath | str,
    source: str = "auto",
    options: BuildOptions | None = None,
    echo: Echo = print,
    loaded_at: datetime | None = None,
) -> BuildSummary:
    """Build the graph of every record under `paths` into neo4j-admin Parquet files in `out`.

    Files are planned and refused as `weft load` does (loaders.detect.layout); bad records go to
    `out/rejects.jsonl`. Work files live in `out/.work` while the build runs. `loaded_at` (now by
    default) stamps the nodes, so two builds of the same files can be the same bytes.

    `paths` and `out` may be object storage URLs (loaders.storage). Files are read where they are;
    for a URL `out`, the build runs in a local scratch folder (under TMPDIR) and its files are uploaded
    at the end, replacing what was under the URL, manifest.json last.
    """
    target = location(out, "out")
    if isinstance(target, Path):
        return _build(paths, target, source, options or BuildOptions(), echo, loaded_at)
    check_writable(target)
    scratch = Path(tempfile.mkdtemp(prefix="weft-build-"))
    try:
        summary = _build(paths, scratch, source, options or BuildOptions(), echo, loaded_at)
        step = time.monotonic()
        upload(scratch, target, echo)
        summary.steps["upload"] = time.monotonic() - step
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    summary.out = target
    if summary.rejects_file is not None:
        summary.rejects_file = target / "rejects.jsonl"
    return summary


def _build(
    paths: Iterable[DataPath | str],
    out: Path,
    source: str,
    options: BuildOptions,
    echo: Echo,
    loaded_at: datetime | None,
) -> BuildSummary:
    summary = BuildSummary(out=out)
    began = time.monotonic()
    plan = layout(paths, source)
    summary.files = len(plan.data)
    summary.warnings.extend(plan.notes)
    work = out / ".work"
    shutil.rmtree(work, ignore_errors=True)
    stage_dir = work / "rows"
    stage_dir.mkdir(parents=True)
    engine = open_engine(options, work)
    loaded_at = loaded_at or datetime.now(UTC)
    try:
        results = _stage(plan, stage_dir, echo, engine)
        summary.records = sum(r.records for r in results)
        summary.rejected = sum(r.rejected for r in results)
        summary.linked_in_sql = sum(r.linked_in_sql for r in results)
        _note_sql_staging(summary.linked_in_sql, [f for r in results for f in r.builder_files], echo)
        summary.steps["stage"] = time.monotonic() - began
        rejects = [entry for r in results for entry in r.rejects]
        if rejects:
            summary.rejects_file = out / "rejects.jsonl"
            write_rejects(summary.rejects_file, rejects)
        t = Transform(engine, merge_kinds(results), echo, summary.warnings)
        _transform(t, plan, stage_dir, options, summary, loaded_at)
        step = time.monotonic()
        summary.counts = write_import_files(t, out, loaded_at, options.top_ties)["counts"]
        summary.steps["write"] = time.monotonic() - step
    finally:
        engine.close()
        if not options.keep_work:
            shutil.rmtree(work, ignore_errors=True)
    return summary


def _transform(
    t: Transform, plan: Layout, stage_dir: Path, options: BuildOptions, summary: BuildSummary, loaded_at: datetime
) -> None:
    step = time.monotonic()
    t.engine.attach_parquet("nr", sorted(str(p) for p in stage_dir.glob("*.nodes.parquet")), NODE_COLUMNS)
    t.engine.load_parquet("rr", sorted(str(p) for p in stage_dir.glob("*.rels.parquet")), REL_COLUMNS, row_id="rid")
    lookup_tables(t)
    _gone(t, plan, stage_dir.parent / "merged")
    # Both rewrite every staged row: skipped when there is nothing to remove or alias (a dump with no
    # deletes and no merged_ids, such as every synthetic one).
    if t.scalar("SELECT count(*) FROM gone"):
        before = t.scalar("SELECT count(DISTINCT rec) FROM nr")
        t.run(sql.DROP_GONE_RECORDS)
        t.engine.rename("nr_live", "nr")
        summary.removed_records = int(before) - int(t.scalar("SELECT count(DISTINCT rec) FROM nr"))
    if t.scalar("SELECT count(*) FROM merged"):
        t.run(sql.ALIAS_REFERENCES)
    summary.steps["load rows"] = time.monotonic() - step
    for name, run in (
        ("identity", lambda: identity(t)),
        ("node properties", lambda: node_properties(t, loaded_at)),
        ("relationships", lambda: relationships(t)),
    ):
        step = time.monotonic()
        run()
        summary.steps[name] = time.monotonic() - step
        t.echo(f"{name}: {summary.steps[name]:.1f}s")
    step = time.monotonic()
    summary.claims = claims(t)
    derived(t, options.max_authors, options.same_name_cap, options.top_ties)
    summary.steps["claims and derived"] = time.monotonic() - step
    t.echo(f"claims and derived edges: {summary.steps['claims and derived']:.1f}s")
