"""The CollaboratingInstitution type: an institution co-publishing with another (papers stating both)."""

from __future__ import annotations

from typing import Any

import strawberry

from weft.schema.types.refs import InstitutionRef


@strawberry.type(description="An institution co-publishing with another: papers whose authors state both.")
class CollaboratingInstitution:
    institution: InstitutionRef = strawberry.field(description="The collaborating institution.")
    weight: int = strawberry.field(description="How many papers state both institutions.")
    researchers: int = strawberry.field(description="How many researchers state it on those papers.")

    @classmethod
    def from_record(cls, row: dict[str, Any]) -> CollaboratingInstitution:
        """From an `{institution, weight, researchers}` row."""
        from weft.schema.types.institution import Institution

        return cls(
            institution=Institution.from_record(row["institution"]),
            weight=int(row.get("weight") or 0),
            researchers=int(row.get("researchers") or 0),
        )
