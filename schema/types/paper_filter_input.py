"""The PaperFilterInput input type: which papers the `papers` root field lists."""

from __future__ import annotations

import strawberry


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
