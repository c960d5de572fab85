"""The SimilarPaper type: a paper near another by meaning (the cosine of their sentence vectors)."""

from __future__ import annotations

from typing import Any

import strawberry

from weft.schema.types.refs import PaperRef


@strawberry.type(description="A paper about much the same thing as another, by the meaning of title and abstract.")
class SimilarPaper:
    score: float = strawberry.field(
        description="Cosine similarity of the two papers' sentence vectors (all-MiniLM-L6-v2), at most 1."
    )
    paper: PaperRef = strawberry.field(description="The similar paper.")

    @classmethod
    def from_record(cls, row: dict[str, Any]) -> SimilarPaper:
        """From a `{paper, score}` row."""
        from weft.schema.types.paper import Paper

        return cls(score=float(row["score"]), paper=Paper.from_record(row["paper"]))
