"""Stage 1 of the bulk path: every record of one file through the online loader's own row builders
(loaders/openalex.py, s2.py, arxiv.py and loaders.records.record_rows), written as flat node and
relationship rows to Parquet, a chunk of records at a time (memory stays flat whatever the file). An
OpenAlex works file is read by DuckDB too, which stages all but each work's Paper row in SQL, the same
rows the builders would (loaders/bulk/links.py).

One call stages one file, so files are staged in parallel worker processes. Everything across
records (identity, who wins, derived edges) is the transform's (loaders/bulk/transform.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

import duckdb
import orjson

from weft.graph.identity.ids import KEY_RANK, canonical_keys, internal_id
from weft.loaders.bulk.links import LinkStager, LinksUnread, columns_struct
from weft.loaders.detect import builder
from weft.loaders.openalex import build_rows_without_links
from weft.loaders.reader import Item, Problem, read_records
from weft.loaders.records import Rejected, record_rows
from weft.loaders.rows import RecordRows
from weft.loaders.storage import DataPath
from weft.loaders.write import LABEL_ORDER, row_ranks

# `kinds` names a source property `<label>/source.<prop>` (a shared one `<label>.<prop>`).
SOURCE_SUFFIX = "/source"
# Records per staged chunk: one chunk's rows are all this process holds.
CHUNK_RECORDS = 5000
# Record numbers are <file ordinal> * RECORD_SPAN + <record in file>: unique across the run.
RECORD_SPAN = 1 << 36
# Files smaller than this share a staging task (a folder of small files is a few tasks, not thousands).
TASK_BYTES = 8 << 20

_LABEL_POSITION = {label: i for i, label in enumerate(LABEL_ORDER)}

NODE_COLUMNS = {
    "rec": "BIGINT",
    "idx": "INTEGER",
    "label": "VARCHAR",
    "rowkey": "VARCHAR",
    "source": "VARCHAR",
    "level": "INTEGER",
    "srank": "VARCHAR",
    "rrank": "VARCHAR",
    "first": "BOOLEAN",
    "owns": "VARCHAR[]",
    "props": "JSON",
    "sprops": "JSON",
    "alt": "VARCHAR[]",
    "keys": "STRUCT(prop VARCHAR, val VARCHAR, iid VARCHAR, krank INTEGER)[]",
    "seq": "INTEGER",
}
REL_COLUMNS = {
    "rec": "BIGINT",
    "type": "VARCHAR",
    "start": "VARCHAR",
    "end": "VARCHAR",
    "owner": "INTEGER",
    "source": "VARCHAR",
    "props": "JSON",
    "inst": "VARCHAR[]",
}


@dataclass(frozen=True)
class StageFile:
    """One file to stage: its ordinal in the run, path, source, diff sequence (0 for a base dump)."""

    ordinal: int
    path: DataPath
    source: str
    seq: int = 0


@dataclass(frozen=True)
class StageTask:
    """The files one worker stages in a row (small files share a task), and where to write."""

    number: int
    files: tuple[StageFile, ...]
    out_dir: Path
    sql_links: bool = True  # OpenAlex works staged in SQL but for their Paper rows (loaders/bulk/links.py)


@dataclass
class StageResult:
    """What staging one file read and wrote; `kinds` maps `label.prop` to the value kinds seen."""

    task: int
    records: int = 0
    rejected: int = 0
    rejects: list[dict[str, str]] = field(default_factory=list[dict[str, str]])
    files: list[str] = field(default_factory=list[str])
    kinds: dict[str, set[str]] = field(default_factory=dict[str, set[str]])
    linked_in_sql: int = 0  # OpenAlex works whose rows but the Paper row were staged in SQL
    builder_files: list[str] = field(default_factory=list[str])  # OpenAlex files SQL could not read, why


def value_kind(value: object) -> str:
    """The staged type of a property value: bool, int, float, str, or `<kind>[]` for a list (pure).

    >>> value_kind(["v1"]), value_kind(2001), value_kind([])
    ('str[]', 'int', '[]')
    """
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, list | tuple):
        inner = {value_kind(v) for v in cast("Sequence[object]", value)}
        return (inner.pop() if len(inner) == 1 else "str") + "[]" if inner else "[]"
    return "str"


def _note_kinds(kinds: dict[str, set[str]], prefix: str, props: dict[str, Any]) -> None:
    for name, value in props.items():
        kind = _SCALAR_KINDS.get(type(cast(object, value))) or value_kind(value)
        seen = kinds.get(_kind_name(prefix, name))
        if seen is None:
            kinds[_kind_name(prefix, name)] = {kind}
        elif kind not in seen:
            seen.add(kind)


@lru_cache(maxsize=4096)
def _kind_name(prefix: str, name: str) -> str:
    """`<prefix>.<name>`, made once per pair (a few dozen pairs, millions of properties)."""
    return f"{prefix}.{name}"


_SCALAR_KINDS: dict[type, str] = {bool: "bool", int: "int", float: "float", str: "str"}


@lru_cache(maxsize=1 << 18)
def _internal_id(label: str, key: str) -> str:
    """internal_id, cached (~50 MB at most): authors, institutions and categories recur across records."""
    return internal_id(label, key)


def node_rows(rec: int, rows: RecordRows, seq: int, kinds: dict[str, set[str]]) -> list[dict[str, Any]]:
    """The staged node rows of one record (pure but for `kinds`, which it extends): keys with their
    internal ids and key ranks, the ranks of loaders.write.row_ranks, and `first`, whether the row is
    the best-ranked one of its (node, source) in the record (the one the online writer applies)."""
    out: list[dict[str, Any]] = []
    ranks = [row_ranks(row) for row in rows.nodes]
    seen: set[tuple[str, str, str]] = set()
    row_keys = [row.key for row in rows.nodes]
    order = sorted(
        range(len(rows.nodes)),
        key=lambda i: (_LABEL_POSITION[rows.nodes[i].label], ranks[i][1]),
        reverse=True,
    )
    firsts: set[int] = set()
    for i in order:
        row = rows.nodes[i]
        mark = (row.label, row_keys[i], row.source)
        if mark not in seen:
            seen.add(mark)
            firsts.add(i)
    for i, row in enumerate(rows.nodes):
        props = {k: v for k, v in row.props.items() if v is not None and k != "alt_names"}
        sprops = {k: v for k, v in row.source_props.items() if v is not None}
        _note_kinds(kinds, row.label, props)
        _note_kinds(kinds, row.label + SOURCE_SUFFIX, sprops)
        names = [str(n) for n in row.props.get("alt_names") or ()]
        keys = [(prop, str(value)) for prop, value in row.keys.items() if value]
        keys.sort(key=lambda kv: KEY_RANK[row.label][kv[0]])
        out.append(
            {
                "rec": rec,
                "idx": i,
                "label": row.label,
                "rowkey": row_keys[i],
                "source": row.source,
                "level": row.level,
                "srank": ranks[i][0],
                "rrank": ranks[i][1],
                "first": i in firsts,
                "owns": list(row.owns),
                "props": props,
                "sprops": sprops,
                "alt": names or None,
                "keys": [
                    {"prop": k, "val": v, "iid": _internal_id(row.label, ck), "krank": KEY_RANK[row.label][k]}
                    for (k, v), ck in zip(keys, canonical_keys(row.label, dict(keys)), strict=True)
                ],
                "seq": seq,
            }
        )
    return out


def rel_rows(rec: int, rows: RecordRows, kinds: dict[str, set[str]]) -> list[dict[str, Any]]:
    """The staged relationship rows of one record (pure but for `kinds`)."""
    out: list[dict[str, Any]] = []
    for rel in rows.rels:
        props = {k: v for k, v in rel.props.items() if v is not None and k != "institution_keys"}
        _note_kinds(kinds, rel.type, props)
        inst = rel.props.get("institution_keys")
        out.append(
            {
                "rec": rec,
                "type": rel.type,
                "start": rel.start,
                "end": rel.end,
                "owner": rel.owner,
                "source": rows.nodes[rel.owner if rel.owner is not None else 0].source,
                "props": props,
                "inst": list(inst) if inst is not None else None,
            }
        )
    return out


def _flush(con: duckdb.DuckDBPyConnection, lines: list[bytes], columns: dict[str, str], target: Path) -> None:
    """One chunk of rows: JSON Lines in a scratch file, read back with explicit types into Parquet."""
    scratch = target.with_suffix(".jsonl")
    scratch.write_bytes(b"".join(lines))
    con.execute(
        f"COPY (SELECT * FROM read_json('{scratch}', format='newline_delimited', "  # noqa: S608 - our paths
        f"columns={columns_struct(columns)})) TO '{target}' (FORMAT parquet, COMPRESSION zstd)"
    )
    scratch.unlink()


class _Chunks:
    """Rows gathered a chunk at a time, each chunk written as a pair of Parquet files."""

    def __init__(self, task: StageTask, result: StageResult) -> None:
        self.task = task
        self.result = result
        self.con = duckdb.connect(config={"threads": 1, "memory_limit": "256MB"})
        self.nodes: list[bytes] = []
        self.rels: list[bytes] = []
        self.records = 0
        self.number = 0

    def add(self, rec: int, rows: RecordRows, seq: int) -> None:
        self.nodes.extend(orjson.dumps(r) + b"\n" for r in node_rows(rec, rows, seq, self.result.kinds))
        self.rels.extend(orjson.dumps(r) + b"\n" for r in rel_rows(rec, rows, self.result.kinds))
        self.records += 1
        if self.records % CHUNK_RECORDS == 0:
            self.flush()

    def flush(self) -> None:
        if not self.nodes:
            return
        stem = f"t{self.task.number:06d}-{self.number:05d}"
        _flush(self.con, self.nodes, NODE_COLUMNS, self.task.out_dir / f"{stem}.nodes.parquet")
        if self.rels:
            _flush(self.con, self.rels, REL_COLUMNS, self.task.out_dir / f"{stem}.rels.parquet")
        self.result.files.append(stem)
        self.nodes.clear()
        self.rels.clear()
        self.number += 1


def stage_task(task: StageTask) -> StageResult:
    """Stage a task's files: Parquet chunks of node and relationship rows in `task.out_dir`, and rejects."""
    result = StageResult(task.number)
    chunks = _Chunks(task, result)
    for file in task.files:
        links = _link_stager(task, file, result)
        build_rows = builder(file.source)
        for n, item in enumerate(read_records(file.path)):
            result.records += 1
            rec = file.ordinal * RECORD_SPAN + n
            rows = _linked_rows(links, item, rec, file.seq) if links is not None else None
            if rows is None:
                rows = record_rows(build_rows, item)
            else:
                result.linked_in_sql += isinstance(rows, RecordRows)
            if isinstance(rows, Rejected):
                result.rejected += 1
                result.rejects.append(rows.entry)
            elif rows is not None:
                chunks.add(rec, rows, file.seq)
        if links is not None:
            stem = f"t{task.number:06d}-f{file.ordinal:06d}"
            for name, kinds in links.write(task.out_dir / stem).items():
                result.kinds.setdefault(name, set()).update(kinds)
            result.files.append(stem)
            links.close()
    chunks.flush()
    chunks.con.close()
    return result


