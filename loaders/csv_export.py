"""`weft export-csv`: the graph the online loader would write, built in memory, as import CSV.

Every record goes through the online loader's own pure row builders (loaders/openalex.py,
loaders/s2.py, loaders/arxiv.py), its record check and its row ranks (loaders/write.py), and
`MemoryGraph` applies the rows with the writer's rules, record by record (loaders/rows.py and
queries/load_nodes.py, load_rels.py: identity by hard keys with conflicting keys kept apart, who
wins by record and source rank, owned relationships released and replaced, `sources` per
relationship). The derived relationships are then computed the way queries/derive.py does
(loaders/csv_derived.py) and written by `loaders.csv_files.write_import_csv`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graph.ids import canonical_keys, key_property, node_id
from loaders import csv_derived
from loaders.csv_files import GraphBuffer, write_import_csv
from loaders.reader import Problem, read_records
from loaders.rows import REL_ENDS, SOURCE_PRIORITY, NodeRow, RecordRows, RejectedRecord
from loaders.run import plan, source_module
from loaders.write import LABEL_ORDER, _ranked, _Row, check_record

# Whose relationships a newer record replaces: the owner is the start (True) or the end node.
OWNER_IS_START = {"AUTHORED": False, "IN_CATEGORY": True, "REFERENCES": True,
                  "LISTED_AFFILIATION": True, "INSTITUTION_PART_OF": True}


class Node:
    """One node being built: its keys, properties and ranks, and the edges it owns."""

    __slots__ = ("label", "keys", "props", "record_rank", "source_props", "source_ranks",
                 "alt_names", "loaded", "merged_into", "edges")

    def __init__(self, label: str) -> None:
        self.label = label
        self.keys: dict[str, str] = {}
        self.props: dict[str, Any] = {}
        self.record_rank: str | None = None
        self.source_props: dict[str, Any] = {}
        self.source_ranks: dict[str, str] = {}
        self.alt_names: set[str] | None = None
        self.loaded: set[str] = set()
        self.merged_into: Node | None = None
        self.edges: set[tuple] = set()  # keys of every stored edge touching this node

    def find(self) -> Node:
        """The surviving node this one was merged into (itself when never merged)."""
        node = self
        while node.merged_into is not None:
            node = node.merged_into
        return node

    @property
    def id(self) -> str:
        return node_id(self.label, self.keys)


class Edge:
    """A loaded relationship: its properties, the source that set them, every source stating it."""

    __slots__ = ("props", "source", "sources")

    def __init__(self) -> None:
        self.props: dict[str, Any] = {}
        self.source: str | None = None
        self.sources: set[str] = set()

    def state(self, source: str, props: dict[str, Any]) -> None:
        if self.source is None or SOURCE_PRIORITY[source] >= SOURCE_PRIORITY[self.source]:
            self.props.update(props)
            self.source = source
        self.sources.add(source)


def row_ranks(row: NodeRow) -> tuple[str, str]:
    """(source rank, record rank) of a row, exactly as loaders/write.py ranks it."""
    ranked = _ranked(_Row(0, 0, row))
    return ranked.source_rank, ranked.record_rank


def _conflicts(a: dict[str, str], b: dict[str, str]) -> list[str]:
    return [k for k in a.keys() & b.keys() if a[k] != b[k]]


class MemoryGraph:
    """Rows applied in memory with the online writer's identity and precedence rules."""

    def __init__(self) -> None:
        self.index: dict[str, dict[str, Node]] = {label: {} for label in LABEL_ORDER}
        self.nodes: list[Node] = []
        self.refs: dict[str, dict[str, str]] = {}
        # (row type, start node, end node or Ref key) -> Edge
        self.rels: dict[tuple, Edge] = {}
        self.warnings: list[str] = []

    # --- nodes -------------------------------------------------------------------------------

    def _resolve(self, row: NodeRow) -> Node:
        """The node a row names, after merging the nodes it proves to be one (keys may be dropped)."""
        label = row.label
        index = self.index[label]
        ranked = canonical_keys(label, row.keys)
        hits: list[Node] = []
        for key in ranked:
            node = index.get(key)
            if node is not None and node.find() not in hits:
                hits.append(node.find())
        accepted: list[Node] = []
        union = dict(row.keys)
        for node in hits:
            clash = _conflicts(union, node.keys)
            if accepted and clash:
                shared = {k for k in node.keys if row.keys.get(k) == node.keys[k]}
                row.keys = {k: v for k, v in row.keys.items() if k not in shared}
                union = {k: v for k, v in union.items() if k not in shared}
                self.warnings.append(f"{label} {ranked[0]}: also names {node.id}; kept apart")
                continue
            if clash:
                row.keys = {k: v for k, v in row.keys.items() if k not in clash}
                union = {k: v for k, v in union.items() if k not in clash}
                self.warnings.append(f"{label} {ranked[0]}: {', '.join(clash)} differ from {node.id}")
            accepted.append(node)
            union.update(node.keys)
        if not accepted:
            node = Node(label)
            self.nodes.append(node)
        else:
            final = node_id(label, union)
            node = next((n for n in accepted if n.id == final), accepted[0])
            for other in accepted:
                if other is not node:
                    self._merge(node, other)
        node.keys.update(union)
        for key in canonical_keys(label, node.keys):
            index[key] = node
        return node

    def _upsert(self, node: Node, row: NodeRow, source_rank: str, record_rank: str) -> bool:
        """queries/load_nodes.py's upsert body; returns whether the row is the newest of its source."""
        node.loaded.add(row.source)
        old = node.source_ranks.get(row.source)
        won = old is None or source_rank >= old
        if won:
            node.source_props.update({k: v for k, v in row.source_props.items() if v is not None})
            node.source_ranks[row.source] = source_rank
        props = {k: v for k, v in row.props.items() if v is not None and k != "alt_names"}
        if node.record_rank is None or record_rank >= node.record_rank:
            node.props.update(props)
            node.record_rank = record_rank
        else:
            for k, v in props.items():
                node.props.setdefault(k, v)
        if row.label in ("Researcher", "Institution"):
            names = set(row.props.get("alt_names") or ())
            if props.get("name"):
                names.add(props["name"])
            node.alt_names = (node.alt_names or set()) | names
        return won

    def _merge(self, survivor: Node, loser: Node) -> None:
        """queries/load_nodes.py's MERGE_*: edges move, the survivor's gaps are filled."""
        loser_leads = (loser.record_rank or "") > (survivor.record_rank or "")
        first, second = (loser, survivor) if loser_leads else (survivor, loser)
        survivor.props = {**second.props, **first.props}
        survivor.source_props = {**second.source_props, **first.source_props}
        survivor.source_ranks = {**second.source_ranks, **first.source_ranks}
        survivor.record_rank = first.record_rank
        for k, v in loser.keys.items():
            survivor.keys.setdefault(k, v)
        if loser.alt_names is not None:
            survivor.alt_names = (survivor.alt_names or set()) | loser.alt_names
        survivor.loaded |= loser.loaded
        loser.merged_into = survivor
        for key in list(loser.edges):
            edge = self.rels.pop(key, None)
            if edge is None:
                continue
            rel_type, start, end = key
            new_key = (rel_type, survivor if start is loser else start, survivor if end is loser else end)
            for n in (start, end):
                if isinstance(n, Node):
                    n.edges.discard(key)
            if new_key[1] is new_key[2]:
                continue  # a PART_OF between the two merged nodes
            target = self.rels.get(new_key)
            if target is None:
                self._store_edge(new_key, edge)
            else:
                target.props.update(edge.props)
                target.sources |= edge.sources

    # --- relationships -----------------------------------------------------------------------

    def _store_edge(self, key: tuple, edge: Edge) -> None:
        self.rels[key] = edge
        for n in key[1:]:
            if isinstance(n, Node):
                n.edges.add(key)

    def _release(self, owner: Node, rel_type: str, source: str) -> None:
        """queries/load_rels.py's RELEASE_*: the owner's edges of a type no longer stated by `source`."""
        start_side = OWNER_IS_START[rel_type]
        for key in [k for k in owner.edges if k[0] == rel_type and (k[1] if start_side else k[2]) is owner]:
            edge = self.rels[key]
            edge.sources.discard(source)
            if not edge.sources:
                del self.rels[key]
                for n in key[1:]:
                    if isinstance(n, Node):
                        n.edges.discard(key)

    def apply_record(self, rows: RecordRows) -> None:
        """Apply one record as a batch of one (loaders/write.py's order: labels, then edges)."""
        ranks = [row_ranks(row) for row in rows.nodes]
        local: dict[tuple[str, str], Node] = {}
        won: dict[int, bool] = {}
        row_keys = [row.key for row in rows.nodes]
        for label in LABEL_ORDER:
            order = sorted((i for i, row in enumerate(rows.nodes) if row.label == label),
                           key=lambda i: ranks[i][1])
            for i in order:
                row = rows.nodes[i]
                node = self._resolve(row)
                won[i] = self._upsert(node, row, *ranks[i])
                local[(label, row_keys[i])] = node
        best: dict[tuple[int, str], int] = {}
        for i, row in enumerate(rows.nodes):
            handle = (id(local[(row.label, row_keys[i])].find()), row.source)
            if handle not in best or ranks[i][0] > ranks[best[handle]][0]:
                best[handle] = i
        effective = {i for i in best.values() if won[i]}
        for i in sorted(effective):
            row = rows.nodes[i]
            for rel_type in row.owns:
                self._release(local[(row.label, row_keys[i])].find(), rel_type, row.source)
        seen: set[tuple] = set()
        for rel in rows.rels:
            if rel.owner is not None and rel.owner not in effective:
                continue
            source = rows.nodes[rel.owner if rel.owner is not None else 0].source
            start_label, end_label = REL_ENDS[rel.type]
            start = local[(start_label, rel.start)].find()
            if end_label == "Ref":
                end: Node | str = rel.end
                prop, value = key_property("Paper", rel.end)
                self.refs.setdefault(rel.end, {})[prop] = value
            else:
                end = local[(end_label, rel.end)].find()
                if rel.type == "INSTITUTION_PART_OF" and end is start:
                    continue
            key = (rel.type, start, end)
            if (key, source) in seen:
                continue
            seen.add((key, source))
            props = dict(rel.props)
            if "institution_keys" in props:
                props["institution_keys"] = [local[("Institution", k)].find() for k in props["institution_keys"]]
            edge = self.rels.get(key)
            if edge is None:
                edge = Edge()
                self._store_edge(key, edge)
            edge.state(source, {k: v for k, v in props.items() if v is not None})

    # --- output ------------------------------------------------------------------------------

    def live_nodes(self) -> list[Node]:
        return [n for n in self.nodes if n.merged_into is None]

    def to_buffer(self, loaded_at: datetime, data_version: int = 1) -> GraphBuffer:
        """The finished graph: node properties as the upserts leave them, stored and derived edges."""
        buffer = GraphBuffer()
        for node in self.live_nodes():
            buffer.put_node(node.label, csv_derived.node_properties(node, loaded_at))
        for key, keys in sorted(self.refs.items()):
            buffer.put_node("Ref", {"key": key, **keys})
        csv_derived.add_relationships(self, buffer)
        buffer.put_node("Meta", {"key": "graph", "data_version": data_version, "loaded_at": loaded_at})
        return buffer


