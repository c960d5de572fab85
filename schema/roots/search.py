"""Root fields for full-text search and autocomplete over papers, researchers and institutions."""

from __future__ import annotations

from typing import Annotated

import strawberry

from weft.graph.reads import search
from weft.schema.context import Info
from weft.schema.support.connection import After, Connection, First, connection
from weft.schema.support.enums import SearchType
from weft.schema.support.paging import check_range, window
from weft.schema.types.search_hit import SearchHit
from weft.schema.types.suggestion import Suggestion


def _kinds(types: list[SearchType] | None) -> list[str]:
    """The node kinds to cover: those asked for, every kind when none are."""
    return [t.name for t in (types or list(SearchType))]


@strawberry.type
class SearchQuery:
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
        first: First = 20,
        after: After = None,
    ) -> Connection[SearchHit]:
        page = window(first, after)
        found = await search.search_page(info.context.reader, query, _kinds(types), page.skip, page.limit)
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
