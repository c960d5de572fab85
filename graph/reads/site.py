"""Reads only the site needs: what the graph holds (home page, llms.txt), the sitemap's pages in id order and
the index pages' lists."""

from __future__ import annotations

from typing import LiteralString

from weft.graph.reads.page import Page, Row
from weft.graph.reads.reader import GraphReader
from weft.queries import read_site as q

SITEMAP_QUERIES: dict[str, LiteralString] = {
    "papers": q.SITEMAP_PAPERS,
    "researchers": q.SITEMAP_RESEARCHERS,
    "institutions": q.SITEMAP_INSTITUTIONS,
}

INDEX_QUERIES: dict[str, LiteralString] = {
    "papers": q.INDEX_PAPERS,
    "researchers": q.INDEX_RESEARCHERS,
    "institutions": q.INDEX_INSTITUTIONS,
}


async def site_counts(reader: GraphReader) -> Row:
    """`{papers, researchers, institutions, categories, citations, openalex, s2, arxiv}` (papers per source id)."""
    return await reader.one(q.SITE_COUNTS, {}, "counting the graph") or {}


async def sitemap_nodes(reader: GraphReader, section: str, after: str, skip: int, limit: int) -> list[Row]:
    """`limit` nodes of a section (`papers`, `researchers`, `institutions`) in id order after `after`, `skip` first."""
    params = {"after": after, "skip": skip, "limit": limit}
    rows = await reader.rows(SITEMAP_QUERIES[section], params, "listing pages for the sitemap")
    return [r["node"] for r in rows]


async def index_page(reader: GraphReader, section: str, skip: int, limit: int) -> Page:
    """A page of a section's index: papers most cited first, researchers and institutions by name key."""
    row = await reader.one(INDEX_QUERIES[section], {"skip": skip, "limit": limit}, f"listing {section}")
    return Page(row["page"], row["total"]) if row else Page([], 0)


async def category_names(reader: GraphReader, ids: list[str]) -> list[str]:
    """The display names of categories by id (their key when unnamed), in id order."""
    rows = await reader.rows(q.CATEGORY_NAMES, {"ids": ids}, "naming categories")
    return [r["name"] or r["key"] or r["id"] for r in rows]