def _link_stager(task: StageTask, file: StageFile, result: StageResult) -> LinkStager | None:
    """The SQL stager of an OpenAlex file (None for other sources, or, noted in `result`, a file DuckDB
    cannot read as one JSON object per line)."""
    if not task.sql_links or file.source != "openalex":
        return None
    try:
        return LinkStager.open(file.path, task.out_dir)
    except LinksUnread as exc:
        result.builder_files.append(f"{file.path}: {exc}")
        return None


def _linked_rows(links: LinkStager, item: Item | Problem, rec: int, seq: int) -> RecordRows | Rejected | None:
    """A work's Paper row (or its reject) when the rest of its rows are staged in SQL; None when the
    record needs the full builder."""
    if not isinstance(item, Item) or not links.takes(item.record):
        return None
    rows = record_rows(build_rows_without_links, item)
    if isinstance(rows, RecordRows) and not links.claim(item.record["id"], rec, rows.nodes[0].key, seq):
        return None
    return rows


def tasks_for(files: list[StageFile], out_dir: Path) -> list[StageTask]:
    """One task per file of 8 MB or more; smaller files share tasks of about 8 MB (in file order). Tasks are
    numbered in file order and listed largest first: a worker that frees up takes the largest task left, so no
    large file starts last while the other workers sit idle (the staging of a 1M build ended with one
    worker on its own for ~30 s when files went in groups, in file order)."""
    sizes = [f.path.stat().st_size for f in files]
    groups: list[tuple[list[StageFile], int]] = []
    group: list[StageFile] = []
    held = 0
    for file, size in zip(files, sizes, strict=True):
        if size >= TASK_BYTES:
            groups.append(([file], size))
            continue
        group.append(file)
        held += size
        if held >= TASK_BYTES:
            groups.append((group, held))
            group, held = [], 0
    if group:
        groups.append((group, held))
    sized = [(StageTask(n, tuple(group), out_dir), size) for n, (group, size) in enumerate(groups)]
    return [task for task, _ in sorted(sized, key=lambda pair: pair[1], reverse=True)]  # stable: ties in file order


def merge_kinds(results: Iterable[StageResult]) -> dict[str, set[str]]:
    """Every `label.prop` (or `TYPE.prop`) with the value kinds any file gave it."""
    merged: dict[str, set[str]] = {}
    for result in results:
        for name, kinds in result.kinds.items():
            merged.setdefault(name, set()).update(kinds)
    return merged


def worker_count(requested: int) -> int:
    """Staging processes: `requested`, or one per available core when 0."""
    if requested > 0:
        return requested
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)
