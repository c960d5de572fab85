"""Root field for researchers: one researcher by any id, its profile read in one query (folded)."""

from __future__ import annotations

from typing import Annotated

import strawberry

from weft.graph.reads import researchers
from weft.graph.reads.researchers import ProfileParts
from weft.schema.context import Info
from weft.schema.support import prefetch
from weft.schema.support.parts import read_folded
from weft.schema.types.researcher import PROFILE, Researcher


@strawberry.type
class ResearcherQuery:
    @strawberry.field(
        description="A researcher by internal id or slug, OpenAlex A id (short or URL), Semantic Scholar "
        "author id or ORCID (bare or URL); null when unknown."
    )
    async def researcher(
        self, info: Info, id: Annotated[str, strawberry.argument(description="Any accepted researcher id.")]
    ) -> Researcher | None:
        if not prefetch.FOLDING:
            found = await researchers.find_researcher(info.context.reader, id)
            return Researcher.from_record(found) if found else None
        profile = await read_folded(info, PROFILE, ProfileParts, researchers.researcher_profile, id)
        return Researcher.from_record(profile.node) if profile else None
