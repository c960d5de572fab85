"""`weft build`: dump files -> neo4j-admin Parquet input, the same graph `weft load` builds.

1. stage (loaders/bulk/stage.py): each data file through the online loader's row builders, in
   parallel worker processes, to Parquet row chunks;
2. transform (loaders/bulk/transform.py, SQL in loaders/bulk/sql.py): DuckDB joins the rows into
   nodes and edges (identity, who wins, claims, derived edges, the pair rule), within `memory_limit`;
3. output (loaders/bulk/output.py): one Parquet file per label and relationship type + manifest.json.

Layouts (loaders.detect.layout): S2 diff delete files and OpenAlex merged_ids drop the records of
the entities they remove; references to a merged work point at the work it was merged into.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from weft.graph.settings import Settings
from weft.loaders.bulk import sql
from weft.loaders.bulk.output import write_import_files
from weft.loaders.bulk.stage import StageFile, StageResult, merge_kinds, stage_task, tasks_for, worker_count
from weft.loaders.bulk.transform import (
    Transform,
    claims,
    connect,
    derived,
    identity,
    lookup_tables,
    node_properties,
    relationships,
)
from weft.loaders.detect import S2_DELETES, Layout, layout
from weft.loaders.reader import Item, is_object, read_records
from weft.loaders.records import write_rejects

# Merged ids apply to every file, whatever its diff sequence.
ALWAYS = 1 << 30
Echo = Callable[[str], object]


@dataclass(frozen=True)
class BuildOptions:
    """How a build runs (defaults from Settings: WEFT_BULK_* and the pair rule's limits)."""

    memory_limit: str = "2GB"
    threads: int = 0  # DuckDB threads; 0: DuckDB's default (one per core)
    workers: int = 0  # staging processes; 0: one per core
    max_authors: int = Settings.pair_edge_max_authors
    same_name_cap: int = Settings.same_name_max_bucket
    keep_work: bool = False  # keep the staged rows and the DuckDB file (for debugging)

    @classmethod
    def of(cls, settings: Settings) -> BuildOptions:
        return cls(
            memory_limit=settings.bulk_memory_limit,
            threads=settings.bulk_threads,
            workers=settings.bulk_workers,
            max_authors=settings.pair_edge_max_authors,
            same_name_cap=settings.same_name_max_bucket,
        )


@dataclass
class BuildSummary:
    """What one build read and wrote, and where the time went (seconds per step)."""

    files: int = 0
    records: int = 0
    rejected: int = 0
    removed_records: int = 0
    claims: int = 0
    counts: dict[str, int] = field(default_factory=dict[str, int])
    steps: dict[str, float] = field(default_factory=dict[str, float])
    warnings: list[str] = field(default_factory=list[str])
    rejects_file: Path | None = None
    out: Path | None = None

    @property
    def seconds(self) -> float:
        return sum(self.steps.values())


def _stage(plan: Layout, stage_dir: Path, workers: int, echo: Echo) -> list[StageResult]:
    files = [StageFile(i, path, fmt.source, seq) for i, (path, fmt, seq) in enumerate(plan.data)]
    tasks = tasks_for(files, stage_dir, workers)
    results: list[StageResult] = []

    def note(result: StageResult) -> None:
        results.append(result)
        echo(f"staged {len(results)}/{len(tasks)} parts, {sum(r.records for r in results):,} records")

    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            note(stage_task(task))
        return results
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
        for result in pool.map(stage_task, tasks):
            note(result)
    return results


def _gone(t: Transform, plan: Layout) -> None:
    """gone + merged tables from the layout's delete files and merged_ids lists."""
    t.run(sql.CREATE_GONE)
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
    if rows:
        t.con.executemany("INSERT INTO gone VALUES (?, ?, ?, ?)", rows)
    t.run("CREATE OR REPLACE TABLE merged (label VARCHAR, id VARCHAR, target VARCHAR)")
    for path, label in plan.merged:
        t.run(
            f"""INSERT INTO merged SELECT '{label}', regexp_extract(id, '([WAI][0-9]+)$', 1),
                       regexp_extract(merge_into_id, '([WAI][0-9]+)$', 1)
                FROM read_csv('{path}', header = true, all_varchar = true)"""  # noqa: S608 - our paths
        )
    t.run(f"INSERT INTO gone SELECT label, 'openalex_id', id, {ALWAYS} FROM merged WHERE id <> ''")  # noqa: S608


def build_paths(
    paths: Iterable[Path | str],
    out: Path,
    source: str = "auto",
    options: BuildOptions | None = None,
    echo: Echo = print,
) -> BuildSummary:
    """Build the graph of every record under `paths` into neo4j-admin Parquet files in `out`.

    Files are planned and refused as `weft load` does (loaders.detect.layout); bad records go to
    `out/rejects.jsonl`. Work files live in `out/.work` while the build runs.
    """
    options = options or BuildOptions()
    summary = BuildSummary(out=out)
    began = time.monotonic()
    plan = layout(paths, source)
    summary.files = len(plan.data)
    summary.warnings.extend(plan.notes)
    work = out / ".work"
    shutil.rmtree(work, ignore_errors=True)
    stage_dir = work / "rows"
    stage_dir.mkdir(parents=True)
    results = _stage(plan, stage_dir, worker_count(options.workers), echo)
    summary.records = sum(r.records for r in results)
    summary.rejected = sum(r.rejected for r in results)
    summary.steps["stage"] = time.monotonic() - began
    rejects = [entry for r in results for entry in r.rejects]
    if rejects:
        summary.rejects_file = out / "rejects.jsonl"
        write_rejects(summary.rejects_file, rejects)
    con = connect(work, options.memory_limit, options.threads)
    t = Transform(con, merge_kinds(results), echo, summary.warnings)
    loaded_at = datetime.now(UTC)
    try:
        _transform(t, plan, stage_dir, options, summary, loaded_at)
        step = time.monotonic()
        summary.counts = write_import_files(t, out, loaded_at)["counts"]
        summary.steps["write"] = time.monotonic() - step
    finally:
        con.close()
        if not options.keep_work:
            shutil.rmtree(work, ignore_errors=True)
    return summary


def _transform(
    t: Transform, plan: Layout, stage_dir: Path, options: BuildOptions, summary: BuildSummary, loaded_at: datetime
) -> None:
    step = time.monotonic()
    t.run(sql.LOAD_NODE_ROWS, files=sorted(str(p) for p in stage_dir.glob("*.nodes.parquet")))
    rel_files = sorted(str(p) for p in stage_dir.glob("*.rels.parquet"))
    if rel_files:
        t.run(sql.LOAD_REL_ROWS, files=rel_files)
    else:
        t.run(sql.EMPTY_REL_ROWS)
    lookup_tables(t)
    _gone(t, plan)
    before = t.scalar("SELECT count(DISTINCT rec) FROM nr")
    t.run(sql.DROP_GONE_RECORDS)
    t.run(sql.ALIAS_REFERENCES)
    summary.removed_records = int(before) - int(t.scalar("SELECT count(DISTINCT rec) FROM nr"))
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
    derived(t, options.max_authors, options.same_name_cap)
    summary.steps["claims and derived"] = time.monotonic() - step
    t.echo(f"claims and derived edges: {summary.steps['claims and derived']:.1f}s")
