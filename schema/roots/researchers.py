"""Root field for researchers: one researcher by any id."""

from __future__ import annotations

from typing import Annotated

import strawberry

from weft.graph.reads import researchers
from weft.schema.context import Info
from weft.schema.types.researcher import Researcher


@strawberry.type
class ResearcherQuery:
    @strawberry.field(
        description="A researcher by internal id or slug, OpenAlex A id (short or URL), Semantic Scholar "
        "author id or ORCID (bare or URL); null when unknown."
    )
    async def researcher(
        self, info: Info, id: Annotated[str, strawberry.argument(description="Any accepted researcher id.")]
    ) -> Researcher | None:
        found = await researchers.find_researcher(info.context.reader, id)
        return Researcher.from_record(found) if found else None
