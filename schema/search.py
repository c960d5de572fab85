"""The SearchHit type: a scored full-text hit (paper, researcher or institution)."""

from __future__ import annotations

from typing import Annotated, Any

import strawberry

from weft.schema.enums import SearchType
from weft.schema.institution import Institution
from weft.schema.paper import Paper
from weft.schema.researcher import Researcher

SearchNode = Annotated[
    Paper | Researcher | Institution, strawberry.union("SearchNode", description="What a search hit is.")
]

_TYPES = {"PAPER": Paper, "RESEARCHER": Researcher, "INSTITUTION": Institution}


@strawberry.type(description="One full-text search hit with its relevance score.")
class SearchHit:
    kind: SearchType = strawberry.field(description="What kind of node was found.")
    score: float = strawberry.field(description="Lucene relevance score (higher is better).")
    node: SearchNode = strawberry.field(description="The paper, researcher or institution found.")

    @classmethod
    def from_record(cls, row: dict[str, Any]) -> SearchHit:
        """From a `{kind, score, node}` row."""
        kind = row["kind"]
        return cls(kind=SearchType(kind), score=float(row["score"]), node=_TYPES[kind].from_record(row["node"]))
