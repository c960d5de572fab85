"""Writing batches of `RecordRows` into Neo4j: one managed write transaction per batch.

Inside the transaction, per label: rows that share a hard key are grouped, the graph is searched
for every node any of a group's keys names, nodes a group proves to be one are merged (relationships
moved per known type), ids are recomputed from the best key (old ids go to `aliases`), and the rows
are upserted. Then the owned relationships of winning rows are replaced and the rest added.
Each batch's transaction also moves the data version (graph/versions.mark_written), so readers' caches
see it as it commits. `finish()` recomputes derived data for everything the batches touched
(loaders/derived.py). The rules are in loaders/rows.py and graph/MODEL.md.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, LiteralString, TypedDict

import orjson
from neo4j import Driver, ManagedTransaction

from weft.graph.driver import translated_errors
from weft.graph.identity.ids import aliases, canonical_keys, key_property, node_id
from weft.graph.sources import SOURCE_PRIORITY
from weft.graph.versions import mark_written
from weft.loaders.derived import DEFAULT_LIMITS, PairLimits, recompute, restate
from weft.loaders.rows import ATTACH, REL_ENDS, NodeRow, RecordRows, RejectedRecord, RelRow
from weft.queries import load_nodes, load_rels

LABEL_ORDER = ("Institution", "Category", "Researcher", "Paper")
_LOOKUP: dict[str, LiteralString] = {
    "Paper": load_nodes.LOOKUP_PAPERS,
    "Researcher": load_nodes.LOOKUP_RESEARCHERS,
    "Institution": load_nodes.LOOKUP_INSTITUTIONS,
    "Category": load_nodes.LOOKUP_CATEGORIES,
}
_UPSERT: dict[str, LiteralString] = {
    "Paper": load_nodes.UPSERT_PAPERS,
    "Researcher": load_nodes.UPSERT_RESEARCHERS,
    "Institution": load_nodes.UPSERT_INSTITUTIONS,
    "Category": load_nodes.UPSERT_CATEGORIES,
}
_MERGE: dict[str, LiteralString] = {
    "Paper": load_nodes.MERGE_PAPERS,
    "Researcher": load_nodes.MERGE_RESEARCHERS,
    "Institution": load_nodes.MERGE_INSTITUTIONS,
}
_RENAME: dict[str, LiteralString] = {
    "Paper": load_nodes.RENAME_PAPERS,
    "Researcher": load_nodes.RENAME_RESEARCHERS,
    "Institution": load_nodes.RENAME_INSTITUTIONS,
}
_WRITE_REL: dict[str, LiteralString] = {
    "AUTHORED": load_rels.WRITE_AUTHORED,
    "IN_CATEGORY": load_rels.WRITE_IN_CATEGORY,
    "REFERENCES": load_rels.WRITE_REFERENCES,
    "CATEGORY_PART_OF": load_rels.WRITE_CATEGORY_PART_OF,
    "INSTITUTION_PART_OF": load_rels.WRITE_INSTITUTION_PART_OF,
    "LISTED_AFFILIATION": load_rels.WRITE_LISTED_AFFILIATION,
}
_CREATE_REL: dict[str, LiteralString] = {
    "AUTHORED": load_rels.CREATE_AUTHORED,
    "IN_CATEGORY": load_rels.CREATE_IN_CATEGORY,
    "REFERENCES": load_rels.CREATE_REFERENCES,
    "CATEGORY_PART_OF": load_rels.CREATE_CATEGORY_PART_OF,
    "INSTITUTION_PART_OF": load_rels.CREATE_INSTITUTION_PART_OF,
    "LISTED_AFFILIATION": load_rels.CREATE_LISTED_AFFILIATION,
}
_RELEASE: dict[str, LiteralString] = {
    "AUTHORED": load_rels.RELEASE_AUTHORED,
    "IN_CATEGORY": load_rels.RELEASE_IN_CATEGORY,
    "REFERENCES": load_rels.RELEASE_REFERENCES,
    "INSTITUTION_PART_OF": load_rels.RELEASE_INSTITUTION_PART_OF,
    "LISTED_AFFILIATION": load_rels.RELEASE_LISTED_AFFILIATION,
}


def check_record(rows: RecordRows) -> None:
    """Raise RejectedRecord unless every row has a hard key and every relationship a known type/end."""
    if not rows.nodes:
        raise RejectedRecord("record states no entity")
    keys: set[tuple[str, str]] = set()
    for node in rows.nodes:
        if node.label not in _LOOKUP:
            raise RejectedRecord(f"unknown label {node.label!r}")
        keys.add((node.label, node.key))
    for rel in rows.rels:
        if rel.type not in REL_ENDS:
            raise RejectedRecord(f"unknown relationship type {rel.type!r}")
        start_label, end_label = REL_ENDS[rel.type]
        if (start_label, rel.start) not in keys or (end_label != "Ref" and (end_label, rel.end) not in keys):
            raise RejectedRecord(f"{rel.type} {rel.start} -> {rel.end} names a node the record does not state")


def _digest(value: Any) -> str:
    """A short hash of a row's content: the last tie-breaker of its ranks (orjson, as staging runs it
    for every row of a bulk build; ranks made before 2026-12-03 used the stdlib's text: the digest only
    ever breaks ties between rows of the same level and date)."""
    text = orjson.dumps(value, default=str, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    return hashlib.sha1(text).hexdigest()[:10]  # noqa: S324 - a tie-breaker


@dataclass
class _Row:
    """A node row in flight: where it came from, its group, ranks."""

    record: int
    index: int
    node: NodeRow
    source_rank: str = ""
    record_rank: str = ""
    key: str = ""  # the row's best key as built (relationship rows refer to it)


@dataclass
class _Group:
    label: str
    rows: list[_Row] = field(default_factory=list[_Row])
    keys: dict[str, str] = field(default_factory=dict[str, str])
    final_id: str = ""
    existed: bool = False


@dataclass
class BatchOutcome:
    """Per record (in batch order): `written` (its own row is the newest of its source and was
    applied) and `existed` (its entity was already in the graph or earlier in the batch); plus
    identity `warnings` and the ids whose derived relationships must be recomputed."""

    written: list[bool]
    existed: list[bool]
    warnings: list[str]
    papers: set[str]
    researchers: set[str]
    moved: set[str] = field(default_factory=set[str])  # researchers whose authorships moved (derived.recompute)
    created: set[str] = field(default_factory=set[str])  # papers new in this batch
    reaffiliated: set[str] = field(default_factory=set[str])  # researchers whose affiliations must be rebuilt
    # of `moved`, those only released from an authorship (not merged, renamed, or released from a listed
    # affiliation): a sync that noted the replaced works' states recounts what the release reaches instead
    released: set[str] = field(default_factory=set[str])


class GraphWriter:
    """Writes batches of RecordRows (`write`), then recomputes derived data (`finish`)."""

    def __init__(self, driver: Driver, database: str = "neo4j", limits: PairLimits = DEFAULT_LIMITS) -> None:
        self.driver = driver
        self.database = database
        self.limits = limits
        self.touched_papers: set[str] = set()
        self.touched_researchers: set[str] = set()
        self.moved_researchers: set[str] = set()
        self.created_papers: set[str] = set()
        self.reaffiliated: set[str] = set()
        self.reauthored: set[str] | None = None  # known papers whose authorships changed (None: all touched)
        self.released: set[str] = set()  # BatchOutcome.released of every batch, less `kept_whole`
        self.kept_whole: set[str] = set()  # moved or reaffiliated researchers other than released ones
        self.before: dict[str, dict[str, Any]] | None = None  # a sync's noted states of replaced works
        self.batches = 0

    def write(self, records: list[RecordRows]) -> BatchOutcome:
        """Write one batch in one managed write transaction (retried whole on transient errors)."""
        with translated_errors("writing a batch"), self.driver.session(database=self.database) as session:
            outcome = session.execute_write(_write_batch, records)
        self.touched_papers |= outcome.papers
        self.touched_researchers |= outcome.researchers
        self.moved_researchers |= outcome.moved
        self.created_papers |= outcome.created
        self.reaffiliated |= outcome.reaffiliated
        # released only: in no batch merged, renamed or re-listed
        self.kept_whole |= (outcome.moved | outcome.reaffiliated) - outcome.released
        self.released = (self.released | outcome.released) - self.kept_whole
        self.batches += 1
        return outcome

    def finish(self, progress: Callable[[str, int, int], None] | None = None) -> int:
        """Claim id-less author slots, recompute derived relationships for every touched node and
        bump data_version (loaders/derived.py); returns the new data_version (0 when nothing was written)."""
        if not self.batches:
            return 0
        return recompute(
            self.driver,
            self.database,
            self.touched_papers,
            self.touched_researchers,
            progress,
            self.limits,
            moved=self.moved_researchers,
            created=self.created_papers,
            reaffiliated=self.reaffiliated,
            reauthored=self.reauthored,
            before=self.before,
        )


# --- one batch ------------------------------------------------------------------------------


@dataclass
class _Written:
    """What a batch's node rows left, for its relationship rows and its outcome."""

    key_to_id: dict[tuple[str, str], str] = field(default_factory=dict[tuple[str, str], str])  # (label, key) -> id
    row_ids: dict[tuple[int, int], str] = field(default_factory=dict[tuple[int, int], str])  # (record, row) -> id
    effective: set[tuple[int, int]] = field(default_factory=set[tuple[int, int]])  # rows applied as newest
    existed: set[tuple[int, int]] = field(default_factory=set[tuple[int, int]])  # rows of a node already there
    created: set[str] = field(default_factory=set[str])  # nodes this batch creates: no relationship yet
    researchers: set[str] = field(default_factory=set[str])  # touched by merges and released edges
    moved: set[str] = field(default_factory=set[str])  # of those, researchers whose authorships moved

    def add(self, label: str, group: _Group) -> None:
        """Record where a written group's keys and rows went."""
        if not group.existed:
            self.created.add(group.final_id)
        for key in canonical_keys(label, group.keys):
            self.key_to_id[(label, key)] = group.final_id
        first = min(group.rows, key=lambda r: (r.record, r.index))
        for r in group.rows:
            self.key_to_id[(label, r.key)] = group.final_id
            self.row_ids[(r.record, r.index)] = group.final_id
            if group.existed or r is not first:
                self.existed.add((r.record, r.index))

    def ids(self, label: str, rows: list[_Row]) -> set[str]:
        """The ids the given rows were written to."""
        return {self.key_to_id[(label, r.key)] for r in rows if (label, r.key) in self.key_to_id}