@dataclass(frozen=True)
class ExportSummary:
    """What one export read and wrote."""

    records: int
    rejected: int
    counts: dict[str, int]
    seconds: float
    rejects_file: Path | None


def build_graph(
    paths: Iterable[Path | str], source: str = "auto", rejects: list[dict] | None = None
) -> tuple[MemoryGraph, int]:
    """Read every record under `paths` into a MemoryGraph; returns it and the records read.

    Files are planned, detected and refused exactly as `weft load` does (loaders.run.plan), and a
    record is rejected for the same reasons.
    """
    graph = MemoryGraph()
    records = 0
    for path, name in plan(paths, source):
        module = source_module(name)
        for item in read_records(path):
            records += 1
            if isinstance(item, Problem):
                if rejects is not None:
                    rejects.append(item.as_json())
                continue
            try:
                rows = module.build_rows(item.record)
                check_record(rows)
            except (RejectedRecord, KeyError, TypeError, ValueError, AttributeError) as exc:
                if rejects is not None:
                    reason = str(exc) if isinstance(exc, RejectedRecord) else f"{exc.__class__.__name__}: {exc}"
                    rejects.append({"file": str(path), "where": item.where, "reason": reason})
                continue
            graph.apply_record(rows)
    return graph, records


def export_paths(
    paths: Iterable[Path | str], out: Path, source: str = "auto", echo: Callable[[str], object] = print
) -> ExportSummary:
    """Build the graph of every record under `paths` and write it to `out` as import CSV."""
    began = time.monotonic()
    rejects: list[dict] = []
    graph, records = build_graph(paths, source, rejects)
    echo(f"{records} records read into memory, writing CSV to {out}")
    buffer = graph.to_buffer(datetime.now(UTC))
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
