"""Root fields for papers: one paper by any id, the most cited, and filtered lists."""

from __future__ import annotations

from typing import Annotated

import strawberry

from weft.graph.errors import InvalidInput
from weft.graph.reads import facets, papers
from weft.graph.reads.page import Props
from weft.graph.reads.papers import PaperParts
from weft.schema.context import Info
from weft.schema.support import prefetch
from weft.schema.support.connection import After, Connection, First, PaperSortArg, paper_connection
from weft.schema.support.enums import PaperSort
from weft.schema.support.filters import input_filter, paper_filter
from weft.schema.support.paging import KeyWindow, check_range, key_window
from weft.schema.support.parts import read_folded
from weft.schema.support.prefetch import Selection
from weft.schema.types.facet import FacetDimension, FacetOrder, Facets
from weft.schema.types.paper import PAPER_PAGE, Paper, connection_props
from weft.schema.types.paper_filter_input import PaperFilterInput

MAX_GROUPS = 1000
"""The most groups `facets` returns per dimension."""


@strawberry.type
class PaperQuery:
    @strawberry.field(
        description="A paper by internal id or slug, DOI (bare, `doi:` or URL), arXiv id (any form), "
        "OpenAlex W id (short or URL), Semantic Scholar paperId or `CorpusId:N`; null when unknown."
    )
    async def paper(
        self, info: Info, id: Annotated[str, strawberry.argument(description="Any accepted paper id.")]
    ) -> Paper | None:
        if not prefetch.FOLDING:
            found = await papers.find_paper(info.context.reader, id)
            return Paper.from_record(found) if found else None
        details = await read_folded(info, PAPER_PAGE, PaperParts, papers.paper_details, id)
        return Paper.from_record(details.node) if details else None

    @strawberry.field(description="Papers by `citedByCount`, highest first, optionally narrowed down.")
    async def most_cited(
        self,
        info: Info,
        category: Annotated[str | None, strawberry.argument(description="Category id, key or name.")] = None,
        year_from: Annotated[int | None, strawberry.argument(description="Published in this year or later.")] = None,
        year_to: Annotated[int | None, strawberry.argument(description="Published in this year or earlier.")] = None,
        institution: Annotated[
            str | None, strawberry.argument(description="Institution (any id form or name).")
        ] = None,
        researcher: Annotated[str | None, strawberry.argument(description="Researcher (any id form).")] = None,
        first: First = 20,
        after: After = None,
    ) -> Connection[Paper]:
        page = key_window(first, after, "MOST_CITED")
        where = await paper_filter(info, category, year_from, year_to, institution, researcher)
        found = await papers.paper_page(
            info.context.reader, where, "MOST_CITED", _key(page), page.limit, _node_props(info)
        )
        return paper_connection(found, "MOST_CITED", page, Paper.from_record)

    @strawberry.field(name="papers", description="Papers matching a filter, in the order asked.")
    async def paper_list(
        self,
        info: Info,
        filter: Annotated[PaperFilterInput | None, strawberry.argument(description="Which papers.")] = None,
        sort: PaperSortArg = PaperSort.NEWEST,
        first: First = 24,
        after: After = None,
    ) -> Connection[Paper]:
        page = key_window(first, after, sort.name, default=24)
        where = await input_filter(info, filter or PaperFilterInput())
        found = await papers.paper_page(
            info.context.reader, where, sort.name, _key(page), page.limit, _node_props(info)
        )
        return paper_connection(found, sort.name, page, Paper.from_record)

    @strawberry.field(
        description="Counts of the papers matching a filter (the `papers` filter), grouped by each dimension in "
        "`by`, all in one read: like OpenAlex's `group_by`. Each group has its papers' count and citation sum; "
        "`unknown` holds the papers without a value; `totalCount` the papers matching."
    )
    async def facets(
        self,
        info: Info,
        by: Annotated[list[FacetDimension], strawberry.argument(description="The dimensions, 1 to 10.")],
        filter: Annotated[PaperFilterInput | None, strawberry.argument(description="Which papers.")] = None,
        order: Annotated[FacetOrder, strawberry.argument(description="How groups are ordered.")] = FacetOrder.COUNT,
        first: Annotated[int, strawberry.argument(description="Groups per dimension, 1 to 1000.")] = 10,
    ) -> Facets:
        check_range("first", first, 1, MAX_GROUPS)
        if not by:
            raise InvalidInput("`by` names no dimension: give at least one", argument="by")
        where = await input_filter(info, filter or PaperFilterInput())
        found = await facets.facets(info.context.reader, where, [d.name.lower() for d in by], order.name, first)
        return Facets.of(found)


def _node_props(info: Info) -> Props:
    """The properties the connection's papers are asked for (every property when not folding)."""
    return connection_props(Selection.of(info)) if prefetch.FOLDING else None


def _key(page: KeyWindow) -> papers.PaperKey | None:
    """The graph's key of the paper a page continues after."""
    return None if page.after is None else papers.PaperKey(*page.after)