def _write_batch(tx: ManagedTransaction, records: list[RecordRows]) -> BatchOutcome:
    warnings: list[str] = []
    by_label: dict[str, list[_Row]] = {label: [] for label in LABEL_ORDER}
    for ri, record in enumerate(records):
        for ni, node in enumerate(record.nodes):
            by_label[node.label].append(_ranked(_Row(ri, ni, node)))
    done = _Written()
    for label in LABEL_ORDER:
        if by_label[label]:
            _write_nodes(tx, label, by_label[label], done, warnings)
    resolved = done.researchers | done.moved
    released, moved, listed, unlisted = _write_rels(tx, records, done)
    done.researchers |= released
    done.moved |= moved
    mark_written(tx)  # readers' caches see this commit; a writer whose lock was taken over stops here
    return BatchOutcome(
        written=[(ri, 0) in done.effective for ri in range(len(records))],
        existed=[(ri, 0) in done.existed for ri in range(len(records))],
        warnings=warnings,
        papers=done.ids("Paper", by_label["Paper"]),
        researchers=done.researchers | done.ids("Researcher", by_label["Researcher"]),
        moved=done.moved,
        created=done.ids("Paper", by_label["Paper"]) & done.created,
        reaffiliated=done.researchers | listed,
        released=moved - resolved - unlisted - listed,
    )


