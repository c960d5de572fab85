"""Resolving filter arguments (category, institution, researcher) to internal ids, or a coded error; and
the paper filter they make up."""

from __future__ import annotations

from dataclasses import replace

from weft.graph.errors import InvalidInput
from weft.graph.reads.institutions import family, find_institution
from weft.graph.reads.papers import PaperFilter
from weft.graph.reads.researchers import find_researcher
from weft.graph.reads.search import KEYWORD_HITS, search_page
from weft.schema.context import Info
from weft.schema.support.paging import check_range
from weft.schema.types.paper_filter_input import PaperFilterInput


async def category_ids(info: Info, raw: str | None, argument: str = "category") -> list[str] | None:
    """Ids of the categories `raw` names (id, key or name); None for no filter; InvalidInput if none."""
    if raw is None:
        return None
    found = await info.context.data.category_ids.load(raw.strip())
    if not found:
        raise InvalidInput(f"`{argument}`: no category has the id, key or name {raw!r}", argument=argument)
    return sorted(found)


async def institution_ids(
    info: Info, raw: str | None, include_children: bool = False, argument: str = "institution"
) -> list[str] | None:
    """Ids of the institution `raw` names (with its descendants if asked); None for no filter."""
    if raw is None:
        return None
    found = await find_institution(info.context.reader, raw, argument=argument)
    if found is None:
        raise InvalidInput(f"`{argument}`: no institution answers to {raw!r}", argument=argument)
    if not include_children:
        return [found["id"]]
    return await family(info.context.reader, found["id"], True)


async def researcher_id(info: Info, raw: str | None, argument: str = "researcher") -> str | None:
    """The internal id of the researcher `raw` names; None for no filter; InvalidInput if unknown."""
    if raw is None:
        return None
    found = await find_researcher(info.context.reader, raw)
    if found is None:
        raise InvalidInput(f"`{argument}`: no researcher answers to {raw!r}", argument=argument)
    return found["id"]


async def paper_filter(
    info: Info,
    category: str | None,
    year_from: int | None,
    year_to: int | None,
    institution: str | None,
    researcher: str | None,
    min_citations: int | None = None,
    prefix: str = "",
) -> PaperFilter:
    """The graph's paper filter for these arguments; errors name them with `prefix` (e.g. `filter.`)."""
    check_range(prefix + "minCitations", min_citations, 0, 10**9)
    return PaperFilter(
        researcher=await researcher_id(info, researcher, prefix + "researcher"),
        institutions=await institution_ids(info, institution, argument=prefix + "institution"),
        categories=await category_ids(info, category, prefix + "category"),
        year_from=year_from,
        year_to=year_to,
        min_citations=min_citations,
    )


async def input_filter(info: Info, f: PaperFilterInput, prefix: str = "filter.") -> PaperFilter:
    """The graph's paper filter for a PaperFilterInput (`papers`, `facets`): its search `query` run first (the
    best KEYWORD_HITS papers it finds in its mode), the rest as `paper_filter`."""
    base = await paper_filter(
        info, f.category, f.year_from, f.year_to, None, f.researcher, f.min_citations, prefix=prefix
    )
    ids = None
    if f.query is not None:
        hits = await search_page(info.context.reader, f.query, ["PAPER"], 0, KEYWORD_HITS, mode=f.mode.name)
        ids = [h["node"]["id"] for h in hits.rows]
    return replace(
        base,
        institutions=await institution_ids(info, f.institution, f.include_children, prefix + "institution"),
        ids=ids,
        country=_code(f.country),
        venue=f.venue,
        type=f.type,
        language=f.language,
    )


def _code(raw: str | None) -> str | None:
    """A country code as institutions hold it (upper case)."""
    return raw.strip().upper() if raw is not None else None
