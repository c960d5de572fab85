"""The finishing steps of an exported graph, computed in Python the way the writer's Cypher does.

Node properties as queries/load_nodes.py's upserts leave them (keys, aliases, ranks, loaded_at,
`alt_names_text`, the default `cited_by_count`); stored relationships with `source`/`sources`
and AUTHORED `institution_ids`; then queries/derive.py's derived relationships: CITES (a
REFERENCES whose Ref key a loaded paper holds, never to itself), COAUTHORED_WITH (weight = shared
papers, first/last year, from the smaller id to the larger) and AFFILIATED_WITH (papers stating
the institution on an authorship, first/last year from those papers and the listed years).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from itertools import combinations
from typing import TYPE_CHECKING, Any

from graph.ids import aliases
from loaders.csv_files import GraphBuffer

if TYPE_CHECKING:
    from loaders.csv_export import MemoryGraph, Node

# Row relationship types and the type they are stored as.
STORED_TYPE = {"CATEGORY_PART_OF": "PART_OF", "INSTITUTION_PART_OF": "PART_OF"}


def node_properties(node: Node, loaded_at: datetime) -> dict[str, Any]:
    """Every property the online writer leaves on a node (empty lists omitted: CSV cannot hold them)."""
    props: dict[str, Any] = {**node.props, **node.source_props, **node.keys, "id": node.id}
    props["aliases"] = aliases(node.label, node.keys) or None
    props["record_rank"] = node.record_rank
    for source, rank in node.source_ranks.items():
        props[f"{source}_rank"] = rank
    for source in node.loaded:
        props[f"{source}_loaded_at"] = loaded_at
    if node.label == "Paper":
        props["cited_by_count"] = next(
            (v for v in (props.get("cited_by_count_openalex"), props.get("cited_by_count_s2")) if v is not None),
            None,
        )
    if node.label in ("Researcher", "Institution"):
        names = sorted(node.alt_names or ())
        props["alt_names"] = names or None
        props["alt_names_text"] = "".join(name + " " for name in names)
    elif node.alt_names:
        props["alt_names"] = sorted(node.alt_names)
    return props


def add_relationships(graph: MemoryGraph, buffer: GraphBuffer) -> None:
    """Stored relationships with their final ends, then every derived one, into `buffer`."""
    papers = graph.index.get("Paper", {})
    listed: dict[tuple[str, str], list[int | None]] = defaultdict(list)
    authors_of: dict[str, list[str]] = defaultdict(list)  # paper id -> researcher ids
    stated: dict[tuple[str, str], set[str]] = defaultdict(set)  # (researcher, institution) -> paper ids
    year_of: dict[str, int | None] = {}
    ids: dict[int, str] = {}

    def id_of(node: Node) -> str:
        node = node.find()
        found = ids.get(id(node))
        if found is None:
            found = ids[id(node)] = node.id
        return found

    for (rel_type, start_node, end), edge in graph.rels.items():
        start = start_node.find()
        sid = id_of(start)
        props = {**edge.props, "source": edge.source, "sources": sorted(edge.sources)}
        if rel_type == "REFERENCES":
            buffer.put_relationship("REFERENCES", ("Paper", sid), ("Ref", end), props)
            target = papers.get(end)
            if target is not None and target.find() is not start:
                buffer.put_relationship("CITES", ("Paper", sid), ("Paper", id_of(target)), {})
            continue
        end_node = end.find()
        eid = id_of(end_node)
        if rel_type == "AUTHORED":
            inst_ids = [id_of(n) for n in props.pop("institution_keys", None) or []]
            props["institution_ids"] = inst_ids or None
            authors_of[eid].append(sid)
            year_of[eid] = end_node.props.get("year")
            for iid in inst_ids:
                stated[(sid, iid)].add(eid)
        elif rel_type == "LISTED_AFFILIATION":
            listed[(sid, eid)].extend(props.get("years") or [None])
            props["years"] = props.get("years") or None
        buffer.put_relationship(
            STORED_TYPE.get(rel_type, rel_type), (start.label, sid), (end_node.label, eid), props
        )
    _coauthorships(buffer, authors_of, year_of)
    _affiliations(buffer, stated, listed, year_of)


def coauthor_pairs(
    authors_of: dict[str, list[str]], year_of: dict[str, int | None]
) -> dict[tuple[str, str], tuple[int, int | None, int | None]]:
    """{(smaller id, larger id): (shared papers, first year, last year)} (pure)."""
    pairs: dict[tuple[str, str], list] = {}
    for paper, authors in authors_of.items():
        year = year_of.get(paper)
        for pair in combinations(sorted(set(authors)), 2):
            entry = pairs.get(pair)
            if entry is None:
                pairs[pair] = [1, year, year]
                continue
            entry[0] += 1
            if year is not None:
                entry[1] = year if entry[1] is None else min(entry[1], year)
                entry[2] = year if entry[2] is None else max(entry[2], year)
    return {pair: (w, first, last) for pair, (w, first, last) in pairs.items()}


def _coauthorships(buffer: GraphBuffer, authors_of: dict[str, list[str]], year_of: dict[str, int | None]) -> None:
    for (a, b), (weight, first, last) in coauthor_pairs(authors_of, year_of).items():
        buffer.put_relationship("COAUTHORED_WITH", ("Researcher", a), ("Researcher", b),
                                {"weight": weight, "first_year": first, "last_year": last})


def _affiliations(
    buffer: GraphBuffer,
    stated: dict[tuple[str, str], set[str]],
    listed: dict[tuple[str, str], list[int | None]],
    year_of: dict[str, int | None],
) -> None:
    for pair in stated.keys() | listed.keys():
        papers = stated.get(pair, set())
        years = [y for p in papers if (y := year_of.get(p)) is not None]
        years += [y for y in listed.get(pair, []) if y is not None]
        buffer.put_relationship("AFFILIATED_WITH", ("Researcher", pair[0]), ("Institution", pair[1]), {
            "papers": len(papers),
            "first_year": min(years) if years else None,
            "last_year": max(years) if years else None,
        })
