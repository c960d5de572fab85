"""Reads only the site needs: what the graph holds (home page, llms.txt) and the sitemap's pages in id order."""

from __future__ import annotations

from typing import LiteralString

from weft.graph.reads.page import Row
from weft.graph.reads.reader import GraphReader
from weft.queries import read_site as q

SITEMAP_QUERIES: dict[str, LiteralString] = {
    "papers": q.SITEMAP_PAPERS,
    "researchers": q.SITEMAP_RESEARCHERS,
    "institutions": q.SITEMAP_INSTITUTIONS,
}


async def site_counts(reader: GraphReader) -> Row:
    """`{papers, researchers, institutions, categories, citations, openalex, s2, arxiv}` (papers per source id)."""
    return await reader.one(q.SITE_COUNTS, {}, "counting the graph") or {}


async def sitemap_nodes(reader: GraphReader, section: str, after: str, skip: int, limit: int) -> list[Row]:
    """`limit` nodes of a section (`papers`, `researchers`, `institutions`) in id order after `after`, `skip` first."""
    params = {"after": after, "skip": skip, "limit": limit}
    rows = await reader.rows(SITEMAP_QUERIES[section], params, "listing pages for the sitemap")
    return [r["node"] for r in rows]
