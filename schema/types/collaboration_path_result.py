"""`CollaborationPathResult`: the shortest co-authorship paths between two researchers, or why there are none."""

from __future__ import annotations

import strawberry

from weft.graph.network_paths import PathResult
from weft.schema.types.collaboration_path import CollaborationPath
from weft.schema.types.path_researcher import PathResearcher


@strawberry.type(
    description="The shortest co-authorship paths between two researchers; `path` is null and "
    "`reason` says why when none is within maxLength."
)
class CollaborationPathResult:
    source: PathResearcher = strawberry.field(description="The start researcher.")
    target: PathResearcher = strawberry.field(description="The end researcher.")
    path: CollaborationPath | None = strawberry.field(
        description="A shortest path (the strongest: largest weakest hop, then largest total weight)."
    )
    all_shortest_paths: list[CollaborationPath] = strawberry.field(
        description="Every shortest path, up to maxPaths, strongest first."
    )
    reason: str | None = strawberry.field(description="Why there is no path; null when there is one.")

    @classmethod
    def from_record(cls, result: PathResult) -> CollaborationPathResult:
        paths = [CollaborationPath.from_record(p) for p in result.paths]
        return cls(
            source=PathResearcher.from_record(result.source),
            target=PathResearcher.from_record(result.target),
            path=paths[0] if paths else None,
            all_shortest_paths=paths,
            reason=result.reason,
        )
