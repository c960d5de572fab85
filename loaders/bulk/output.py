"""Stage 3 of the bulk path: the transformed tables -> Parquet per node label and relationship
group (one file from DuckDB, a folder of part files from Spark), named with neo4j-admin's header
conventions (`id:ID(Paper)`, `:START_ID(Researcher)`), and `manifest.json`, which
graph/bulk_import.py turns into the import.
"""

from __future__ import annotations

import json
import shutil
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb

from weft.graph.identity.ids import KEY_PROPERTIES
from weft.graph.migrate import BACKFILLS
from weft.loaders.bulk.transform import LABELS, STORED_TYPE, Transform

MANIFEST = "manifest.json"

# Derived relationship tables: (type, start label, end label).
DERIVED = (
    ("CITES", "Paper", "Paper"),
    ("COAUTHORED_WITH", "Researcher", "Researcher"),
    ("TOP_TIE", "Researcher", "Researcher"),
    ("STATES_AFFILIATION", "Paper", "Institution"),
    ("AFFILIATED_WITH", "Researcher", "Institution"),
    ("SAME_NAME_AS", "Researcher", "Researcher"),
)
# Stored relationship tables: (row type, start label, end label).
STORED = (
    ("AUTHORED", "Researcher", "Paper"),
    ("IN_CATEGORY", "Paper", "Category"),
    ("REFERENCES", "Paper", "Ref"),
    ("CATEGORY_PART_OF", "Category", "Category"),
    ("INSTITUTION_PART_OF", "Institution", "Institution"),
    ("LISTED_AFFILIATION", "Researcher", "Institution"),
)
# Stored-table columns that only AUTHORED (claims, institutions) and LISTED_AFFILIATION (years) fill.
_ONLY = {"claimed_sources": "AUTHORED", "institution_ids": "AUTHORED"}


def _select(
    t: Transform,
    table: str,
    heads: dict[str, str],
    extra: dict[str, str] | None = None,
    dropped: frozenset[str] = frozenset(),
) -> str:
    """SELECT of a table's columns in table order: `heads` renamed to neo4j-admin headers, `extra`
    (column: expression) computed, `dropped` left out, the rest as they are."""
    extra = extra or {}
    picked = [f'{c} AS "{heads[c]}"' for c in heads]
    for column in t.engine.columns(table):
        if column not in heads and column not in dropped:
            picked.append(f'{extra[column]} AS "{column}"' if column in extra else f'"{column}"')
    return f"SELECT {', '.join(picked)} FROM {table}"  # noqa: S608 - our own table and column names


def _write(t: Transform, out: Path, stem: str, query: str) -> tuple[list[str], int]:
    files, n = t.engine.write_parquet(query, out, stem)
    if not n:
        for name in files:
            (out / name).unlink(missing_ok=True)
        shutil.rmtree(out / stem, ignore_errors=True)
    return files, n


