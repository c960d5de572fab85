"""The SimilarResearcher type: someone whose papers are about what another's are about."""

from __future__ import annotations

from typing import Any

import strawberry

from weft.schema.types.refs import ResearcherRef


@strawberry.type(description="A researcher whose papers are, on the whole, about the same things as another's.")
class SimilarResearcher:
    score: float = strawberry.field(
        description="Cosine similarity of the centroids (means) of the two researchers' paper vectors, at most 1."
    )
    researcher: ResearcherRef = strawberry.field(description="The similar researcher.")
    nearby_papers: int = strawberry.field(
        description="How many of their papers are among the papers nearest to the other researcher's centroid."
    )

    @classmethod
    def from_record(cls, row: dict[str, Any]) -> SimilarResearcher:
        """From a `{researcher, score, shared}` row."""
        from weft.schema.types.researcher import Researcher

        return cls(
            score=float(row["score"]),
            researcher=Researcher.from_record(row["researcher"]),
            nearby_papers=int(row["shared"]),
        )
