"""The derived parts of an exported graph, computed in Python the way the writer's Cypher does.

Stored relationships get their final ends (after merges) and AUTHORED its `institution_ids`;
then CITES (a REFERENCES whose Ref key a loaded paper has), COAUTHORED_WITH (weight = shared
papers, first/last year, from the smaller id to the larger) and AFFILIATED_WITH (papers stating
the institution, first/last year from those papers and the OpenAlex affiliation years).
"""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations
from typing import TYPE_CHECKING, Any

from graph.ids import KEY_PROPERTIES
from loaders.csv_files import GraphBuffer

if TYPE_CHECKING:
    from loaders.csv_export import MemoryGraph, Node

# Row types that only feed derived relationships and are not stored themselves.
NOT_STORED = {"LISTED_AFFILIATION"}


def key_rank(label: str, canonical_key: str) -> int:
    """Position of a canonical key's scheme in the label's key order (0 = best)."""
    if label == "Category":
        return 0
    scheme = canonical_key.partition(":")[0]
    for rank, (name, _) in enumerate(KEY_PROPERTIES[label]):
        if name == scheme:
            return rank
    return len(KEY_PROPERTIES[label])


def node_extras(label: str, props: dict[str, Any]) -> dict[str, Any]:
    """Properties the writer computes from others (the default citation count, search text)."""
    extras: dict[str, Any] = {}
    if label == "Paper":
        for source in ("openalex", "s2"):
            value = props.get(f"cited_by_count_{source}")
            if value is not None:
                extras["cited_by_count"] = value
                break
    if label in ("Researcher", "Institution") and props.get("alt_names"):
        extras["alt_names_text"] = " ".join(props["alt_names"])
    return extras


def add_relationships(graph: MemoryGraph, buffer: GraphBuffer, ids: dict[int, str]) -> None:
    """Stored relationships with resolved ends, then every derived one, into `buffer`."""
    institutions = graph.index.get("Institution", {})
    papers = graph.index.get("Paper", {})
    listed: dict[tuple[str, str], set[int]] = defaultdict(set)
    authored: dict[str, list[str]] = defaultdict(list)  # paper id -> researcher ids
    stated: dict[tuple[str, str], set[str]] = defaultdict(set)  # (researcher, institution) -> papers
    year_of: dict[str, int | None] = {}
    for (rel_type, start_node, end), props in graph.rels.items():
        start = start_node.find()
        sid = ids[id(start)]
        if rel_type == "REFERENCES":
            buffer.put_relationship("REFERENCES", ("Paper", sid), ("Ref", end), {})
            target = papers.get(end)
            if target is not None:
                buffer.put_relationship("CITES", ("Paper", sid), ("Paper", ids[id(target.find())]), {})
            continue
        assert not isinstance(end, str)
        end_node = end.find()
        eid = ids[id(end_node)]
        if rel_type == "LISTED_AFFILIATION":
            listed[(sid, eid)].update(props.get("years") or ())
            continue
        props = dict(props)
        if rel_type == "AUTHORED":
            inst_ids = _institution_ids(props.pop("institution_keys", None) or [], institutions, ids)
            props["institution_ids"] = inst_ids
            authored[eid].append(sid)
            year_of[eid] = end_node.props.get("year")
            for iid in inst_ids:
                stated[(sid, iid)].add(eid)
        props = {k: v for k, v in props.items() if v is not None}
        buffer.put_relationship(rel_type, (start.label, sid), (end_node.label, eid), props)
    _coauthorships(buffer, authored, year_of)
    _affiliations(buffer, stated, listed, year_of)


def _institution_ids(keys: list[str], institutions: dict[str, Node], ids: dict[int, str]) -> list[str]:
    found: list[str] = []
    for key in keys:
        node = institutions.get(key)
        if node is not None:
            iid = ids[id(node.find())]
            if iid not in found:
                found.append(iid)
    return found


def _coauthorships(buffer: GraphBuffer, authored: dict[str, list[str]], year_of: dict[str, int | None]) -> None:
    pairs: dict[tuple[str, str], list] = {}
    for paper, authors in authored.items():
        year = year_of.get(paper)
        for a, b in combinations(sorted(set(authors)), 2):
            entry = pairs.get((a, b))
            if entry is None:
                pairs[(a, b)] = [1, year, year]
            else:
                entry[0] += 1
                if year is not None:
                    entry[1] = year if entry[1] is None else min(entry[1], year)
                    entry[2] = year if entry[2] is None else max(entry[2], year)
    for (a, b), (weight, first, last) in pairs.items():
        props = {"weight": weight, "first_year": first, "last_year": last}
        buffer.put_relationship("COAUTHORED_WITH", ("Researcher", a), ("Researcher", b),
                                {k: v for k, v in props.items() if v is not None})


def _affiliations(
    buffer: GraphBuffer,
    stated: dict[tuple[str, str], set[str]],
    listed: dict[tuple[str, str], set[int]],
    year_of: dict[str, int | None],
) -> None:
    for pair in set(stated) | set(listed):
        papers = stated.get(pair, set())
        years = {y for p in papers if (y := year_of.get(p)) is not None} | listed.get(pair, set())
        props: dict[str, Any] = {"papers": len(papers)}
        if years:
            props["first_year"] = min(years)
            props["last_year"] = max(years)
        buffer.put_relationship("AFFILIATED_WITH", ("Researcher", pair[0]), ("Institution", pair[1]), props)
