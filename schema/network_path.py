"""`CollaborationPath` and `CollaborationPathResult`: co-authorship chains between two researchers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import strawberry

from weft.graph.network_paths import PathResult


@strawberry.type(description="A researcher on a path.")
class PathResearcher:
    id: str = strawberry.field(description="Internal id.")
    name: str | None = strawberry.field(description="Display name.")


@strawberry.type(description="A paper linking two researchers on a path.")
class PathPaper:
    id: str = strawberry.field(description="The paper's internal id.")
    title: str | None = strawberry.field(description="Title.")
    year: int | None = strawberry.field(description="Publication year.")


@strawberry.type(description="One hop of a path: two co-authors and the papers they share.")
class PathHop:
    source: str = strawberry.field(description="Id of the researcher nearer the start.")
    target: str = strawberry.field(description="Id of the researcher nearer the end.")
    weight: int = strawberry.field(description="Shared papers (the tie's weight).")
    papers: list[PathPaper] = strawberry.field(description="The shared papers, newest first.")


@strawberry.type(description="A co-authorship chain from one researcher to another.")
class CollaborationPath:
    length: int = strawberry.field(description="Number of hops.")
    researchers: list[PathResearcher] = strawberry.field(description="From the start to the end.")
    hops: list[PathHop] = strawberry.field(description="One per consecutive pair of researchers.")

    @classmethod
    def from_record(cls, path: Mapping[str, Any]) -> CollaborationPath:
        return cls(
            length=len(path["hops"]),
            researchers=[PathResearcher(id=n["id"], name=n.get("name")) for n in path["nodes"]],
            hops=[
                PathHop(
                    source=h["source"],
                    target=h["target"],
                    weight=int(h["weight"] or 0),
                    papers=[PathPaper(id=p["id"], title=p.get("title"), year=p.get("year")) for p in h["papers"]],
                )
                for h in path["hops"]
            ],
        )


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
            source=PathResearcher(id=result.source["id"], name=result.source.get("name")),
            target=PathResearcher(id=result.target["id"], name=result.target.get("name")),
            path=paths[0] if paths else None,
            all_shortest_paths=paths,
            reason=result.reason,
        )