def _write_nodes(tx: ManagedTransaction, label: str, rows: list[_Row], done: _Written, warnings: list[str]) -> None:
    """Group, resolve and upsert one label's rows."""
    groups, touched, moved = _resolve(tx, label, _group_rows(label, rows, warnings), warnings)
    done.researchers |= touched
    done.moved |= moved
    # rows that may only attach to an existing entity: dropped when there is none
    groups = [g for g in groups if g.existed or any(r.node.level > ATTACH for r in g.rows)]
    if not groups:
        return
    won = _upsert(tx, label, groups)
    for group in groups:
        done.add(label, group)
    done.effective |= {handle for handle, applied in won.items() if applied}


def row_ranks(node: NodeRow) -> tuple[str, str]:
    """(source rank, record rank) of a node row: who wins among one source's rows of a node
    (level, updated, digest) and among all rows for shared properties (level, source priority,
    updated, digest). The CSV export ranks rows with it too."""
    digest = _digest([node.props, node.source_props, node.keys])
    return (
        f"{node.level}|{node.updated}|{digest}",
        f"{node.level}|{SOURCE_PRIORITY.get(node.source, 0)}|{node.updated}|{digest}",
    )


def _ranked(row: _Row) -> _Row:
    row.source_rank, row.record_rank = row_ranks(row.node)
    row.key = row.node.key
    return row


