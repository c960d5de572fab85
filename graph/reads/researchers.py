"""Researcher reads: lookup by any id form, batched metrics, profile aggregates, co-author pages."""

from __future__ import annotations

from weft.graph.identity.lookup import parse_researcher_id
from weft.graph.reads.page import Page, Row, keys_param
from weft.graph.reads.reader import GraphReader
from weft.queries import read_researchers as q


async def find_researcher(reader: GraphReader, raw_id: str) -> Row | None:
    """The researcher's properties for any accepted id form, or None."""
    keys = parse_researcher_id(raw_id)
    if not keys:
        return None
    found = await reader.one(q.RESEARCHER_LOOKUP, {"keys": keys_param(keys)}, "looking up a researcher")
    if found is None and any(k.property == "alias" for k in keys):
        alias = next(k.value for k in keys if k.property == "alias")
        found = await reader.one(q.RESEARCHER_BY_ALIAS, {"value": alias}, "looking up a researcher alias")
    return found["node"] if found else None


async def researchers_by_ids(reader: GraphReader, ids: list[str]) -> dict[str, Row]:
    """`{id: properties}` for the ids that exist."""
    rows = await reader.rows(q.RESEARCHERS_BY_IDS, {"ids": ids}, "loading researchers")
    return {r["id"]: r["node"] for r in rows}


async def researcher_stats(reader: GraphReader, ids: list[str]) -> dict[str, Row]:
    """`{id: {paper_count, citation_count, h_index, i10_index}}` over the papers in this graph."""
    rows = await reader.rows(q.RESEARCHER_STATS, {"ids": ids}, "computing researcher metrics")
    return {r["id"]: r for r in rows}


async def author_positions(reader: GraphReader, ids: list[str]) -> dict[str, Row]:
    """`{id: {first, middle, last, matched_papers}}` over papers with a complete author list."""
    rows = await reader.rows(q.AUTHOR_POSITIONS, {"ids": ids}, "counting author positions")
    return {r["id"]: r for r in rows}


async def fields(reader: GraphReader, keys: list[tuple[str, str, int]]) -> dict[tuple[str, str, int], list[Row]]:
    """`{(id, scheme, limit): [{category, count}]}`: categories of one scheme over each researcher's papers."""
    params = {"keys": [{"id": i, "scheme": s, "limit": n} for i, s, n in keys]}
    rows = await reader.rows(q.RESEARCHER_FIELDS, params, "counting research fields")
    return {(r["id"], r["scheme"], r["limit"]): r["fields"] for r in rows}


def _grouped(ids: list[str], rows: list[Row]) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = {i: [] for i in ids}
    for r in rows:
        out[r["id"]].append(r)
    return out


async def institutions(reader: GraphReader, ids: list[str]) -> dict[str, list[Row]]:
    """`{id: [{institution, first_year, last_year, paper_count}]}`, most recent first."""
    return _grouped(ids, await reader.rows(q.RESEARCHER_INSTITUTIONS, {"ids": ids}, "listing affiliations"))


async def same_name(reader: GraphReader, ids: list[str]) -> dict[str, list[Row]]:
    """`{id: [{researcher, evidence}]}` linked by SAME_NAME_AS."""
    return _grouped(ids, await reader.rows(q.RESEARCHER_SAME_NAME, {"ids": ids}, "listing same-name researchers"))


async def most_cited_paper(reader: GraphReader, ids: list[str]) -> dict[str, Row]:
    """`{id: paper properties}` of each researcher's most cited paper."""
    rows = await reader.rows(q.MOST_CITED_PAPER, {"ids": ids}, "finding most cited papers")
    return {r["id"]: r["node"] for r in rows}


CoauthorPageKey = tuple[str, int, str, int, int]


async def coauthor_pages(reader: GraphReader, keys: list[CoauthorPageKey]) -> dict[CoauthorPageKey, Page]:
    """`{(id, min_weight, sort, skip, limit): Page}` of co-authors sharing at least `min_weight` papers."""
    params = {"keys": [{"id": i, "min_weight": w, "sort": s, "skip": k, "end": k + n} for i, w, s, k, n in keys]}
    rows = await reader.rows(q.COAUTHOR_PAGES, params, "listing co-authors")
    return {
        (r["id"], r["min_weight"], r["sort"], r["skip"], r["end"] - r["skip"]): Page(r["page"], r["total"])
        for r in rows
    }
