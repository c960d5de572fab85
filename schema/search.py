"""Search results: a scored hit (paper, researcher or institution) and an autocomplete suggestion."""

from __future__ import annotations

from typing import Annotated, Any

import strawberry

from schema.enums import SearchType
from schema.institution import Institution
from schema.paper import Paper
from schema.researcher import Researcher

SearchNode = Annotated[Paper | Researcher | Institution, strawberry.union("SearchNode", description="What a search hit is.")]

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


@strawberry.type(description="A completion for what a user has typed so far.")
class Suggestion:
    kind: SearchType = strawberry.field(description="What kind of node this completes to.")
    id: str = strawberry.field(description="Internal id of the node.")
    label: str = strawberry.field(description="Title or name to show.")
    score: float = strawberry.field(description="Lucene relevance score (higher is better).")

    @classmethod
    def from_record(cls, row: dict[str, Any]) -> Suggestion:
        """From a `{kind, id, label, score}` row."""
        return cls(kind=SearchType(row["kind"]), id=row["id"], label=row.get("label") or "", score=float(row["score"]))