def _conflicts(a: dict[str, str], b: dict[str, str]) -> list[str]:
    """Key properties holding different values in a and b (two different entities, never merged)."""
    return [k for k in a.keys() & b.keys() if a[k] != b[k]]


def _group_rows(label: str, rows: list[_Row], warnings: list[str]) -> list[_Group]:
    """Rows sharing any hard key become one group (deterministic order: best key, then rank).

    Two groups holding different values of one key property are never joined; a row that agrees
    with a group on one key but not on another keeps the smaller value (with a warning), so the
    outcome does not depend on the order rows arrive in.
    """
    ordered = sorted(rows, key=lambda r: (canonical_keys(label, r.node.keys), r.record_rank))
    groups: list[_Group] = []
    owner: dict[str, int] = {}
    for row in ordered:
        ranked = canonical_keys(label, row.node.keys)
        hits = sorted(
            {owner[k] for k in ranked if k in owner},
            key=lambda g: ranked.index(next(k for k in ranked if owner.get(k) == g)),
        )
        if hits:
            target = _join_groups(groups, owner, hits)
        else:
            target = len(groups)
            groups.append(_Group(label))
        _add_row(groups[target], target, row, owner, warnings)
    return [g for g in groups if g.rows]


def _join_groups(groups: list[_Group], owner: dict[str, int], hits: list[int]) -> int:
    """Join the groups a row's keys hit into the first (those holding a conflicting key stay apart)."""
    target = hits[0]
    for other in hits[1:]:
        if _conflicts(groups[target].keys, groups[other].keys):
            continue
        groups[target].rows.extend(groups[other].rows)
        groups[target].keys.update(groups[other].keys)
        for k, g in list(owner.items()):
            if g == other:
                owner[k] = target
        groups[other] = _Group(groups[other].label)
    return target


def _add_row(group: _Group, target: int, row: _Row, owner: dict[str, int], warnings: list[str]) -> None:
    """Add a row to group number `target`: a key value differing from the group's keeps the smaller;
    a key another group owns is dropped from the row."""
    label = group.label
    for prop in _conflicts(group.keys, row.node.keys):
        kept = min(group.keys[prop], row.node.keys[prop])
        warnings.append(
            f"{label} {row.key}: rows with the same key differ on {prop} "
            f"({group.keys[prop]} / {row.node.keys[prop]}); kept {kept}"
        )
        group.keys[prop] = row.node.keys[prop] = kept
    for k in canonical_keys(label, row.node.keys):
        if owner.get(k, target) != target:
            prop, _ = key_property(label, k)
            row.node.keys.pop(prop, None)
            continue
        owner[k] = target
    group.rows.append(row)
    group.keys.update(row.node.keys)


def _resolve(
    tx: ManagedTransaction, label: str, groups: list[_Group], warnings: list[str]
) -> tuple[list[_Group], set[str], set[str]]:
    """Find each group's nodes, merge the ones it proves to be one, rename ids.

    Returns the groups (those naming one existing node joined), the touched researchers and, of
    those, the ones whose authorships moved (merged into, renamed).
    """
    found_by_group: dict[int, dict[str, dict[str, str]]] = {}
    params = [{"g": gi, "keys": g.keys} for gi, g in enumerate(groups)]
    for rec in tx.run(_LOOKUP[label], groups=params):
        found_by_group.setdefault(rec["g"], {})[rec["id"]] = {k: v for k, v in rec["keys"].items() if v is not None}
    groups, found = _join_on_nodes(label, groups, found_by_group, warnings)
    merges: list[dict[str, str]] = []
    renames: list[dict[str, str]] = []
    for gi, group in enumerate(groups):
        ids = _accept_nodes(label, group, found.get(gi, {}), warnings)
        if ids:
            survivor = group.final_id if group.final_id in ids else ids[0]
            merges.extend({"loser": nid, "survivor": survivor} for nid in ids if nid != survivor)
            renames.extend({"old": nid, "new": group.final_id} for nid in ids if nid != group.final_id)
    return groups, *_merge_and_rename(tx, label, merges, renames)


