"""Lazy references to the three entity types, for fields of other types.

Paper, Researcher and Institution reach each other through most other types (authorships, co-authors,
rosters…), so every other module names them through these references and imports the class inside the
resolver that builds one; every other type is imported plainly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import strawberry

if TYPE_CHECKING:
    from weft.schema.types.institution import Institution
    from weft.schema.types.paper import Paper
    from weft.schema.types.researcher import Researcher

PaperRef = Annotated["Paper", strawberry.lazy("weft.schema.types.paper")]
ResearcherRef = Annotated["Researcher", strawberry.lazy("weft.schema.types.researcher")]
InstitutionRef = Annotated["Institution", strawberry.lazy("weft.schema.types.institution")]
