"""Loading dump files into the graph: read, build rows per source, write in batches, derive, summarise.

`load_paths` is the one entry point (CLI, tests, demo). A source module plugs in by exposing

* `accepts(record) -> bool`: whether a raw record is this source's (files whose first record is not
  accepted are refused before anything is written);
* `build_rows(record) -> loaders.rows.RecordRows | None`: pure; None for a record that writes nothing
  (counted as read only); raise `loaders.rows.RejectedRecord` for a record it cannot use (reported
  with file and line, the load goes on).

and being listed in SOURCE_MODULES. With `source="auto"` the source of each file comes from
`loaders.detect.detect_source(path, first_record)` when that module exists, else from the first
source whose `accepts` says yes.
"""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from neo4j import Driver

from weft.graph.driver import check_connectivity
from weft.graph.errors import InvalidInput
from weft.graph.migrate import migrate
from weft.loaders.reader import Item, Problem, UnknownFormat, data_files, read_records, sniff
from weft.loaders.rows import RecordRows, RejectedRecord
from weft.loaders.write import GraphWriter, check_record

SOURCE_MODULES = {"openalex": "weft.loaders.openalex", "s2": "weft.loaders.s2", "arxiv": "weft.loaders.arxiv"}


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

    files: list[FileSummary] = field(default_factory=list)
    rejects: list[dict[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
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


def source_module(name: str) -> ModuleType:
    """The module building rows for source `name`; InvalidInput for an unknown or missing source."""
    if name not in SOURCE_MODULES:
        raise InvalidInput(f"unknown source {name!r}; expected one of {', '.join(SOURCE_MODULES)} or auto", "source")
    try:
        return importlib.import_module(SOURCE_MODULES[name])
    except ModuleNotFoundError as exc:
        raise InvalidInput(f"the {name} loader is not available ({exc})", "source") from exc


def _detect(path: Path, first: Any) -> str | None:
    try:
        detect = importlib.import_module("weft.loaders.detect")
    except ModuleNotFoundError:
        detect = None
    if detect is not None and hasattr(detect, "detect_source"):
        return detect.detect_source(path, first)
    for name in SOURCE_MODULES:
        try:
            if source_module(name).accepts(first):
                return name
        except InvalidInput:
            continue
    return None


def _load_order(path: Path, first: Any) -> int:
    """`loaders.detect.load_order`: 1 for files whose rows only attach to papers (S2 citations…)."""
    detect = importlib.import_module("weft.loaders.detect")
    return detect.load_order(path, first) if hasattr(detect, "load_order") else 0


def plan(paths: Iterable[Path | str], source: str = "auto") -> list[tuple[Path, str]]:
    """(file, source) for every data file under `paths`; InvalidInput naming every file refused.

    Reads only the start of each file; nothing is written.
    """
    try:
        files = data_files(paths)
    except FileNotFoundError as exc:
        raise InvalidInput(str(exc), "path") from exc
    if not files:
        raise InvalidInput("no data files under the given paths", "path")
    planned: list[tuple[Path, str]] = []
    refused: list[str] = []
    load_order: dict[Path, int] = {}
    for path in files:
        try:
            _, first = sniff(path)
        except UnknownFormat as exc:
            refused.append(str(exc))
            continue
        name = source if source != "auto" else _detect(path, first)
        if name is None:
            refused.append(f"{path}: not OpenAlex, Semantic Scholar or arXiv data")
            continue
        if not source_module(name).accepts(first):
            refused.append(f"{path}: not {name} data (first record does not look like one)")
            continue
        planned.append((path, name))
        load_order[path] = _load_order(path, first)
    if refused:
        raise InvalidInput("refused, nothing was written:\n  " + "\n  ".join(refused), "path")
    return sorted(planned, key=lambda pn: load_order[pn[0]])  # files that attach to papers go last


def load_paths(
    driver: Driver,
    paths: Iterable[Path | str],
    *,
    source: str = "auto",
    database: str = "neo4j",
    batch_size: int = 5000,
    progress: bool = False,
    rejects_path: Path | str | None = None,
) -> LoadSummary:
    """Load every file under `paths` (folders recursively) and recompute derived data.

    batch_size counts rows (nodes + relationships) per write transaction. Bad lines/records are
    reported in `summary.rejects` (and as JSON Lines in `rejects_path`), never fatal. Raises
    InvalidInput for unknown files (before writing) and Unavailable when Neo4j cannot be reached.
    """
    if batch_size < 1:
        raise InvalidInput("batch size must be at least 1", "batch_size")
    started = time.perf_counter()
    planned = plan(paths, source)
    check_connectivity(driver)
    migrate(driver, database)
    summary = LoadSummary()
    writer = GraphWriter(driver, database)
    bar = _Progress(len(planned)) if progress else None
    batch: list[RecordRows] = []
    owners: list[FileSummary] = []
    pending = 0

    def flush() -> None:
        nonlocal pending
        if not batch:
            return
        outcome = writer.write(batch)
        for fs, written, existed in zip(owners, outcome.written, outcome.existed, strict=True):
            fs.written += written
            fs.merged += existed
        summary.warnings.extend(outcome.warnings)
        batch.clear()
        owners.clear()
        pending = 0

    try:
        for path, name in planned:
            module = source_module(name)
            fs = FileSummary(str(path), name)
            summary.files.append(fs)
            t0 = time.perf_counter()
            for item in read_records(path):
                fs.read += 1
                rows = _build(module, item, summary, fs)
                if rows is not None:
                    batch.append(rows)
                    owners.append(fs)
                    pending += rows.size()
                    if pending >= batch_size:
                        flush()
                if bar:
                    bar.advance_record()
            fs.seconds = time.perf_counter() - t0
            if bar:
                bar.advance_file(path)
        flush()  # batches span files: a folder of small files is a few transactions, not one per file
        t_derive = time.perf_counter()
        if bar:
            bar.deriving()
        summary.data_version = writer.finish(bar.derive_step if bar else None)
        summary.derive_seconds = time.perf_counter() - t_derive
    finally:
        if bar:
            bar.stop()
        if rejects_path is not None:
            _write_rejects(Path(rejects_path), summary.rejects)
    summary.seconds = time.perf_counter() - started
    return summary


def _build(module: ModuleType, item: Item | Problem, summary: LoadSummary, fs: FileSummary) -> RecordRows | None:
    """Rows for one item, or None after recording why it was rejected."""
    if isinstance(item, Problem):
        fs.rejected += 1
        summary.rejects.append(item.as_json())
        return None
    try:
        rows = module.build_rows(item.record)
        if rows is None:  # read and counted, writes nothing by design (an S2 paper-ids row…)
            return None
        check_record(rows)
    except (RejectedRecord, KeyError, TypeError, ValueError, AttributeError) as exc:
        fs.rejected += 1
        reason = str(exc) if isinstance(exc, RejectedRecord) else f"{exc.__class__.__name__}: {exc}"
        raw = json.dumps(item.record, ensure_ascii=False, default=str)[:2000]
        summary.rejects.append({"file": str(item.path), "where": item.where, "reason": reason, "raw": raw})
        return None
    return rows


def _write_rejects(path: Path, rejects: list[dict[str, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for reject in rejects:
            fh.write(json.dumps(reject, ensure_ascii=False) + "\n")


class _Progress:
    """A rich progress display: files done, records read and records/s, then the derive steps."""

    def __init__(self, files: int) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self.progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[records]} records · {task.fields[rate]} records/s"),
            TimeElapsedColumn(),
            transient=False,
        )
        self.started = time.perf_counter()
        self.records = 0
        self.task = self.progress.add_task("files", total=files, records=0, rate="-")
        self.derive_task = None
        self.progress.start()

    def _fields(self) -> dict[str, Any]:
        elapsed = max(time.perf_counter() - self.started, 1e-6)
        return {"records": self.records, "rate": f"{self.records / elapsed:,.0f}"}

    def advance_record(self) -> None:
        self.records += 1
        if self.records % 50 == 0:
            self.progress.update(self.task, **self._fields())

    def advance_file(self, path: Path) -> None:
        self.progress.update(self.task, advance=1, description=f"files ({path.name})", **self._fields())

    def deriving(self) -> None:
        self.progress.update(self.task, description="files", **self._fields())

    def derive_step(self, name: str, done: int, total: int) -> None:
        if self.derive_task is None:
            self.derive_task = self.progress.add_task("derived", total=total, records="-", rate="-")
        self.progress.update(self.derive_task, description=f"derived {name}", completed=done, total=total)

    def stop(self) -> None:
        self.progress.stop()
