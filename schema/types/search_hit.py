"""The SearchHit type: a scored search hit (paper, researcher or institution) and the rankings that found it."""

from __future__ import annotations

from typing import Annotated, Any

import strawberry

from weft.schema.support.enums import SearchType
from weft.schema.types.refs import InstitutionRef, PaperRef, ResearcherRef

SearchNode = Annotated[
    PaperRef | ResearcherRef | InstitutionRef, strawberry.union("SearchNode", description="What a search hit is.")
]


@strawberry.type(description="One search hit with its scores.")
class SearchHit:
    kind: SearchType = strawberry.field(description="What kind of node was found.")
    score: float = strawberry.field(
        description="What hits are ordered by (higher is better), after `titleMatch` in HYBRID: the "
        "reciprocal-rank-fusion score, the sum of 1/(60 + rank) over the rankings (keyword, semantic) the hit is in; "
        "see `keywordScore`, `semanticScore`."
    )
    keyword_score: float | None = strawberry.field(
        description="Lucene relevance in the keyword ranking; null when the keyword ranking did not find it."
    )
    semantic_score: float | None = strawberry.field(
        description="Cosine similarity of the paper's vector to the query's; null when the semantic ranking "
        "did not find it (not among the nearest, not a paper, or a paper without a vector)."
    )
    matched_all_terms: bool | None = strawberry.field(
        description="True when the hit contains every word of the query (such hits lead the keyword ranking); "
        "null when only the semantic ranking found it."
    )
    title_match: bool | None = strawberry.field(
        description="HYBRID only, papers only: true when the paper's title is the query, ignoring case, punctuation "
        "and spacing (known-item search: such papers come first, whatever their `score`); null in other modes."
    )
    node: SearchNode = strawberry.field(description="The paper, researcher or institution found.")

    @classmethod
    def from_record(cls, row: dict[str, Any]) -> SearchHit:
        """From a `{kind, score, keyword_score, semantic_score, all_terms, title_match, node}` row."""
        from weft.schema.types.institution import Institution
        from weft.schema.types.paper import Paper
        from weft.schema.types.researcher import Researcher

        kind = SearchType(row["kind"])
        entity = {SearchType.PAPER: Paper, SearchType.RESEARCHER: Researcher, SearchType.INSTITUTION: Institution}
        return cls(
            kind=kind,
            score=float(row["score"]),
            keyword_score=row.get("keyword_score"),
            semantic_score=row.get("semantic_score"),
            matched_all_terms=row.get("all_terms"),
            title_match=row.get("title_match"),
            node=entity[kind].from_record(row["node"]),
        )
