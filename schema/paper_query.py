"""Query fields for papers, researchers and institutions (extended by the API work)."""

from __future__ import annotations

import strawberry


@strawberry.type
class PaperQuery:
    @strawberry.field(description="The server's version string; a liveness probe for clients.")
    def version(self) -> str:
        return "weft 0.1.0"
