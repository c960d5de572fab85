"""Query fields for collaboration networks (extended by the network work)."""

from __future__ import annotations

import strawberry


@strawberry.type
class NetworkQuery:
    @strawberry.field(description="Network fields are being built; always true.")
    def network_ready(self) -> bool:
        return True
