"""Typed header + data CSV files for `neo4j-admin database import full`, from an in-memory graph.

`GraphBuffer` holds nodes per label (by their id-space key) and relationships per
(type, start label, end label); `write_import_csv` writes one header file and one data file
per group, with typed columns (`year:long`, `versions:string[]`, `id:ID(Paper)`), and a
`manifest.json` that `graph.bulk_import` turns into the `neo4j-admin` arguments.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TypedDict, TypeGuard

# Between array elements: a control character no real title, name or id contains.
ARRAY_DELIMITER = "\x1f"
ARRAY_DELIMITER_ARG = "U+001F"
MANIFEST = "manifest.json"
# The property that is the node's import id, per label (every other label uses `id`).
ID_PROPERTY = {"Ref": "key", "Meta": "key"}

# The properties of one node or relationship, by name.
Props = dict[str, Any]


class NodeGroup(TypedDict):
    """One node label's header and data file names."""

    labels: str
    files: list[str]


class RelGroup(TypedDict):
    """One relationship group's header and data file names, and its type."""

    type: str
    files: list[str]


class Manifest(TypedDict):
    """manifest.json: the file groups, the data files with fields spanning lines, the counts."""

    nodes: list[NodeGroup]
    relationships: list[RelGroup]
    multiline_files: list[str]
    counts: dict[str, int]
    array_delimiter: str


@dataclass
class GraphBuffer:
    """Nodes by label and id, relationships by (type, start label, end label) and end ids."""

    nodes: dict[str, dict[str, Props]] = field(default_factory=dict[str, dict[str, Props]])
    relationships: dict[tuple[str, str, str], dict[tuple[str, str], Props]] = field(
        default_factory=dict[tuple[str, str, str], dict[tuple[str, str], Props]]
    )

    def node(self, label: str, key: str) -> Props | None:
        """The properties of one node, or None."""
        return self.nodes.get(label, {}).get(key)

    def put_node(self, label: str, props: Props) -> Props:
        """Store (or replace) a node; its id property must be set. Returns the stored dict."""
        key = props[ID_PROPERTY.get(label, "id")]
        self.nodes.setdefault(label, {})[key] = props
        return props

    def put_relationship(self, rel_type: str, start: tuple[str, str], end: tuple[str, str], props: Props) -> None:
        """Store (or replace) the one relationship of a type between two nodes."""
        group = self.relationships.setdefault((rel_type, start[0], end[0]), {})
        group[(start[1], end[1])] = props

    def counts(self) -> dict[str, int]:
        """`{'Paper': n, ..., 'AUTHORED': m}` like graph.migrate.counts (labels are single here)."""
        found: dict[str, int] = {label: len(nodes) for label, nodes in self.nodes.items() if nodes}
        for (rel_type, _, _), rels in self.relationships.items():
            if rels:
                found[rel_type] = found.get(rel_type, 0) + len(rels)
        return dict(sorted(found.items()))


def _is_list(value: object) -> TypeGuard[list[object] | tuple[object, ...]]:
    """A list property value (an array column)."""
    return isinstance(value, list | tuple)


def column_type(label: str, prop: str, values: Iterable[object]) -> str:
    """The neo4j-admin type of a property from every non-null value it takes (pure).

    >>> column_type("Paper", "year", [2001, 2020])
    'long'
    >>> column_type("Paper", "versions", [["v1@2007-04-02"], []])
    'string[]'
    """
    kinds: set[str] = set()
    for value in values:
        if value is None:
            continue
        if _is_list(value):
            inner = {_scalar_kind(label, prop, v) for v in value}
            kinds.add((inner.pop() if len(inner) == 1 else _merge_kinds(label, prop, inner) if inner else "?") + "[]")
        else:
            kinds.add(_scalar_kind(label, prop, value))
    if not kinds:
        return "string"
    arrays = {k for k in kinds if k.endswith("[]")}
    if arrays and arrays != kinds:
        raise ValueError(f"{label}.{prop} mixes lists and single values")
    if arrays:
        inner = {k[:-2] for k in arrays} - {"?"}
        return (_merge_kinds(label, prop, inner) if inner else "string") + "[]"
    return _merge_kinds(label, prop, kinds)


