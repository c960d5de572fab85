"""Root fields about the service itself."""

from __future__ import annotations

import strawberry


@strawberry.type
class ServiceQuery:
    @strawberry.field(description="The server's version string; a liveness probe for clients.")
    def version(self) -> str:
        return "weft 0.1.0"
