"""The PaperFilterInput input type: which papers the `papers` and `facets` root fields cover."""

from __future__ import annotations

import strawberry

from weft.schema.types.search_mode import SearchMode


@strawberry.input(description="Which papers to list or count; every filter given must hold.")
class PaperFilterInput:
    category: str | None = strawberry.field(default=None, description="Category id, key (`topic:T10181`) or name.")
    year_from: int | None = strawberry.field(default=None, description="Published in this year or later.")
    year_to: int | None = strawberry.field(default=None, description="Published in this year or earlier.")
    researcher: str | None = strawberry.field(default=None, description="Authored by this researcher (any id form).")
    institution: str | None = strawberry.field(
        default=None, description="An author stated this institution (any id form or name)."
    )
    include_children: bool = strawberry.field(
        default=False, description="With `institution`: also its descendants (ROR hierarchy)."
    )
    min_citations: int | None = strawberry.field(
        default=None, description="At least this many citations (`citedByCount`)."
    )
    country: str | None = strawberry.field(
        default=None, description="An author stated an institution in this country (ISO code, e.g. `GB`)."
    )
    type: str | None = strawberry.field(default=None, description="Work type, e.g. `article`, `preprint`.")
    venue: str | None = strawberry.field(default=None, description="Venue (journal, conference) name, exactly.")
    language: str | None = strawberry.field(default=None, description="Language code, e.g. `en`.")
    query: str | None = strawberry.field(
        default=None,
        description="Only the papers a search for these words finds (in `mode`; its best 1,000 hits), as `search`.",
    )
    mode: SearchMode = strawberry.field(default=SearchMode.HYBRID, description="How `query` finds papers.")
