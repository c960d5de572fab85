"""Researcher reads: lookup by any id form, batched metrics, profile aggregates, co-author pages."""

from __future__ import annotations

from typing import Any

from graph.lookup_ids import parse_researcher_id
from graph.reads.papers import Page, keys_param
from graph.reads.reader import GraphReader
from queries import read_researchers as q

Row = dict[str, Any]


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


async def author_positions(reader: GraphReader, researcher_id: str) -> Row:
    """`{first, middle, last, matched_papers}` over papers with a complete author list."""
    row = await reader.one(q.AUTHOR_POSITIONS, {"id": researcher_id}, "counting author positions")
    return row or {"first": 0, "middle": 0, "last": 0, "matched_papers": 0}


async def fields(reader: GraphReader, researcher_id: str, scheme: str, limit: int) -> list[Row]:
    """`[{category, count}]`: categories of one scheme over the researcher's papers."""
    params = {"id": researcher_id, "scheme": scheme, "limit": limit}
    return await reader.rows(q.RESEARCHER_FIELDS, params, "counting research fields")


async def institutions(reader: GraphReader, researcher_id: str) -> list[Row]:
    """`[{institution, first_year, last_year, paper_count}]`, most recent first."""
    return await reader.rows(q.RESEARCHER_INSTITUTIONS, {"id": researcher_id}, "listing affiliations")


async def same_name(reader: GraphReader, researcher_id: str) -> list[Row]:
    """`[{researcher, evidence}]` linked by SAME_NAME_AS."""
    return await reader.rows(q.RESEARCHER_SAME_NAME, {"id": researcher_id}, "listing same-name researchers")


async def coauthor_page(
    reader: GraphReader, researcher_id: str, min_weight: int, sort: str, skip: int, limit: int
) -> Page:
    """Co-authors with at least `min_weight` shared papers, by WEIGHT or RECENT."""
    params = {"id": researcher_id, "min_weight": min_weight, "sort": sort, "skip": skip, "end": skip + limit}
    row = await reader.one(q.COAUTHOR_PAGE, params, "listing co-authors")
    return Page(rows=row["page"], total=row["total"]) if row else Page([], 0)
