"""The Suggestion type: an autocomplete completion."""

from __future__ import annotations

from typing import Any

import strawberry

from weft.schema.support.enums import SearchType


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
