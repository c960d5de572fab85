"""Stage 3 of the bulk path: the transformed tables -> one Parquet file per node label and
relationship group, named with neo4j-admin's header conventions (`id:ID(Paper)`,
`:START_ID(Researcher)`), and `manifest.json`, which graph/bulk_import.py turns into the import.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from weft.graph.identity.ids import KEY_PROPERTIES
from weft.loaders.bulk.transform import LABELS, STORED_TYPE, Transform

MANIFEST = "manifest.json"

# Derived relationship tables: (type, start label, end label).
DERIVED = (
    ("CITES", "Paper", "Paper"),
    ("COAUTHORED_WITH", "Researcher", "Researcher"),
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


def _copy(t: Transform, query: str, path: Path) -> int:
    t.run(f"COPY ({query}) TO '{path}' (FORMAT parquet, COMPRESSION zstd)")
    return int(t.scalar(f"SELECT count(*) FROM read_parquet('{path}')"))  # noqa: S608 - our own path


def _node_files(t: Transform, out: Path, loaded_at: datetime) -> tuple[list[dict[str, Any]], dict[str, int]]:
    groups: list[dict[str, Any]] = []
    counts: dict[str, int] = {}
    for label in LABELS:
        name = f"nodes_{label}.parquet"
        n = _copy(t, f'SELECT id AS "id:ID({label})", * EXCLUDE (id) FROM props_{label}', out / name)  # noqa: S608
        if n:
            groups.append({"labels": label, "files": [name]})
            counts[label] = n
    key_columns = ", ".join(f"max(val) FILTER (WHERE prop = '{p}') AS {p}" for _, p in KEY_PROPERTIES["Paper"])
    refs = f'SELECT "key" AS "key:ID(Ref)", {key_columns} FROM props_Ref GROUP BY "key"'  # noqa: S608
    n = _copy(t, refs, out / "nodes_Ref.parquet")
    if n:
        groups.append({"labels": "Ref", "files": ["nodes_Ref.parquet"]})
        counts["Ref"] = n
    meta = f"""SELECT 'graph' AS "key:ID(Meta)", CAST(1 AS BIGINT) AS data_version,
                      TIMESTAMPTZ '{loaded_at.isoformat()}' AS loaded_at"""
    _copy(t, meta, out / "nodes_Meta.parquet")
    groups.append({"labels": "Meta", "files": ["nodes_Meta.parquet"]})
    counts["Meta"] = 1
    return groups, counts


def _stored_query(rel_type: str, start: str, end: str) -> str:
    drop = [c for c, owner in _ONLY.items() if owner != rel_type]
    extra = ""
    if rel_type == "AUTHORED":
        drop.append("institution_ids")
        extra = ", nullif(institution_ids, []) AS institution_ids"
    if rel_type == "LISTED_AFFILIATION":
        drop.append("years")
        extra = ", nullif(years, []) AS years"
    exclude = ", ".join(["sid", "eid", *drop])
    return (
        f'SELECT sid AS ":START_ID({start})", eid AS ":END_ID({end})", * EXCLUDE ({exclude}){extra} '  # noqa: S608
        f"FROM edge_{rel_type}"
    )


def _rel_files(t: Transform, out: Path) -> tuple[list[dict[str, Any]], dict[str, int]]:
    groups: list[dict[str, Any]] = []
    counts: dict[str, int] = {}
    queries = [(r, _stored_query(r, s, e)) for r, s, e in STORED]
    queries += [
        (r, f'SELECT sid AS ":START_ID({s})", eid AS ":END_ID({e})", * EXCLUDE (sid, eid) FROM edge_{r}')  # noqa: S608
        for r, s, e in DERIVED
    ]
    for rel_type, query in queries:
        name = f"rels_{rel_type}.parquet"
        n = _copy(t, query, out / name)
        if n:
            stored = STORED_TYPE.get(rel_type, rel_type)
            groups.append({"type": stored, "files": [name]})
            counts[stored] = counts.get(stored, 0) + n
    return groups, counts


def write_import_files(t: Transform, out: Path, loaded_at: datetime) -> dict[str, Any]:
    """Every node and relationship file plus manifest.json in `out` (its old Parquet files replaced)."""
    out.mkdir(parents=True, exist_ok=True)
    for stale in [*out.glob("*.parquet"), *out.glob("*.csv")]:
        stale.unlink()
    nodes, node_counts = _node_files(t, out, loaded_at)
    rels, rel_counts = _rel_files(t, out)
    manifest: dict[str, Any] = {
        "input_type": "parquet",
        "nodes": nodes,
        "relationships": rels,
        "counts": dict(sorted({**node_counts, **rel_counts}.items())),
    }
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest
