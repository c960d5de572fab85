"""The Coauthor type: a co-author of a researcher and the weight of their collaboration."""

from __future__ import annotations

from typing import Any

import strawberry

from weft.schema.types.refs import ResearcherRef


@strawberry.type(description="A co-author and how much the two have published together.")
class Coauthor:
    researcher: ResearcherRef = strawberry.field(description="The co-author.")
    weight: int = strawberry.field(description="Number of papers the two share in this graph.")
    first_year: int | None = strawberry.field(description="Year of their first shared paper.")
    last_year: int | None = strawberry.field(description="Year of their latest shared paper.")

    @classmethod
    def from_record(cls, row: dict[str, Any]) -> Coauthor:
        """From a `{researcher, weight, first_year, last_year}` row."""
        from weft.schema.types.researcher import Researcher

        return cls(
            researcher=Researcher.from_record(row["researcher"]),
            weight=int(row.get("weight") or 0),
            first_year=row.get("first_year"),
            last_year=row.get("last_year"),
        )
