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

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeAlias

from weft.graph.identity.ids import canonical_keys, key_property, node_id
from weft.graph.sources import SOURCE_PRIORITY
from weft.loaders import csv_derived
from weft.loaders.csv_files import GraphBuffer, write_import_csv
from weft.loaders.detect import plan
from weft.loaders.reader import read_records
from weft.loaders.records import Rejected, record_rows, write_rejects
from weft.loaders.rows import ATTACH, REL_ENDS, NodeRow, RecordRows, RelRow
from weft.loaders.write import LABEL_ORDER, row_ranks

# Whose relationships a newer record replaces: the owner is the start (True) or the end node.
OWNER_IS_START = {
    "AUTHORED": False,
    "IN_CATEGORY": True,
    "REFERENCES": True,
    "LISTED_AFFILIATION": True,
    "INSTITUTION_PART_OF": True,
}


# A stored edge: (row type, start node, end node or Ref key).
EdgeKey: TypeAlias = tuple[str, "Node", "Node | str"]


class Node:
    """One node being built: its keys, properties with the rank each was written with, its edges."""

    __slots__ = (
        "label",
        "keys",
        "props",
        "prop_ranks",
        "source_props",
        "source_ranks",
        "alt_names",
        "loaded",
        "merged_into",
        "edges",
    )

    def __init__(self, label: str) -> None:
        self.label = label
        self.keys: dict[str, str] = {}
        self.props: dict[str, Any] = {}
        self.prop_ranks: dict[str, str] = {}
        self.source_props: dict[str, Any] = {}
        self.source_ranks: dict[str, str] = {}
        self.alt_names: set[str] | None = None
        self.loaded: set[str] = set()
        self.merged_into: Node | None = None
        self.edges: set[EdgeKey] = set()  # keys of every stored edge touching this node

    def find(self) -> Node:
        """The surviving node this one was merged into (itself when never merged)."""
        node = self
        while node.merged_into is not None:
            node = node.merged_into
        return node

    @property
    def id(self) -> str:
        return node_id(self.label, self.keys)

    def absorb(self, loser: Node) -> None:
        """queries/load_nodes.py's _FILL_SURVIVOR: this node takes each property the loser holds
        that it lacks or holds with a lower rank, and the loser's source values, keys and names."""
        for k, v in loser.props.items():
            lr, sr = loser.prop_ranks.get(k), self.prop_ranks.get(k)
            if k not in self.props or (lr is not None and (sr is None or sr < lr)):
                self.props[k] = v
                if lr is not None:
                    self.prop_ranks[k] = lr
        for k, v in loser.source_props.items():
            self.source_props.setdefault(k, v)
        for k, v in loser.source_ranks.items():
            self.source_ranks.setdefault(k, v)
        for k, v in loser.keys.items():
            self.keys.setdefault(k, v)
        if loser.alt_names is not None:
            self.alt_names = (self.alt_names or set()) | loser.alt_names
        self.loaded |= loser.loaded


class Edge:
    """A loaded relationship: its properties, the source that set them, every source stating it."""

    __slots__ = ("props", "source", "sources", "claimed")

    def __init__(self) -> None:
        self.props: dict[str, Any] = {}
        self.source: str | None = None
        self.sources: set[str] = set()
        self.claimed: set[str] = set()

    def state(self, source: str, props: dict[str, Any]) -> None:
        """queries/load_rels.py's _SET_FROM_SOURCE: the highest-priority source sets the properties."""
        if self.source is None or SOURCE_PRIORITY[source] >= SOURCE_PRIORITY[self.source]:
            self.props.update(props)
            self.source = source
        self.sources.add(source)


def _conflicts(a: dict[str, str], b: dict[str, str]) -> list[str]:
    return [k for k in a.keys() & b.keys() if a[k] != b[k]]