def _accept_nodes(label: str, group: _Group, nodes: dict[str, dict[str, str]], warnings: list[str]) -> list[str]:
    """The ids of the found nodes the group is one entity with (best key first); sets the group's
    keys (theirs joined), final id and whether it existed. A node whose keys clash with ones already
    accepted is kept apart: the keys the group shares with it are dropped from the group."""
    ranked = canonical_keys(label, group.keys)

    def first_hit(node_keys: dict[str, str]) -> int:
        own = set(canonical_keys(label, node_keys))
        return min((ranked.index(k) for k in own if k in ranked), default=len(ranked))

    accepted: list[str] = []
    union = dict(group.keys)
    for nid, node_keys in sorted(nodes.items(), key=lambda item: (first_hit(item[1]), item[0])):
        clash = _conflicts(union, node_keys)
        if accepted and clash:
            warnings.append(f"{label} {ranked[0]}: also names {nid}, whose {', '.join(clash)} differ; kept apart")
            shared = {k for k in node_keys if group.keys.get(k) == node_keys[k]}
            for r in group.rows:
                r.node.keys = {k: v for k, v in r.node.keys.items() if k not in shared}
            group.keys = {k: v for k, v in group.keys.items() if k not in shared}
            union = {k: v for k, v in union.items() if k not in shared}
            continue
        for prop in clash:  # one entity, two values of a weaker key: the smaller, whatever the order
            kept = min(union[prop], node_keys[prop])
            warnings.append(
                f"{label} {ranked[0]}: {prop} differs from {nid} ({union[prop]} / {node_keys[prop]}); kept {kept}"
            )
            union[prop] = node_keys[prop] = kept
        accepted.append(nid)
        union.update(node_keys)
    group.keys = union
    group.final_id = node_id(label, union)
    group.existed = bool(accepted)
    return accepted


def _merge_and_rename(
    tx: ManagedTransaction, label: str, merges: list[dict[str, str]], renames: list[dict[str, str]]
) -> tuple[set[str], set[str]]:
    """Merge losers into survivors, then give survivors their new ids; returns the touched researchers
    and, of those, the ones whose authorships moved: merged researchers and their co-authors, renamed
    researchers (a co-author pair is stored from the smaller id)."""
    touched: set[str] = set()
    for merge in merges if label in _MERGE else []:  # one at a time: several may share a survivor
        for rec in tx.run(_MERGE[label], merges=[merge]):
            touched |= set(rec["touched"])
    moved = set(touched) if label == "Researcher" else set[str]()
    if label == "Researcher":
        moved |= {r["new"] for r in renames} | {m["survivor"] for m in merges}
        touched |= moved
    survivor_renames = [r for r in renames if not any(m["loser"] == r["old"] for m in merges)]
    if survivor_renames and label in _RENAME:
        tx.run(_RENAME[label], renames=survivor_renames).consume()
    for rename in renames if label == "Institution" else []:  # one at a time: they may share edges
        papers = [rec["paper"] for rec in tx.run(load_nodes.REWRITE_INSTITUTION_IDS, renames=[rename])]
        restate(tx, papers)  # the papers now state the survivor
    return touched, moved


