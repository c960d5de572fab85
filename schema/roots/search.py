"""Root fields for search (keyword, semantic, hybrid) and autocomplete over papers, researchers, institutions."""

from __future__ import annotations

from typing import Annotated

import strawberry

from weft.graph.reads import search
from weft.graph.reads.search import PaperFilters
from weft.schema.context import Info
from weft.schema.support.connection import (
    After,
    CategoryArg,
    Connection,
    First,
    YearFromArg,
    YearToArg,
    connection,
)
from weft.schema.support.enums import SearchType
from weft.schema.support.filters import category_ids
from weft.schema.support.paging import check_range, window
from weft.schema.types.search_hit import SearchHit
from weft.schema.types.search_mode import SearchMode
from weft.schema.types.suggestion import Suggestion


def _kinds(types: list[SearchType] | None) -> list[str]:
    """The node kinds to cover: those asked for, every kind when none are."""
    return [t.name for t in (types or list(SearchType))]


@strawberry.type
class SearchQuery:
    @strawberry.field(
        description="Search papers (title and abstract), researchers and institutions (names), best first. "
        "KEYWORD matches words, SEMANTIC meaning (papers' sentence vectors, made by `weft embed`), HYBRID (the "
        "default) fuses both rankings by reciprocal rank fusion, after the papers whose title is the query "
        "(`titleMatch`). Papers without a vector are found by words only."
    )
    async def search(
        self,
        info: Info,
        query: Annotated[
            str,
            strawberry.argument(
                description="What to look for, in words (Lucene syntax is treated as text); at most 32 words "
                "and 500 characters."
            ),
        ],
        types: Annotated[
            list[SearchType] | None, strawberry.argument(description="Kinds of node to search; all when omitted.")
        ] = None,
        mode: Annotated[SearchMode, strawberry.argument(description="How hits are found and ranked.")] = (
            SearchMode.HYBRID
        ),
        category: CategoryArg = None,
        year_from: YearFromArg = None,
        year_to: YearToArg = None,
        first: First = 20,
        after: After = None,
    ) -> Connection[SearchHit]:
        page = window(first, after)
        filters = PaperFilters(year_from, year_to, await category_ids(info, category))
        reader = info.context.reader
        found = await search.search_page(
            reader, query, _kinds(types), page.skip, page.limit, mode=mode.name, filters=filters
        )
        return connection(found, page, SearchHit.from_record)

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
        rows = await search.autocomplete(info.context.reader, prefix, _kinds(types), first)
        return [Suggestion.from_record(r) for r in rows]
