"""The RosterEntry type: a researcher on an institution's roster."""

from __future__ import annotations

from typing import Any

import strawberry

from weft.schema.types.refs import ResearcherRef


@strawberry.type(description="A researcher on an institution's roster.")
class RosterEntry:
    researcher: ResearcherRef = strawberry.field(description="The researcher.")
    paper_count: int = strawberry.field(description="Their papers stating this institution (within the years asked).")
    first_year: int | None = strawberry.field(description="First year they are known to be affiliated here.")
    last_year: int | None = strawberry.field(description="Last year they are known to be affiliated here.")

    @classmethod
    def from_record(cls, row: dict[str, Any]) -> RosterEntry:
        """From a `{researcher, paper_count, first_year, last_year}` row."""
        from weft.schema.types.researcher import Researcher

        return cls(
            researcher=Researcher.from_record(row["researcher"]),
            paper_count=int(row.get("paper_count") or 0),
            first_year=row.get("first_year"),
            last_year=row.get("last_year"),
        )
