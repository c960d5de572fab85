"""The finishing steps of an exported graph, computed in Python the way the writer's Cypher does.

Node properties as queries/load_nodes.py's upserts leave them (keys, aliases, ranks, loaded_at,
`alt_names_text`, the default `cited_by_count`); stored relationships with `source`/`sources`
and AUTHORED `institution_ids`; then queries/derive.py's derived relationships: CITES (a
REFERENCES whose Ref key a loaded paper holds, never to itself), COAUTHORED_WITH (weight = shared
papers, first/last year, from the smaller id to the larger), AFFILIATED_WITH (papers stating
the institution on an authorship, first/last year from those papers and the listed years) and
SAME_NAME_AS (compatible names in one name_key bucket, loaders.write.same_name_pairs, with the
shared co-authors, institutions, overlapping years and shared papers as evidence).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from itertools import combinations
from typing import TYPE_CHECKING, Any

from weft.graph.identity.ids import aliases
from weft.loaders.claims import plan_claims
from weft.loaders.csv_files import GraphBuffer
from weft.loaders.write import same_name_pairs

if TYPE_CHECKING:
    from weft.loaders.csv_export import MemoryGraph, Node

# Row relationship types and the type they are stored as.
STORED_TYPE = {"CATEGORY_PART_OF": "PART_OF", "INSTITUTION_PART_OF": "PART_OF"}

# (smaller researcher id, larger) -> (shared papers, first year, last year): COAUTHORED_WITH.
CoauthorPairs = dict[tuple[str, str], tuple[int, int | None, int | None]]


def node_properties(node: Node, loaded_at: datetime) -> dict[str, Any]:
    """Every property the online writer leaves on a node (empty lists omitted: CSV cannot hold them)."""
    props: dict[str, Any] = {**node.props, **node.source_props, **node.keys, "id": node.id}
    props["aliases"] = aliases(node.label, node.keys) or None
    props["prop_ranks"] = sorted(f"{k}={rank}" for k, rank in node.prop_ranks.items()) or None
    for source, rank in node.source_ranks.items():
        props[f"{source}_rank"] = rank
    for source in node.loaded:
        props[f"{source}_loaded_at"] = loaded_at
    if node.label == "Paper":
        props["cited_by_count"] = next(
            (v for v in (props.get("cited_by_count_openalex"), props.get("cited_by_count_s2")) if v is not None),
            None,
        )
        props.update(sort_keys(props))
    if node.label in ("Researcher", "Institution"):
        names = sorted(node.alt_names or ())
        props["alt_names"] = names or None
        props["alt_names_text"] = "".join(name + " " for name in names)
    elif node.alt_names:
        props["alt_names"] = sorted(node.alt_names)
    return props


def sort_keys(props: dict[str, Any]) -> dict[str, Any]:
    """A paper's `sort_cited` and `sort_date` (graph/MODEL.md, "Sort keys"), as UPSERT_PAPERS sets them."""
    cited, date, year = props.get("cited_by_count"), props.get("publication_date"), props.get("year")
    return {
        "sort_cited": 0 if cited is None else cited,
        "sort_date": date if date is not None else str(year) if year is not None else "",
    }


def apply_claims(graph: MemoryGraph) -> None:
    """loaders/claims.py's rule over every paper (queries/load_claims.py's slots and moves)."""
    slots_at: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    by_id: dict[str, Node] = {}
    for (rel_type, researcher, paper), edge in graph.rels.items():
        if rel_type != "AUTHORED" or isinstance(paper, str) or edge.props.get("rank") is None:
            continue
        by_id[researcher.id] = researcher
        by_id[paper.id] = paper
        keys = researcher.keys
        slots_at[(paper.id, edge.props["rank"])].append(
            {
                "paper": paper.id,
                "rank": edge.props["rank"],
                "researcher": researcher.id,
                "scoped": "scoped_key" in keys,
                "name": researcher.props.get("name"),
                "key_rank": 0 if "orcid" in keys else 1 if "openalex_id" in keys else 2 if "s2_id" in keys else 3,
                "sources": sorted(edge.sources),
                "claimed": sorted(edge.claimed),
            }
        )
    slots = [
        s
        for group in slots_at.values()
        if len(group) > 1 and any(s["scoped"] or s["claimed"] for s in group)
        for s in group
    ]
    for move in plan_claims(slots):
        paper, src, dst = by_id[move["paper"]], by_id[move["from"]], by_id[move["to"]]
        f, t = graph.rels.get(("AUTHORED", src, paper)), graph.rels.get(("AUTHORED", dst, paper))
        if f is None or t is None:
            continue
        moved = set(move["sources"])
        t.sources |= moved
        t.claimed |= moved
        f.sources -= moved
        f.claimed -= moved
        if not f.sources:
            graph.drop_edge(("AUTHORED", src, paper))
            if "scoped_key" in src.keys and not any(k[0] == "AUTHORED" and k[1] is src for k in src.edges):
                for key in list(src.edges):
                    graph.drop_edge(key)
                graph.deleted.add(id(src))


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
        props: dict[str, Any] = {
            **edge.props,
            "source": edge.source,
            "sources": sorted(edge.sources),
            "claimed_sources": sorted(edge.claimed) or None,
        }
        if isinstance(end, str):  # REFERENCES, the one type whose end is a Ref key, not a node
            buffer.put_relationship("REFERENCES", ("Paper", sid), ("Ref", end), props)
            target = papers.get(end)
            if target is not None and target.find() is not start:
                buffer.put_relationship("CITES", ("Paper", sid), ("Paper", id_of(target)), {})
            continue
        end_node = end.find()
        eid = id_of(end_node)
        if rel_type == "AUTHORED":
            inst_ids = [id_of(n) for n in props.pop("institution_keys", None) or ()]
            props["institution_ids"] = inst_ids or None
            authors_of[eid].append(sid)
            year_of[eid] = end_node.props.get("year")
            for iid in inst_ids:
                stated[(sid, iid)].add(eid)
        elif rel_type == "LISTED_AFFILIATION":
            listed[(sid, eid)].extend(props.get("years") or [None])
            props["years"] = props.get("years") or None
        buffer.put_relationship(STORED_TYPE.get(rel_type, rel_type), (start.label, sid), (end_node.label, eid), props)
    pairs = coauthor_pairs(authors_of, year_of)
    for (a, b), (weight, first, last) in pairs.items():
        buffer.put_relationship(
            "COAUTHORED_WITH",
            ("Researcher", a),
            ("Researcher", b),
            {"weight": weight, "first_year": first, "last_year": last},
        )
    affiliated = _affiliations(buffer, stated, listed, year_of)
    people = [
        {
            "name_key": n.props["name_key"],
            "id": id_of(n),
            "name": n.props.get("name"),
            "is_person": n.props.get("is_person", True),
        }
        for n in graph.live_nodes()
        if n.label == "Researcher" and n.props.get("name_key")
    ]
    _same_names(buffer, people, pairs, affiliated, authors_of, year_of)


