"""The SameNameResearcher type: another researcher record with the same normalised name."""

from __future__ import annotations

import strawberry

from weft.schema.context import Info
from weft.schema.types.refs import ResearcherRef


@strawberry.type(description="Another researcher with the same normalised name, possibly the same person.")
class SameNameResearcher:
    researcher: ResearcherRef = strawberry.field(description="The other researcher record.")
    evidence: list[str] = strawberry.field(
        description="Why they may be one person (shared co-authors, institutions, years)."
    )

    @strawberry.field(description="The other record's papers in this graph.")
    async def paper_count(self, info: Info) -> int:
        return await self.researcher.paper_count(info)

    @strawberry.field(description="The other record's h-index over its papers in this graph.")
    async def h_index(self, info: Info) -> int:
        return await self.researcher.h_index(info)
