"""Root query fields for papers, researchers, institutions, rankings and search."""

from __future__ import annotations

from typing import Annotated

import strawberry

from weft.graph.reads import institutions, papers, researchers, search
from weft.graph.reads.papers import PaperFilter
from weft.schema.common import Connection
from weft.schema.context import Info
from weft.schema.enums import PaperSort, SearchType
from weft.schema.filters import category_ids, institution_ids, researcher_id
from weft.schema.institution import Institution
from weft.schema.paging import check_range, window
from weft.schema.paper import Paper
from weft.schema.researcher import Researcher
from weft.schema.search import SearchHit
from weft.schema.suggestion import Suggestion

ALL_TYPES = [SearchType.PAPER, SearchType.RESEARCHER, SearchType.INSTITUTION]


@strawberry.input(description="Which papers to list; every filter given must hold.")
class PaperFilterInput:
    category: str | None = strawberry.field(default=None, description="Category id, key (`topic:T10181`) or name.")
    year_from: int | None = strawberry.field(default=None, description="Published in this year or later.")
    year_to: int | None = strawberry.field(default=None, description="Published in this year or earlier.")
    researcher: str | None = strawberry.field(default=None, description="Authored by this researcher (any id form).")
    institution: str | None = strawberry.field(
        default=None, description="An author stated this institution (any id form or name)."
    )
    min_citations: int | None = strawberry.field(
        default=None, description="At least this many citations (`citedByCount`)."
    )


async def _filter(
    info: Info,
    category: str | None,
    year_from: int | None,
    year_to: int | None,
    institution: str | None,
    researcher: str | None,
    min_citations: int | None = None,
    prefix: str = "",
) -> PaperFilter:
    check_range(prefix + "minCitations", min_citations, 0, 10**9)
    return PaperFilter(
        researcher=await researcher_id(info, researcher, prefix + "researcher"),
        institutions=await institution_ids(info, institution, argument=prefix + "institution"),
        categories=await category_ids(info, category, prefix + "category"),
        year_from=year_from,
        year_to=year_to,
        min_citations=min_citations,
    )


@strawberry.type
class PaperQuery:
    @strawberry.field(description="The server's version string; a liveness probe for clients.")
    def version(self) -> str:
        return "weft 0.1.0"

    @strawberry.field(
        description="A paper by internal id or slug, DOI (bare, `doi:` or URL), arXiv id (any form), "
        "OpenAlex W id (short or URL), Semantic Scholar paperId or `CorpusId:N`; null when unknown."
    )
    async def paper(
        self, info: Info, id: Annotated[str, strawberry.argument(description="Any accepted paper id.")]
    ) -> Paper | None:
        found = await papers.find_paper(info.context.reader, id)
        return Paper.from_record(found) if found else None

    @strawberry.field(
        description="A researcher by internal id or slug, OpenAlex A id (short or URL), Semantic Scholar "
        "author id or ORCID (bare or URL); null when unknown."
    )
    async def researcher(
        self, info: Info, id: Annotated[str, strawberry.argument(description="Any accepted researcher id.")]
    ) -> Researcher | None:
        found = await researchers.find_researcher(info.context.reader, id)
        return Researcher.from_record(found) if found else None

    @strawberry.field(
        description="An institution by internal id or slug, ROR id (short or URL), OpenAlex I id, or exact "
        "name/alternative name (case- and accent-insensitive); null when unknown, an error listing the "
        "candidates when a name is ambiguous."
    )
    async def institution(
        self,
        info: Info,
        id: Annotated[str, strawberry.argument(description="Any accepted institution id or exact name.")],
    ) -> Institution | None:
        found = await institutions.find_institution(info.context.reader, id)
        return Institution.from_record(found) if found else None

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
        first: Annotated[int, strawberry.argument(description="Page size, at most 100.")] = 20,
        after: Annotated[str | None, strawberry.argument(description="Cursor of the item to continue after.")] = None,
    ) -> Connection[Paper]:
        page = window(first, after, 20)
        where = await _filter(info, category, year_from, year_to, institution, researcher)
        found = await papers.paper_page(info.context.reader, where, "MOST_CITED", page.skip, page.limit)
        return Connection.build([Paper.from_record(r) for r in found.rows], found.total, page)

    @strawberry.field(name="papers", description="Papers matching a filter, in the order asked.")
    async def paper_list(
        self,
        info: Info,
        filter: Annotated[PaperFilterInput | None, strawberry.argument(description="Which papers.")] = None,
        sort: Annotated[PaperSort, strawberry.argument(description="Order of the papers.")] = PaperSort.NEWEST,
        first: Annotated[int, strawberry.argument(description="Page size, at most 100.")] = 24,
        after: Annotated[str | None, strawberry.argument(description="Cursor of the item to continue after.")] = None,
    ) -> Connection[Paper]:
        page = window(first, after, 24)
        f = filter or PaperFilterInput()
        where = await _filter(
            info, f.category, f.year_from, f.year_to, f.institution, f.researcher, f.min_citations, prefix="filter."
        )
        found = await papers.paper_page(info.context.reader, where, sort.value, page.skip, page.limit)
        return Connection.build([Paper.from_record(r) for r in found.rows], found.total, page)

    @strawberry.field(
        description="Full-text search over paper titles/abstracts and researcher/institution names, best first."
    )
    async def search(
        self,
        info: Info,
        query: Annotated[str, strawberry.argument(description="Words to look for (Lucene syntax is treated as text).")],
        types: Annotated[
            list[SearchType] | None, strawberry.argument(description="Kinds of node to search; all when omitted.")
        ] = None,
        first: Annotated[int, strawberry.argument(description="Page size, at most 100.")] = 20,
        after: Annotated[str | None, strawberry.argument(description="Cursor of the item to continue after.")] = None,
    ) -> Connection[SearchHit]:
        page = window(first, after, 20)
        kinds = [t.value for t in (types or ALL_TYPES)]
        found = await search.search_page(info.context.reader, query, kinds, page.skip, page.limit)
        return Connection.build([SearchHit.from_record(r) for r in found.rows], found.total, page)

    @strawberry.field(description="Completions for a prefix (the last word may be partial), best first.")
    async def autocomplete(
        self,
        info: Info,
        prefix: Annotated[str, strawberry.argument(description="What the user has typed so far.")],
        types: Annotated[
            list[SearchType] | None, strawberry.argument(description="Kinds of node to complete; all when omitted.")
        ] = None,
        first: Annotated[int, strawberry.argument(description="How many, at most 100.")] = 10,
    ) -> list[Suggestion]:
        check_range("first", first, 0, 100)
        kinds = [t.value for t in (types or ALL_TYPES)]
        rows = await search.autocomplete(info.context.reader, prefix, kinds, first)
        return [Suggestion.from_record(r) for r in rows]
