"""Root fields for programs: batch id resolution (`resolve`) and free-text reference matching."""

from __future__ import annotations

from typing import Annotated

import strawberry

from weft.graph.reads import resolve
from weft.schema.context import Info
from weft.schema.types.resolved_id import ResolvedId


@strawberry.type
class ProgramQuery:
    @strawberry.field(
        description="Up to 500 ids of any form Weft knows (DOI, arXiv, OpenAlex, Semantic Scholar paperId and "
        "CorpusId, ORCID, ROR, Weft ids and page URLs), each in input order with the form it was recognised as and "
        "the paper, researcher or institution it names, or why none (one database query per kind of node)."
    )
    async def resolve(
        self,
        info: Info,
        ids: Annotated[list[str], strawberry.argument(description="The ids, at most 500.")],
    ) -> list[ResolvedId]:
        found = await resolve.resolve_ids(info.context.reader, ids)
        return [ResolvedId.from_resolution(r) for r in found]