def coauthor_pairs(authors_of: dict[str, list[str]], year_of: dict[str, int | None]) -> CoauthorPairs:
    """{(smaller id, larger id): (shared papers, first year, last year)} (pure)."""
    pairs: CoauthorPairs = {}
    for paper, authors in authors_of.items():
        year = year_of.get(paper)
        for pair in combinations(sorted(set(authors)), 2):
            weight, first, last = pairs.get(pair, (0, year, year))
            if year is not None:
                first = year if first is None else min(first, year)
                last = year if last is None else max(last, year)
            pairs[pair] = (weight + 1, first, last)
    return pairs


def _affiliations(
    buffer: GraphBuffer,
    stated: dict[tuple[str, str], set[str]],
    listed: dict[tuple[str, str], list[int | None]],
    year_of: dict[str, int | None],
) -> set[tuple[str, str]]:
    """AFFILIATED_WITH into `buffer`; returns the (researcher, institution) pairs."""
    pairs = stated.keys() | listed.keys()
    for pair in pairs:
        papers = stated.get(pair, set())
        years = [y for p in papers if (y := year_of.get(p)) is not None]
        years += [y for y in listed.get(pair, []) if y is not None]
        buffer.put_relationship(
            "AFFILIATED_WITH",
            ("Researcher", pair[0]),
            ("Institution", pair[1]),
            {
                "papers": len(papers),
                "first_year": min(years) if years else None,
                "last_year": max(years) if years else None,
            },
        )
    return pairs


def _span(papers: set[str], year_of: dict[str, int | None]) -> tuple[int | None, int | None]:
    years = [y for p in papers if (y := year_of.get(p)) is not None]
    return (min(years), max(years)) if years else (None, None)


def overlap_years(span_a: tuple[int | None, int | None], span_b: tuple[int | None, int | None]) -> int:
    """Overlapping active years as BUILD_SAME_NAME computes them: 0 when either span is unknown."""
    (a0, a1), (b0, b1) = span_a, span_b
    if a0 is None or a1 is None or b0 is None or b1 is None:
        return 0
    return max(0, min(a1, b1) - max(a0, b0) + 1)


def _same_names(
    buffer: GraphBuffer,
    people: list[dict[str, Any]],
    coauthors: CoauthorPairs,
    affiliated: set[tuple[str, str]],
    authors_of: dict[str, list[str]],
    year_of: dict[str, int | None],
) -> None:
    """SAME_NAME_AS between compatible names of one name_key bucket, with derive.py's evidence."""
    candidates = same_name_pairs(people)
    if not candidates:
        return
    neighbours: dict[str, set[str]] = defaultdict(set)
    for a, b in coauthors:
        neighbours[a].add(b)
        neighbours[b].add(a)
    institutions: dict[str, set[str]] = defaultdict(set)
    for researcher, institution in affiliated:
        institutions[researcher].add(institution)
    papers_of: dict[str, set[str]] = defaultdict(set)
    for paper, authors in authors_of.items():
        for researcher in authors:
            papers_of[researcher].add(paper)
    name_key = {p["id"]: p["name_key"] for p in people}
    for pair in candidates:
        a, b = pair["a"], pair["b"]
        shared_coauthors = len(neighbours[a] & neighbours[b])
        shared_institutions = len(institutions[a] & institutions[b])
        overlap = overlap_years(_span(papers_of[a], year_of), _span(papers_of[b], year_of))
        evidence = _same_name_evidence(
            name_key[a], shared_coauthors, shared_institutions, overlap, len(papers_of[a] & papers_of[b])
        )
        buffer.put_relationship(
            "SAME_NAME_AS",
            ("Researcher", a),
            ("Researcher", b),
            {
                "shared_coauthors": shared_coauthors,
                "shared_institutions": shared_institutions,
                "overlapping_years": overlap,
                "evidence": evidence,
            },
        )


def _same_name_evidence(
    name_key: str, shared_coauthors: int, shared_institutions: int, overlap: int, shared_papers: int
) -> list[str]:
    """The evidence lines of one SAME_NAME_AS, as derive.py words them (zero counts left out)."""
    evidence = [f"same name key: {name_key}"]
    if shared_coauthors > 0:
        evidence.append(f"shared co-authors: {shared_coauthors}")
    if shared_institutions > 0:
        evidence.append(f"shared institutions: {shared_institutions}")
    if overlap > 0:
        evidence.append(f"overlapping years: {overlap}")
    if shared_papers > 0:
        evidence.append(f"listed together on {shared_papers} paper(s)")
    return evidence
