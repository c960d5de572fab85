"""The SearchHit type: a scored full-text hit (paper, researcher or institution)."""

from __future__ import annotations

from typing import Annotated, Any

import strawberry

from weft.schema.support.enums import SearchType
from weft.schema.types.refs import InstitutionRef, PaperRef, ResearcherRef

SearchNode = Annotated[
    PaperRef | ResearcherRef | InstitutionRef, strawberry.union("SearchNode", description="What a search hit is.")
]


@strawberry.type(description="One full-text search hit with its relevance score.")
class SearchHit:
    kind: SearchType = strawberry.field(description="What kind of node was found.")
    score: float = strawberry.field(description="Lucene relevance score (higher is better).")
    node: SearchNode = strawberry.field(description="The paper, researcher or institution found.")

    @classmethod
    def from_record(cls, row: dict[str, Any]) -> SearchHit:
        """From a `{kind, score, node}` row."""
        from weft.schema.types.institution import Institution
        from weft.schema.types.paper import Paper
        from weft.schema.types.researcher import Researcher

        kind = SearchType(row["kind"])
        entity = {SearchType.PAPER: Paper, SearchType.RESEARCHER: Researcher, SearchType.INSTITUTION: Institution}
        return cls(kind=kind, score=float(row["score"]), node=entity[kind].from_record(row["node"]))
