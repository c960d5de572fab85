"""The PaperCategory type: a category as assigned to one paper."""

from __future__ import annotations

from typing import Any

import strawberry

from weft.schema.types.category import Category


@strawberry.type(description="A category as assigned to one paper.")
class PaperCategory:
    category: Category = strawberry.field(description="The category.")
    primary: bool = strawberry.field(description="True for the paper's primary category (topic or arXiv primary).")
    score: float | None = strawberry.field(description="The source's confidence score, where given.")

    @classmethod
    def from_record(cls, row: dict[str, Any]) -> PaperCategory:
        """From a `{category, primary, score}` row."""
        score = row.get("score")
        return cls(
            category=Category.from_record(row["category"]),
            primary=bool(row.get("primary")),
            score=float(score) if score is not None else None,
        )
