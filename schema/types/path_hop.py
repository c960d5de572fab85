"""`PathHop`: one hop of a collaboration path, two co-authors and the papers they share."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import strawberry

from weft.schema.types.path_paper import PathPaper


@strawberry.type(description="One hop of a path: two co-authors and the papers they share.")
class PathHop:
    source: str = strawberry.field(description="Id of the researcher nearer the start.")
    target: str = strawberry.field(description="Id of the researcher nearer the end.")
    weight: int = strawberry.field(description="Shared papers (the tie's weight).")
    papers: list[PathPaper] = strawberry.field(description="The shared papers, newest first.")

    @classmethod
    def from_record(cls, hop: Mapping[str, Any]) -> PathHop:
        """From a `{source, target, weight, papers}` map."""
        return cls(
            source=hop["source"],
            target=hop["target"],
            weight=int(hop["weight"] or 0),
            papers=[PathPaper.from_record(p) for p in hop["papers"]],
        )