def _edge_key(rel: RelRow, local: dict[tuple[str, str], Node]) -> EdgeKey | None:
    """The edge a relationship row states, None when an end was not written (or an institution
    would be part of itself, two of them having merged)."""
    start_label, end_label = REL_ENDS[rel.type]
    start_node = local.get((start_label, rel.start))
    end_node = rel.end if end_label == "Ref" else local.get((end_label, rel.end))
    if start_node is None or end_node is None:
        return None
    start = start_node.find()
    end = end_node if isinstance(end_node, str) else end_node.find()
    if rel.type == "INSTITUTION_PART_OF" and end is start:
        return None
    return rel.type, start, end


def _edge_props(rel: RelRow, local: dict[tuple[str, str], Node]) -> dict[str, Any]:
    """A row's properties, None values dropped; `institution_keys` become the institutions' nodes."""
    props = dict(rel.props)
    if "institution_keys" in props:
        props["institution_keys"] = [local[("Institution", k)] for k in props["institution_keys"]]
    return {k: v for k, v in props.items() if v is not None}


class MemoryGraph:
    """Rows applied in memory, one record at a time, with the online writer's rules."""

    def __init__(self) -> None:
        self.index: dict[str, dict[str, Node]] = {label: {} for label in LABEL_ORDER}
        self.nodes: list[Node] = []
        self.refs: dict[str, dict[str, str]] = {}
        self.rels: dict[EdgeKey, Edge] = {}
        self.warnings: list[str] = []
        self.deleted: set[int] = set()  # id() of nodes deleted by claims

    # --- nodes -------------------------------------------------------------------------------

    def _hits(self, label: str, keys: dict[str, str]) -> list[Node]:
        index = self.index[label]
        hits: list[Node] = []
        for key in canonical_keys(label, keys):
            node = index.get(key)
            if node is not None and node.find() not in hits:
                hits.append(node.find())
        return hits

    def _resolve(self, row: NodeRow, attach_only: bool) -> Node | None:
        """The node a row names (write.py's _resolve), merging nodes it proves to be one; None
        for an ATTACH row that finds nothing."""
        label = row.label
        ranked = canonical_keys(label, row.keys)
        hits = self._hits(label, row.keys)
        hits.sort(
            key=lambda n: (
                min((ranked.index(k) for k in canonical_keys(label, n.keys) if k in ranked), default=len(ranked)),
                n.id,
            )
        )
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
            for prop in clash:  # one entity, two values of a weaker key: the smaller one
                kept = min(union[prop], node.keys[prop])
                self._rekey(node, prop, kept)
                union[prop] = kept
            accepted.append(node)
            union.update(node.keys)
        if not accepted:
            if attach_only:
                return None
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
            self.index[label][key] = node
        return node

    def _rekey(self, node: Node, prop: str, value: str) -> None:
        old = node.keys.get(prop)
        if old == value:
            return
        for key in canonical_keys(node.label, {prop: old}):
            if self.index[node.label].get(key) is node:
                del self.index[node.label][key]
        node.keys[prop] = value

    def _upsert(self, node: Node, row: NodeRow, source_rank: str, record_rank: str) -> bool:
        """queries/load_nodes.py's upsert body; returns whether the row is the newest of its source."""
        node.loaded.add(row.source)
        old = node.source_ranks.get(row.source)
        won = old is None or source_rank >= old
        if won:
            node.source_props.update({k: v for k, v in row.source_props.items() if v is not None})
            node.source_ranks[row.source] = source_rank
        for k, v in row.props.items():
            if v is None or k == "alt_names":
                continue
            held = node.prop_ranks.get(k)
            if held is None or held <= record_rank:
                node.props[k] = v
                node.prop_ranks[k] = record_rank
        if row.label in ("Researcher", "Institution"):
            names = set(row.props.get("alt_names") or ())
            if row.props.get("name"):
                names.add(row.props["name"])
            node.alt_names = (node.alt_names or set()) | names
        return won

    def _merge(self, survivor: Node, loser: Node) -> None:
        """queries/load_nodes.py's MERGE_*: the survivor takes the loser's properties, its edges move."""
        survivor.absorb(loser)
        loser.merged_into = survivor
        for key in list(loser.edges):
            edge = self.rels.pop(key, None)
            if edge is not None:
                self._move_edge(key, edge, survivor, loser)

    def _move_edge(self, key: EdgeKey, edge: Edge, survivor: Node, loser: Node) -> None:
        """An edge of the loser becomes the survivor's (joined with the survivor's own edge, if any)."""
        rel_type, start, end = key
        start.edges.discard(key)
        if isinstance(end, Node):
            end.edges.discard(key)
        new_key: EdgeKey = (rel_type, survivor if start is loser else start, survivor if end is loser else end)
        if new_key[1] is new_key[2]:
            return  # a PART_OF between the two merged nodes
        target = self.rels.get(new_key)
        if target is None:
            self._store_edge(new_key, edge)
        else:
            target.props.update(edge.props)
            target.sources |= edge.sources

    # --- relationships -----------------------------------------------------------------------

    def _store_edge(self, key: EdgeKey, edge: Edge) -> None:
        self.rels[key] = edge
        key[1].edges.add(key)
        if isinstance(key[2], Node):
            key[2].edges.add(key)

    def drop_edge(self, key: EdgeKey) -> None:
        """Delete a stored edge (a released one, or an id-less author slot a claim moved)."""
        del self.rels[key]
        key[1].edges.discard(key)
        if isinstance(key[2], Node):
            key[2].edges.discard(key)

    def _release(self, owner: Node, rel_type: str, source: str, keep: set[Node | str]) -> None:
        """queries/load_rels.py's RELEASE_*: `source` leaves the owner's edges of a type whose other
        end it no longer states; edges no source states are deleted."""
        owner_at_start = OWNER_IS_START[rel_type]
        for key in [k for k in owner.edges if k[0] == rel_type]:
            if (key[1] if owner_at_start else key[2]) is not owner:
                continue
            other = key[2] if owner_at_start else key[1]
            if other in keep:
                continue
            edge = self.rels[key]
            if source not in edge.sources:
                continue
            edge.sources.discard(source)
            edge.claimed.discard(source)
            if not edge.sources:
                self.drop_edge(key)

    def apply_record(self, rows: RecordRows) -> None:
        """Apply one checked record as a batch of one (write.py's order: labels, then edges)."""
        row_keys = [row.key for row in rows.nodes]  # as built: relationship rows refer to them
        local, effective = self._apply_nodes(rows, row_keys)
        owners: dict[tuple[str, int, str], set[Node | str]] = {}  # (type, owner row, source) -> other ends
        for i in sorted(effective):
            for rel_type in rows.nodes[i].owns:
                owners.setdefault((rel_type, i, rows.nodes[i].source), set())
        writes = self._edge_writes(rows, local, effective, owners)
        for (rel_type, i, source), keep in owners.items():
            owner = local[(rows.nodes[i].label, row_keys[i])].find()
            self._release(owner, rel_type, source, keep)
        for key, source, props in writes:
            if key[0] == "REFERENCES" and isinstance(key[2], str):
                prop, value = key_property("Paper", key[2])
                self.refs[key[2]] = {prop: value}
            edge = self.rels.get(key)
            if edge is None:
                edge = Edge()
                self._store_edge(key, edge)
            edge.state(source, props)

    def _apply_nodes(self, rows: RecordRows, row_keys: list[str]) -> tuple[dict[tuple[str, str], Node], set[int]]:
        """Resolve and upsert the node rows, label by label, best-ranked first; returns the node of
        each (label, key) and the rows applied as the newest of their source for their node."""
        ranks = [row_ranks(row) for row in rows.nodes]
        local: dict[tuple[str, str], Node] = {}
        first: set[tuple[int, str]] = set()  # (node, source) already upserted by a better row
        effective: set[int] = set()
        for label in LABEL_ORDER:
            order = [i for i, row in enumerate(rows.nodes) if row.label == label]
            order.sort(key=lambda i: ranks[i][1], reverse=True)
            for i in order:
                row = rows.nodes[i]
                attach_only = all(rows.nodes[j].level <= ATTACH for j in order if row_keys[j] == row_keys[i])
                node = self._resolve(row, attach_only)
                if node is None:
                    continue
                local[(label, row_keys[i])] = node
                won = self._upsert(node, row, *ranks[i])
                if (id(node), row.source) not in first:
                    first.add((id(node), row.source))
                    if won:
                        effective.add(i)
        return local, effective

    def _edge_writes(
        self,
        rows: RecordRows,
        local: dict[tuple[str, str], Node],
        effective: set[int],
        owners: dict[tuple[str, int, str], set[Node | str]],
    ) -> list[tuple[EdgeKey, str, dict[str, Any]]]:
        """The edges the record's applicable relationship rows state (once per edge and source),
        noting in `owners` the other end of each owned one."""
        writes: list[tuple[EdgeKey, str, dict[str, Any]]] = []
        seen: set[tuple[EdgeKey, str]] = set()
        for rel in rows.rels:
            if rel.owner is not None and rel.owner not in effective:
                continue
            source = rows.nodes[rel.owner if rel.owner is not None else 0].source
            key = _edge_key(rel, local)
            if key is None:
                continue  # an end that could only attach, and found nothing
            if rel.owner is not None and (rel.type, rel.owner, source) in owners:
                owners[(rel.type, rel.owner, source)].add(key[1] if rel.type == "AUTHORED" else key[2])
            if (key, source) not in seen:
                seen.add((key, source))
                writes.append((key, source, _edge_props(rel, local)))
        return writes

    # --- output ------------------------------------------------------------------------------

    def live_nodes(self) -> list[Node]:
        return [n for n in self.nodes if n.merged_into is None and id(n) not in self.deleted]

    def to_buffer(self, loaded_at: datetime, data_version: int = 1) -> GraphBuffer:
        """The finished graph: claims applied, node properties as the upserts leave them, stored
        and derived edges, the Meta node."""
        csv_derived.apply_claims(self)
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
    paths: Iterable[Path | str], source: str = "auto", rejects: list[dict[str, str]] | None = None
) -> tuple[MemoryGraph, int]:
    """Read every record under `paths` into a MemoryGraph; returns it and the records read.

    Files are planned, detected and refused exactly as `weft load` does (loaders.detect.plan), and a
    record is rejected for the same reasons, with the same entry (loaders.records.record_rows).
    """
    graph = MemoryGraph()
    records = 0
    for path, fmt in plan(paths, source):
        for item in read_records(path):
            records += 1
            rows = record_rows(fmt.build_rows, item)
            if isinstance(rows, Rejected):
                if rejects is not None:
                    rejects.append(rows.entry)
            elif rows is not None:
                graph.apply_record(rows)
    return graph, records


def export_paths(
    paths: Iterable[Path | str], out: Path, source: str = "auto", echo: Callable[[str], object] = print
) -> ExportSummary:
    """Build the graph of every record under `paths` and write it to `out` as import CSV."""
    began = time.monotonic()
    rejects: list[dict[str, str]] = []
    graph, records = build_graph(paths, source, rejects)
    echo(f"{records} records read into memory, writing CSV to {out}")
    buffer = graph.to_buffer(datetime.now(UTC))
    manifest = write_import_csv(buffer, out)
    rejects_file = None
    if rejects:
        rejects_file = out / "rejects.jsonl"
        write_rejects(rejects_file, rejects)
    return ExportSummary(
        records=records,
        rejected=len(rejects),
        counts=manifest["counts"],
        seconds=time.monotonic() - began,
        rejects_file=rejects_file,
    )
