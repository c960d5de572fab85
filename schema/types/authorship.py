"""The Authorship type: one researcher's place on one paper, with the affiliations stated there."""

from __future__ import annotations

from typing import Any

import strawberry

from weft.schema.context import Info
from weft.schema.support.dataloaders import load_each
from weft.schema.types.refs import InstitutionRef, ResearcherRef


@strawberry.type(description="A researcher's authorship of one paper.")
class Authorship:
    props: strawberry.Private[dict[str, Any]]
    researcher: ResearcherRef = strawberry.field(description="The author.")
    position: str | None = strawberry.field(description="`first`, `middle` or `last`.")
    rank: int | None = strawberry.field(description="0-based place in the author list.")
    raw_name: str | None = strawberry.field(description="The name as printed on this paper.")
    is_corresponding: bool | None = strawberry.field(description="True when the source marks the corresponding author.")

    @classmethod
    def from_record(cls, row: dict[str, Any]) -> Authorship:
        """From a `{researcher, authorship}` row (node and relationship properties)."""
        from weft.schema.types.researcher import Researcher

        a: dict[str, Any] = row.get("authorship") or {}
        rank = a.get("rank")
        return cls(
            props=a,
            researcher=Researcher.from_record(row["researcher"]),
            position=a.get("position"),
            rank=int(rank) if rank is not None else None,
            raw_name=a.get("raw_name"),
            is_corresponding=a.get("is_corresponding"),
        )

    @strawberry.field(description="Institutions this author stated on this paper.")
    async def affiliations(self, info: Info) -> list[InstitutionRef]:
        from weft.schema.types.institution import Institution

        ids = list(self.props.get("institution_ids") or [])
        found = await load_each(info.context.data.institution, ids)
        return [Institution.from_record(f) for f in found if f is not None]
