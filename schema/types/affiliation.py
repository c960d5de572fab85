"""The Affiliation type: a researcher's affiliation with an institution."""

from __future__ import annotations

from typing import Any

import strawberry

from weft.schema.types.refs import InstitutionRef


@strawberry.type(description="A researcher's affiliation with an institution.")
class Affiliation:
    institution: InstitutionRef = strawberry.field(description="The institution.")
    first_year: int | None = strawberry.field(description="First year of the affiliation, where known.")
    last_year: int | None = strawberry.field(description="Last year of the affiliation, where known.")
    paper_count: int = strawberry.field(description="The researcher's papers stating this institution.")

    @classmethod
    def from_record(cls, row: dict[str, Any]) -> Affiliation:
        """From an `{institution, first_year, last_year, paper_count}` row."""
        from weft.schema.types.institution import Institution

        return cls(
            institution=Institution.from_record(row["institution"]),
            first_year=row.get("first_year"),
            last_year=row.get("last_year"),
            paper_count=int(row.get("paper_count") or 0),
        )
