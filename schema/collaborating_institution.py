"""The CollaboratingInstitution type: an institution linked to another through co-authoring researchers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import strawberry

if TYPE_CHECKING:
    from weft.schema.institution import Institution

InstitutionT = Annotated["Institution", strawberry.lazy("weft.schema.institution")]


@strawberry.type(description="An institution collaborating with another through co-authoring researchers.")
class CollaboratingInstitution:
    institution: InstitutionT = strawberry.field(description="The collaborating institution.")
    weight: int = strawberry.field(
        description="Sum of co-authorship weights between the two institutions' researchers."
    )
    researchers: int = strawberry.field(description="How many of its researchers co-author with this institution's.")

    @classmethod
    def from_record(cls, row: dict[str, Any]) -> CollaboratingInstitution:
        """From an `{institution, weight, researchers}` row."""
        return cls(
            institution=_institution(row["institution"]),
            weight=int(row.get("weight") or 0),
            researchers=int(row.get("researchers") or 0),
        )


def _institution(props: dict[str, Any]) -> Institution:
    from weft.schema.institution import Institution

    return Institution.from_record(props)
