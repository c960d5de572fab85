"""The CollaboratingInstitution type: an institution linked to another through co-authoring researchers."""

from __future__ import annotations

from typing import Any

import strawberry

from weft.schema.types.refs import InstitutionRef


@strawberry.type(description="An institution collaborating with another through co-authoring researchers.")
class CollaboratingInstitution:
    institution: InstitutionRef = strawberry.field(description="The collaborating institution.")
    weight: int = strawberry.field(
        description="Sum of co-authorship weights between the two institutions' researchers."
    )
    researchers: int = strawberry.field(description="How many of its researchers co-author with this institution's.")

    @classmethod
    def from_record(cls, row: dict[str, Any]) -> CollaboratingInstitution:
        """From an `{institution, weight, researchers}` row."""
        from weft.schema.types.institution import Institution

        return cls(
            institution=Institution.from_record(row["institution"]),
            weight=int(row.get("weight") or 0),
            researchers=int(row.get("researchers") or 0),
        )
