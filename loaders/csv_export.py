"""`weft export-csv`: the graph the online loader would write, built in memory, as import CSV.

Every record goes through the online loader's own pure row builders (loaders/openalex.py,
loaders/s2.py, loaders/arxiv.py) and `MemoryGraph` applies the rows with the writer's rules
(loaders/rows.py: identity by hard keys, who wins, owned relationships); the derived
relationships are then computed the way the writer's Cypher derives them
(loaders/csv_derived.py). The result goes to `loaders.csv_files.write_import_csv`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graph.errors import InvalidInput
from graph.ids import aliases, canonical_keys, node_id
from loaders import csv_derived
from loaders.csv_files import GraphBuffer, write_import_csv
from loaders.reader import Item, Problem, UnknownFormat, data_files, read_records
from loaders.rows import SOURCE_PRIORITY, NodeRow, RecordRows, RejectedRecord, RelRow

# Row relationship types that are stored under another name in the graph.
STORED_TYPE = {"CATEGORY_PART_OF": "PART_OF", "INSTITUTION_PART_OF": "PART_OF"}


class Node:
    """One node being built: its hard keys and properties, and what decided them."""

    __slots__ = ("label", "keys", "props", "rank", "source_props", "source_rank", "owned_rank",
                 "owned", "merged_into", "alt_names", "sources")

    def __init__(self, label: str) -> None:
        self.label = label
        self.keys: dict[str, str] = {}
        self.props: dict[str, Any] = {}
        self.rank: tuple = ()
        self.source_props: dict[str, Any] = {}
        self.source_rank: dict[str, tuple] = {}
        self.owned_rank: dict[str, tuple] = {}
        self.owned: dict[str, set[tuple]] = {}
        self.merged_into: Node | None = None
        self.alt_names: set[str] = set()
        self.sources: set[str] = set()

    def find(self) -> Node:
        """The surviving node this one was merged into (itself when never merged)."""
        node = self
        while node.merged_into is not None:
            node = node.merged_into
        return node


def _row_rank(row: NodeRow) -> tuple:
    return (row.level, SOURCE_PRIORITY.get(row.source, 0), row.updated)


class MemoryGraph:
    """Rows applied in memory with the online writer's identity and precedence rules."""

    def __init__(self) -> None:
        self.index: dict[str, dict[str, Node]] = {}
        self.nodes: list[Node] = []
        self.refs: set[str] = set()
        # (stored type, start node, end node) -> properties; ends are resolved with find() at the end.
        self.rels: dict[tuple[str, Node, Node | str], dict[str, Any]] = {}

    # --- nodes -------------------------------------------------------------------------------

    def _lookup(self, label: str, keys: Iterable[str]) -> list[Node]:
        index = self.index.setdefault(label, {})
        found: list[Node] = []
        for key in keys:
            node = index.get(key)
            if node is not None:
                node = node.find()
                if node not in found:
                    found.append(node)
        return found

    def apply_node(self, row: NodeRow) -> Node:
        """Find or create the node a row names; merges nodes the row proves to be one."""
        ranked = canonical_keys(row.label, row.keys)
        if not ranked:
            raise RejectedRecord(f"{row.label} without any id")
        found = self._lookup(row.label, ranked)
        if not found:
            node = Node(row.label)
            self.nodes.append(node)
        else:
            node = found[0]
            for other in found[1:]:
                node = self._merge(node, other)
        for prop, value in row.keys.items():
            node.keys.setdefault(prop, value)
        index = self.index[row.label]
        for key in canonical_keys(row.label, node.keys):
            index[key] = node
        self._apply_props(node, row)
        return node

    def _apply_props(self, node: Node, row: NodeRow) -> None:
        props = {k: v for k, v in row.props.items() if v is not None and k != "alt_names"}
        node.alt_names.update(n for n in row.props.get("alt_names") or () if n)
        rank = _row_rank(row)
        if rank >= node.rank:
            node.props.update(props)
            node.rank = rank
        else:
            for k, v in props.items():
                node.props.setdefault(k, v)
        node.sources.add(row.source)
        source_props = {k: v for k, v in row.source_props.items() if v is not None}
        srank = (row.level, row.updated)
        if srank >= node.source_rank.get(row.source, ()):
            node.source_props.update(source_props)
            node.source_rank[row.source] = srank
        else:
            for k, v in source_props.items():
                node.source_props.setdefault(k, v)

    def _merge(self, a: Node, b: Node) -> Node:
        """Two nodes proved to be one: the one with the better best key survives."""
        order = [canonical_keys(a.label, n.keys)[0] for n in (a, b)]
        ranks = [csv_derived.key_rank(a.label, k) for k in order]
        survivor, gone = (a, b) if ranks[0] <= ranks[1] else (b, a)
        for prop, value in gone.keys.items():
            survivor.keys.setdefault(prop, value)
        if gone.rank > survivor.rank:
            survivor.props = {**survivor.props, **gone.props}
            survivor.rank = gone.rank
        else:
            for k, v in gone.props.items():
                survivor.props.setdefault(k, v)
        for source, srank in gone.source_rank.items():
            if srank > survivor.source_rank.get(source, ()):
                survivor.source_rank[source] = srank
        survivor.source_props = {**gone.source_props, **survivor.source_props}
        survivor.alt_names |= gone.alt_names
        survivor.sources |= gone.sources
        for source, owned in gone.owned.items():
            survivor.owned.setdefault(source, set()).update(owned)
            survivor.owned_rank[source] = max(survivor.owned_rank.get(source, ()), gone.owned_rank[source])
        gone.merged_into = survivor
        return survivor

    # --- relationships -----------------------------------------------------------------------

    def apply_record(self, rows: RecordRows) -> None:
        """Apply one record's node rows, then its relationship rows (owned ones by the rules)."""
        local: dict[str, Node] = {}
        applied: list[Node] = []
        for row in rows.nodes:
            node = self.apply_node(row)
            applied.append(node)
            local[row.key] = node
        allowed: dict[int, bool] = {}
        for index, row in enumerate(rows.nodes):
            node = applied[index].find()
            srank = (row.level, row.updated)
            current = node.owned_rank.get(row.source, ())
            if not any(r.owner == index for r in rows.rels):
                continue
            if srank > current:
                for key in node.owned.pop(row.source, set()):
                    self.rels.pop(key, None)
                node.owned_rank[row.source] = srank
            allowed[index] = srank >= current
        for rel in rows.rels:
            if rel.owner is not None and not allowed.get(rel.owner, False):
                continue
            key = self._rel_key(rel, local)
            if key is None:
                continue
            self.rels[key] = dict(rel.props)
            if rel.owner is not None:
                owner = applied[rel.owner].find()
                owner.owned.setdefault(rows.nodes[rel.owner].source, set()).add(key)

    def _rel_key(self, rel: RelRow, local: dict[str, Node]) -> tuple | None:
        start = local.get(rel.start)
        if start is None:
            return None
        if rel.type == "REFERENCES":
            self.refs.add(rel.end)
            return ("REFERENCES", start, rel.end)
        end = local.get(rel.end)
        if end is None:
            return None
        return (STORED_TYPE.get(rel.type, rel.type), start, end)

    # --- output ------------------------------------------------------------------------------

    def live_nodes(self) -> list[Node]:
        return [n for n in self.nodes if n.merged_into is None]

    def to_buffer(self, loaded_at: str, data_version: int = 1) -> GraphBuffer:
        """The finished graph: node properties with ids and aliases, stored and derived edges."""
        buffer = GraphBuffer()
        ids: dict[int, str] = {}
        for node in self.live_nodes():
            nid = node_id(node.label, node.keys)
            ids[id(node)] = nid
            props = {**node.props, **node.source_props, **node.keys, "id": nid}
            if node.alt_names:
                props["alt_names"] = sorted(node.alt_names)
            found_aliases = aliases(node.label, node.keys)
            if found_aliases:
                props["aliases"] = found_aliases
            for source in node.sources:
                props[f"{source}_loaded_at"] = loaded_at
            props.update(csv_derived.node_extras(node.label, props))
            buffer.put_node(node.label, props)
        for key in sorted(self.refs):
            buffer.put_node("Ref", {"key": key})
        csv_derived.add_relationships(self, buffer, ids)
        buffer.put_node("Meta", {"key": "graph", "data_version": data_version})
        return buffer