def _scalar_kind(label: str, prop: str, value: object) -> str:
    if isinstance(value, datetime):
        return "datetime"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "long"
    if isinstance(value, float):
        return "double"
    if isinstance(value, str):
        return "string"
    raise ValueError(f"{label}.{prop}: cannot write a {type(value).__name__} to CSV")


def _merge_kinds(label: str, prop: str, kinds: set[str]) -> str:
    if len(kinds) == 1:
        return next(iter(kinds))
    if kinds == {"long", "double"}:
        return "double"
    raise ValueError(f"{label}.{prop} has values of several types: {sorted(kinds)}")


def format_field(value: object) -> str:
    """One CSV field: empty for None (no property), quoted strings, bare numbers and booleans."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if _is_list(value):
        parts = [v if isinstance(v, str) else format_field(v) for v in value]
        for part in parts:
            if ARRAY_DELIMITER in part:
                raise ValueError(f"a list element contains the array delimiter U+001F: {part!r}")
        return _quote(ARRAY_DELIMITER.join(parts))
    return _quote(str(value))


def _quote(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _write_group(path_stem: Path, header: list[str], rows: Iterable[Sequence[object]]) -> tuple[list[str], bool]:
    """Write `<stem>.header.csv` and `<stem>.csv`; returns the file names and whether any field spans lines."""
    header_path = path_stem.with_name(path_stem.name + ".header.csv")
    data_path = path_stem.with_name(path_stem.name + ".csv")
    header_path.write_text(",".join(header) + "\n", encoding="utf-8")
    multiline = False
    with data_path.open("w", encoding="utf-8", newline="") as out:
        for row in rows:
            line = ",".join(format_field(v) for v in row)
            if not multiline and ("\n" in line or "\r" in line):
                multiline = True
            out.write(line + "\n")
    return [header_path.name, data_path.name], multiline


def write_import_csv(buffer: GraphBuffer, out_dir: Path) -> Manifest:
    """Write every node and relationship group plus manifest.json; returns the manifest."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in out_dir.glob("*.csv"):
        stale.unlink()
    manifest: Manifest = {
        "nodes": [],
        "relationships": [],
        "multiline_files": [],
        "counts": buffer.counts(),
        "array_delimiter": ARRAY_DELIMITER_ARG,
    }
    for label, nodes in sorted(buffer.nodes.items()):
        if not nodes:
            continue
        id_prop = ID_PROPERTY.get(label, "id")
        props = sorted({p for n in nodes.values() for p in n} - {id_prop})
        header = [f"{id_prop}:ID({label})"] + [
            f"{p}:{column_type(label, p, (n.get(p) for n in nodes.values()))}" for p in props
        ]
        rows = ([n[id_prop], *(n.get(p) for p in props)] for n in nodes.values())
        files, multiline = _write_group(out_dir / f"nodes_{label}", header, rows)
        manifest["nodes"].append({"labels": label, "files": files})
        if multiline:
            manifest["multiline_files"].append(files[1])
    for (rel_type, start, end), rels in sorted(buffer.relationships.items()):
        if not rels:
            continue
        props = sorted({p for r in rels.values() for p in r})
        header = [f":START_ID({start})", f":END_ID({end})"] + [
            f"{p}:{column_type(rel_type, p, (r.get(p) for r in rels.values()))}" for p in props
        ]
        rows = ([a, b, *(r.get(p) for p in props)] for (a, b), r in rels.items())
        files, multiline = _write_group(out_dir / f"rels_{rel_type}_{start}_{end}", header, rows)
        manifest["relationships"].append({"type": rel_type, "files": files})
        if multiline:
            manifest["multiline_files"].append(files[1])
    (out_dir / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest
