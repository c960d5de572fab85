"""The AuthorPositions type: first, middle and last authorships of a researcher."""

from __future__ import annotations

import strawberry


@strawberry.type(description="Where a researcher stands in the author lists of papers whose author list is complete.")
class AuthorPositions:
    first: int = strawberry.field(description="Papers with this researcher as first author.")
    middle: int = strawberry.field(description="Papers with this researcher as a middle author.")
    last: int = strawberry.field(description="Papers with this researcher as last author.")
    matched_papers: int = strawberry.field(
        description="Papers counted: those whose author list is complete (not truncated by the source)."
    )
