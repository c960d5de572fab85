"""Loading dump files into the graph: plan, read, build rows, write in batches, derive, summarise.

`load_paths` is the one entry point (CLI, tests, demo). `loaders.detect.plan` checks every file and
gives each its source's row builder (a source plugs in there); `loaders.records.record_rows` turns
each record into checked rows or a reject (reported with file and line, the load goes on);
`loaders.write.GraphWriter` writes the rows in batches and recomputes derived data.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from neo4j import Driver

from weft.graph.driver import check_connectivity
from weft.graph.errors import InvalidInput
from weft.graph.migrate import migrate
from weft.graph.settings import Settings
from weft.loaders.derived import DEFAULT_LIMITS, PairLimits, Progress
from weft.loaders.detect import FileFormat, plan
from weft.loaders.reader import read_records
from weft.loaders.records import Rejected, record_rows, write_rejects
from weft.loaders.rows import RecordRows
from weft.loaders.storage import DataPath
from weft.loaders.write import GraphWriter


@dataclass
class FileSummary:
    """What one file gave: records read, written (applied as newest), merged (entity already there),
    rejected (malformed or unusable), seconds spent on it (reading it and the batches written
    meanwhile; a batch may span files, so its last rows may be written with the next file's)."""

    path: str
    source: str
    read: int = 0
    written: int = 0
    merged: int = 0
    rejected: int = 0
    seconds: float = 0.0


@dataclass
class LoadSummary:
    """Totals over every file, per-file summaries, the rejects and identity warnings."""

    files: list[FileSummary] = field(default_factory=list[FileSummary])
    rejects: list[dict[str, str]] = field(default_factory=list[dict[str, str]])
    warnings: list[str] = field(default_factory=list[str])
    seconds: float = 0.0
    derive_seconds: float = 0.0
    data_version: int = 0

    @property
    def read(self) -> int:
        return sum(f.read for f in self.files)

    @property
    def written(self) -> int:
        return sum(f.written for f in self.files)

    @property
    def merged(self) -> int:
        return sum(f.merged for f in self.files)

    @property
    def rejected(self) -> int:
        return sum(f.rejected for f in self.files)


def load_paths(
    driver: Driver,
    paths: Iterable[Path | str],
    *,
    source: str = "auto",
    database: str = "neo4j",
    batch_size: int = Settings.load_batch_size,
    progress: Progress | None = None,
    rejects_path: Path | str | None = None,
    limits: PairLimits = DEFAULT_LIMITS,
    planned: list[tuple[DataPath, FileFormat]] | None = None,
) -> LoadSummary:
    """Load every file under `paths` (folders recursively) and recompute derived data.

    `planned`, when given, is `plan(paths, source)` already made (the CLI checks the files before it takes the
    writer lock, so bad input is refused without a database).

    batch_size counts rows (nodes + relationships) per write transaction. Bad lines/records are
    reported in `summary.rejects` (and as JSON Lines in `rejects_path`), never fatal. `limits` are the
    pair-edge rules (WEFT_PAIR_EDGE_MAX_AUTHORS, WEFT_SAME_NAME_MAX_BUCKET; graph/MODEL.md). Raises
    InvalidInput for unknown files (before writing) and Unavailable when Neo4j cannot be reached.

    `progress(step, done, total)`, when given, hears `("files", done, total)` once the files are
    planned and after each file, `("records", read, 0)` after each record (0: no total known), then
    the writer's derive steps (`GraphWriter.finish`).
    """
    if batch_size < 1:
        raise InvalidInput("batch size must be at least 1", "batch_size")
    started = time.perf_counter()
    if planned is None:
        planned = plan(paths, source)
    check_connectivity(driver)
    migrate(driver, database, recheck=False, top_ties=limits.top_ties)
    load = _Load(GraphWriter(driver, database, limits), batch_size, progress)
    try:
        for done, (path, fmt) in enumerate(planned):
            load.note("files", done, len(planned))
            load.read_file(path, fmt)
        load.note("files", len(planned), len(planned))
        load.flush()  # batches span files: a folder of small files is a few transactions, not one per file
        t_derive = time.perf_counter()
        load.summary.data_version = load.writer.finish(progress)
        load.summary.derive_seconds = time.perf_counter() - t_derive
    finally:
        if rejects_path is not None:
            write_rejects(Path(rejects_path), load.summary.rejects)
    load.summary.seconds = time.perf_counter() - started
    return load.summary


class _Load:
    """One load in flight: the summary so far, and records' rows gathered into write transactions of
    about `batch_size` rows (a batch spans files)."""

    def __init__(self, writer: GraphWriter, batch_size: int, progress: Progress | None) -> None:
        self.writer = writer
        self.batch_size = batch_size
        self.progress = progress
        self.summary = LoadSummary()
        self.read = 0
        self.batch: list[RecordRows] = []
        self.owners: list[FileSummary] = []  # the file of each record in the batch
        self.pending = 0  # rows in the batch

    def note(self, step: str, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress(step, done, total)

    def read_file(self, path: DataPath, fmt: FileFormat) -> None:
        """Read one file, adding its rows to the batch (written whenever it is full) and its rejects."""
        fs = FileSummary(str(path), fmt.source)
        self.summary.files.append(fs)
        t0 = time.perf_counter()
        for item in read_records(path):
            fs.read += 1
            self.read += 1
            rows = record_rows(fmt.build_rows, item)
            if isinstance(rows, Rejected):
                fs.rejected += 1
                self.summary.rejects.append(rows.entry)
            elif rows is not None:
                self.add(rows, fs)
            self.note("records", self.read, 0)
        fs.seconds = time.perf_counter() - t0

    def add(self, rows: RecordRows, fs: FileSummary) -> None:
        self.batch.append(rows)
        self.owners.append(fs)
        self.pending += rows.size()
        if self.pending >= self.batch_size:
            self.flush()

    def flush(self) -> None:
        """Write the batch (if any) in one transaction and count what each record gave."""
        if not self.batch:
            return
        outcome = self.writer.write(self.batch)
        for fs, written, existed in zip(self.owners, outcome.written, outcome.existed, strict=True):
            fs.written += written
            fs.merged += existed
        self.summary.warnings.extend(outcome.warnings)
        self.batch, self.owners, self.pending = [], [], 0
