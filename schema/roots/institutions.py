"""Root field for institutions: one institution by any id or exact name, its page read in one query."""

from __future__ import annotations

from typing import Annotated

import strawberry

from weft.graph.reads import institutions
from weft.graph.reads.institutions import InstitutionParts
from weft.schema.context import Info
from weft.schema.support import prefetch
from weft.schema.support.parts import read_folded
from weft.schema.types.institution import INSTITUTION_PAGE, Institution


@strawberry.type
class InstitutionQuery:
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
        if not prefetch.FOLDING:
            found = await institutions.find_institution(info.context.reader, id)
            return Institution.from_record(found) if found else None
        details = await read_folded(info, INSTITUTION_PAGE, InstitutionParts, institutions.institution_details, id)
        return Institution.from_record(details.node) if details else None