def _join_on_nodes(
    label: str, groups: list[_Group], found: dict[int, dict[str, dict[str, str]]], warnings: list[str]
) -> tuple[list[_Group], dict[int, dict[str, dict[str, str]]]]:
    """Groups of the batch that name the same existing node (by different keys) become one group."""
    parent = list(range(len(groups)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    first_group: dict[str, int] = {}
    for gi in sorted(found):
        for nid in sorted(found[gi]):
            if nid in first_group and root(first_group[nid]) != root(gi):
                parent[root(gi)] = root(first_group[nid])
            first_group.setdefault(nid, gi)
    joined: dict[int, _Group] = {}
    joined_found: dict[int, dict[str, dict[str, str]]] = {}
    for gi, group in enumerate(groups):
        r = root(gi)
        if r not in joined:
            joined[r], joined_found[r] = group, dict(found.get(gi, {}))
            continue
        target = joined[r]
        for prop in _conflicts(target.keys, group.keys):
            kept = min(target.keys[prop], group.keys[prop])
            warnings.append(
                f"{label}: rows naming one node differ on {prop} ({target.keys[prop]} / "
                f"{group.keys[prop]}); kept {kept}"
            )
            target.keys[prop] = group.keys[prop] = kept
        target.rows.extend(group.rows)
        target.keys.update(group.keys)
        joined_found[r].update(found.get(gi, {}))
    order = sorted(joined)
    return [joined[r] for r in order], {i: joined_found[r] for i, r in enumerate(order)}


def shared_props(label: str, rows: list[_Row]) -> tuple[dict[str, Any], dict[str, str], set[str]]:
    """(props, ranks, alt names) of rows naming one node: each shared property from the highest-ranked
    row giving it a non-null value, with that row's rank (what `prop_ranks` stores as `name=rank`)."""
    props: dict[str, Any] = {}
    ranks: dict[str, str] = {}
    names: set[str] = set()
    for r in sorted(rows, key=lambda r: r.record_rank, reverse=True):
        for k, v in r.node.props.items():
            if k == "alt_names":
                names.update(v or [])
            elif v is not None and k not in props:
                props[k], ranks[k] = v, r.record_rank
        if label in ("Researcher", "Institution") and r.node.props.get("name"):
            names.add(r.node.props["name"])
    return props, ranks, names


def _upsert(tx: ManagedTransaction, label: str, groups: list[_Group]) -> dict[tuple[int, int], bool]:
    """Upsert one row per node: each property from the highest-ranked row having it, each source's
    own values from that source's newest row.

    Returns {(record, index): won} for each group's newest row per source.
    """
    params: list[dict[str, Any]] = []
    handles: dict[tuple[int, str], tuple[int, int]] = {}
    for group in groups:
        rows = sorted(group.rows, key=lambda r: r.record_rank, reverse=True)
        props, ranks, names = shared_props(label, rows)
        newest: dict[str, _Row] = {}
        for r in rows:
            if r.node.source not in newest or r.source_rank > newest[r.node.source].source_rank:
                newest[r.node.source] = r
        for source, r in newest.items():
            handles[(len(params), source)] = (r.record, r.index)
        params.append(
            {
                "i": len(params),
                "id": group.final_id,
                "keys": group.keys,
                "aliases": aliases(label, group.keys),
                "props": props,
                "ranks": ranks,
                "alt_names": sorted(names) if label in ("Researcher", "Institution") else None,
                "sources": [
                    {
                        "source": source,
                        "source_rank": r.source_rank,
                        "source_props": {k: v for k, v in r.node.source_props.items() if v is not None},
                        "rank_property": f"{source}_rank",
                        "loaded_property": f"{source}_loaded_at",
                    }
                    for source, r in sorted(newest.items())
                ],
            }
        )
    won = {(rec["i"], source) for rec in tx.run(_UPSERT[label], rows=params) for source in rec["won"]}
    return {handle: key in won for key, handle in handles.items()}


class _RelParam(TypedDict):
    """One relationship row as the WRITE_*/CREATE_* statements take it."""

    start: str
    end: str
    source: str  # the highest-priority source stating it: it sets the properties
    sources: list[str]
    props: dict[str, Any]


class _RelRows:
    """The relationship rows of a batch that apply, one per relationship, and the ends each winning
    row's source keeps of the types it owns."""

    def __init__(self, done: _Written) -> None:
        self.done = done
        self.owners: dict[tuple[str, str, str], list[str]] = {}  # (type, owner id, source) -> other ends kept
        self.rows: dict[str, dict[tuple[str, str], _RelParam]] = {}  # type -> (start, end) -> row
        self.refs: dict[str, dict[str, str]] = {}  # Ref key -> its key property

    def add_record(self, ri: int, record: RecordRows) -> None:
        for ni, node in enumerate(record.nodes):
            if (ri, ni) in self.done.effective and (ri, ni) in self.done.row_ids:
                for rel_type in node.owns:
                    self.owners.setdefault((rel_type, self.done.row_ids[(ri, ni)], node.source), [])
        for rel in record.rels:
            if rel.owner is None or (ri, rel.owner) in self.done.effective:
                self._add(ri, record, rel)

    def _add(self, ri: int, record: RecordRows, rel: RelRow) -> None:
        ends = self._ends(rel)
        if ends is None:
            return  # an end that could only attach, and found nothing
        start, end = ends
        source = record.nodes[rel.owner if rel.owner is not None else 0].source
        if rel.owner is not None:
            owned = self.owners.get((rel.type, self.done.row_ids[(ri, rel.owner)], source))
            if owned is not None:
                owned.append(start if rel.type == "AUTHORED" else end)
        props = self._props(rel)
        row = self.rows.setdefault(rel.type, {}).get((start, end))
        if row is None:
            self.rows[rel.type][(start, end)] = {
                "start": start,
                "end": end,
                "source": source,
                "sources": [source],
                "props": props,
            }
        elif source not in row["sources"]:
            row["sources"].append(source)
            if SOURCE_PRIORITY.get(source, 0) > SOURCE_PRIORITY.get(row["source"], 0):
                row["source"], row["props"] = source, props

    def _ends(self, rel: RelRow) -> tuple[str, str] | None:
        """(start id, end id or Ref key), None when an end was not written."""
        start_label, end_label = REL_ENDS[rel.type]
        start = self.done.key_to_id.get((start_label, rel.start))
        if start is None:
            return None
        if end_label == "Ref":
            prop, value = key_property("Paper", rel.end)
            self.refs[rel.end] = {prop: value}
            return start, rel.end
        end = self.done.key_to_id.get((end_label, rel.end))
        return None if end is None else (start, end)

    def _props(self, rel: RelRow) -> dict[str, Any]:
        """The row's properties, None values dropped; `institution_keys` become `institution_ids`."""
        props = dict(rel.props)
        if "institution_keys" in props:
            found = [self.done.key_to_id.get(("Institution", k)) for k in props.pop("institution_keys")]
            props["institution_ids"] = list(dict.fromkeys(i for i in found if i))
        return {k: v for k, v in props.items() if v is not None}


def _write_rels(
    tx: ManagedTransaction, records: list[RecordRows], done: _Written
) -> tuple[set[str], set[str], set[str], set[str]]:
    """Release what winning rows owned, then write every applicable relationship row; returns the
    researchers whose edges were released, of those the ones released from an authorship, the
    researchers given listed affiliations, and those released from one.

    Nodes in `done.created` are new in this transaction: nothing to release, and an edge touching
    one is created without MERGE's existence check."""
    rels = _RelRows(done)
    for ri, record in enumerate(records):
        rels.add_record(ri, record)
    touched, moved, unlisted = _release(tx, rels.owners, done.created)
    if rels.refs:
        tx.run(load_nodes.UPSERT_REFS, refs=[{"key": k, "keys": v} for k, v in rels.refs.items()]).consume()
    for rel_type, by_ends in rels.rows.items():
        fresh = [row for row in by_ends.values() if row["start"] in done.created or row["end"] in done.created]
        known = [row for row in by_ends.values() if not (row["start"] in done.created or row["end"] in done.created)]
        if fresh:
            tx.run(_CREATE_REL[rel_type], rows=fresh, sources=sorted(SOURCE_PRIORITY)).consume()
        if known:
            tx.run(
                _WRITE_REL[rel_type], rows=known, priority=dict(SOURCE_PRIORITY), sources=sorted(SOURCE_PRIORITY)
            ).consume()
    listed = {row["start"] for row in rels.rows.get("LISTED_AFFILIATION", {}).values()}
    return touched, moved, listed, unlisted


def _release(
    tx: ManagedTransaction, owners: dict[tuple[str, str, str], list[str]], created: set[str]
) -> tuple[set[str], set[str], set[str]]:
    """Each owner's sources leave its edges of the owned types whose other end they no longer state
    (one row per owner node, nodes created in this batch skipped); returns the touched researchers
    and, of those, the ones released from an authorship and the ones released from a listed affiliation."""
    by_owner: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for (rel_type, owner_id, source), keep in sorted(owners.items()):
        by_owner.setdefault((rel_type, owner_id), []).append({"source": source, "keep": keep})
    by_type: dict[str, list[dict[str, Any]]] = {}
    for (rel_type, owner_id), sources in by_owner.items():
        if owner_id not in created:
            by_type.setdefault(rel_type, []).append({"id": owner_id, "sources": sources})
    touched: set[str] = set()
    moved: set[str] = set()
    unlisted: set[str] = set()
    for rel_type, owner_rows in by_type.items():
        for rec in tx.run(_RELEASE[rel_type], owners=owner_rows):
            if "researcher" in rec.keys():
                touched.add(rec["researcher"])
                if rel_type == "AUTHORED":
                    moved.add(rec["researcher"])
                else:
                    unlisted.add(rec["researcher"])
    return touched, moved, unlisted