@dataclass(frozen=True)
class ExportSummary:
    """What one export read and wrote."""

    records: int
    rejected: int
    counts: dict[str, int]
    seconds: float
    rejects_file: Path | None


def _builder(source: str, path: Path) -> Callable[[Any], RecordRows]:
    """The online loader's row builder for a source (or the one detected for the file)."""
    if source == "openalex":
        from loaders.openalex import build_rows
        return build_rows
    if source == "s2":
        from loaders.s2 import build_rows
        return build_rows
    if source == "arxiv":
        from loaders.arxiv import build_rows
        return build_rows
    if source == "auto":
        from loaders.detect import detect_file
        try:
            return _builder(detect_file(path), path)
        except UnknownFormat as exc:
            raise InvalidInput(str(exc)) from exc
    raise InvalidInput(f"unknown source {source!r}: use openalex, s2, arxiv or auto")


def build_graph(
    paths: Iterable[Path | str], source: str = "auto", rejects: list[dict] | None = None
) -> tuple[MemoryGraph, int]:
    """Read every record under `paths` into a MemoryGraph; returns it and the records read."""
    try:
        files = data_files(paths)
    except FileNotFoundError as exc:
        raise InvalidInput(str(exc)) from exc
    builders = {path: _builder(source, path) for path in files}
    graph = MemoryGraph()
    records = 0
    for path in files:
        build = builders[path]
        for item in read_records(path):
            if isinstance(item, Problem):
                if rejects is not None:
                    rejects.append(item.as_json())
                continue
            assert isinstance(item, Item)
            records += 1
            try:
                graph.apply_record(build(item.record))
            except RejectedRecord as exc:
                if rejects is not None:
                    rejects.append({"file": str(path), "where": item.where, "reason": str(exc)})
    return graph, records


def export_paths(
    paths: Iterable[Path | str], out: Path, source: str = "auto", echo: Callable[[str], object] = print
) -> ExportSummary:
    """Build the graph of every record under `paths` and write it to `out` as import CSV."""
    began = time.monotonic()
    rejects: list[dict] = []
    graph, records = build_graph(paths, source, rejects)
    echo(f"{records} records read into memory, writing CSV to {out}")
    buffer = graph.to_buffer(datetime.now(UTC).isoformat())
    manifest = write_import_csv(buffer, out)
    rejects_file = None
    if rejects:
        rejects_file = out / "rejects.jsonl"
        rejects_file.write_text("".join(json.dumps(r) + "\n" for r in rejects), encoding="utf-8")
    return ExportSummary(
        records=records,
        rejected=len(rejects),
        counts=manifest["counts"],
        seconds=time.monotonic() - began,
        rejects_file=rejects_file,
    )