def _node_files(
    t: Transform, out: Path, loaded_at: datetime, top_ties: int
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    groups: list[dict[str, Any]] = []
    counts: dict[str, int] = {}
    for label in LABELS:
        files, n = _write(t, out, f"nodes_{label}", _select(t, f"props_{label}", {"id": f"id:ID({label})"}))
        if n:
            groups.append({"labels": label, "files": files})
            counts[label] = n
    key_columns = ", ".join(f"max(val) FILTER (WHERE prop = '{p}') AS {p}" for _, p in KEY_PROPERTIES["Paper"])
    refs = f'SELECT "key" AS "key:ID(Ref)", {key_columns} FROM props_Ref GROUP BY "key"'  # noqa: S608
    files, n = _write(t, out, "nodes_Ref", refs)
    if n:
        groups.append({"labels": "Ref", "files": files})
        counts["Ref"] = n
    # The build writes everything the migration's backfills would (sort keys, category ids and edge keys,
    # pair keys, TOP_TIE for `top_ties`): the Meta node says so, and the import does not check it again.
    meta = f"""SELECT 'graph' AS "key:ID(Meta)", CAST(1 AS BIGINT) AS data_version,
                      TIMESTAMPTZ '{loaded_at.isoformat()}' AS loaded_at,
                      CAST({BACKFILLS} AS BIGINT) AS backfilled, CAST({int(top_ties)} AS BIGINT) AS top_ties"""
    files, _ = _write(t, out, "nodes_Meta", meta)
    groups.append({"labels": "Meta", "files": files})
    counts["Meta"] = 1
    return groups, counts


def _stored_query(t: Transform, rel_type: str, start: str, end: str) -> str:
    heads = {"sid": f":START_ID({start})", "eid": f":END_ID({end})"}
    dropped = frozenset(c for c, owner in _ONLY.items() if owner != rel_type)
    extra: dict[str, str] = {}
    if rel_type == "AUTHORED":
        extra["institution_ids"] = "nullif(institution_ids, [])"
    if rel_type == "LISTED_AFFILIATION":
        extra["years"] = "nullif(years, [])"
    return _select(t, f"edge_{rel_type}", heads, extra, dropped)


def _rel_files(t: Transform, out: Path) -> tuple[list[dict[str, Any]], dict[str, int]]:
    groups: list[dict[str, Any]] = []
    counts: dict[str, int] = {}
    queries = [(r, _stored_query(t, r, s, e)) for r, s, e in STORED]
    queries += [(r, _select(t, f"edge_{r}", {"sid": f":START_ID({s})", "eid": f":END_ID({e})"})) for r, s, e in DERIVED]
    for rel_type, query in queries:
        files, n = _write(t, out, f"rels_{rel_type}", query)
        if n:
            stored = STORED_TYPE.get(rel_type, rel_type)
            groups.append({"type": stored, "files": files})
            counts[stored] = counts.get(stored, 0) + n
    return groups, counts


def write_import_files(t: Transform, out: Path, loaded_at: datetime, top_ties: int) -> dict[str, Any]:
    """Every node and relationship file plus manifest.json in `out` (its old Parquet files replaced)."""
    out.mkdir(parents=True, exist_ok=True)
    for stale in [*out.glob("*.parquet"), *out.glob("*.csv")]:
        stale.unlink()
    for stale in [*out.glob("nodes_*"), *out.glob("rels_*")]:
        if stale.is_dir():
            shutil.rmtree(stale)
    nodes, node_counts = _node_files(t, out, loaded_at, top_ties)
    rels, rel_counts = _rel_files(t, out)
    manifest: dict[str, Any] = {
        "input_type": "parquet",
        "nodes": nodes,
        "relationships": rels,
        "counts": dict(sorted({**node_counts, **rel_counts}.items())),
    }
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def _groups(out: Path) -> dict[str, list[str]]:
    """Each manifest group (`nodes Paper`, `rels PART_OF`, `rels PART_OF #2`…) with its files' paths."""
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    found: dict[str, list[str]] = {}
    for group in manifest["nodes"]:
        found[f"nodes {group['labels']}"] = [str(out / f) for f in group["files"]]
    for group in manifest["relationships"]:
        name = f"rels {group['type']}"
        while name in found:
            name += " #2"
        found[name] = [str(out / f) for f in group["files"]]
    return found


def import_file_differences(a: Path, b: Path, ignore_suffix: str | None = None) -> dict[str, str]:
    """How two builds' import files differ, per group (empty: same groups, and each group the same
    columns of the same types and the same rows in any order; columns ending in `ignore_suffix`, such
    as two builds' `loaded_at`, left out). Reads both with DuckDB."""
    ga, gb = _groups(a), _groups(b)
    found = {name: "only in one build" for name in ga.keys() ^ gb.keys()}
    con = duckdb.connect()
    for name in sorted(ga.keys() & gb.keys()):
        described = [
            {r[0]: r[1] for r in con.execute("DESCRIBE SELECT * FROM read_parquet($f)", {"f": files}).fetchall()}
            for files in (ga[name], gb[name])
        ]
        if described[0] != described[1]:
            found[name] = f"columns differ: {described[0]} vs {described[1]}"
            continue
        kept = sorted(c for c in described[0] if not (ignore_suffix and c.endswith(ignore_suffix)))
        columns = ", ".join(f'"{c}"' for c in kept)
        left = f"SELECT {columns} FROM read_parquet($a)"  # noqa: S608 - the files' own column names
        right = f"SELECT {columns} FROM read_parquet($b)"  # noqa: S608
        args = {"a": ga[name], "b": gb[name]}
        only_a = con.execute(f"SELECT count(*) FROM ({left} EXCEPT ALL {right})", args).fetchone()  # noqa: S608
        only_b = con.execute(f"SELECT count(*) FROM ({right} EXCEPT ALL {left})", args).fetchone()  # noqa: S608
        if (only_a, only_b) != ((0,), (0,)):
            found[name] = f"rows differ: {only_a} only in {a}, {only_b} only in {b}"
    return found
