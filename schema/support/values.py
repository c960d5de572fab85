"""Small value types shared by several object types: per-source counts and identities."""

from __future__ import annotations

from typing import Any

import strawberry

from weft.graph.sources import SOURCE_KEYS, record_url


@strawberry.type(description="A number as one source reports it.")
class SourceCount:
    source: str = strawberry.field(description="The source: `openalex`, `s2` or `arxiv`.")
    value: int = strawberry.field(description="The number that source reports.")


@strawberry.type(description="A node's id at one source, with a link there.")
class Identity:
    source: str = strawberry.field(
        description="The source or registry: `openalex`, `s2`, `orcid`, `ror`, `doi`, `arxiv`."
    )
    id: str = strawberry.field(description="The id at that source.")
    url: str | None = strawberry.field(description="The node's page at that source.")


def source_counts(props: dict[str, Any], prefix: str) -> list[SourceCount]:
    """`[SourceCount]` from properties `<prefix>_<source>` that are set, e.g. `works_count_openalex`."""
    return [
        SourceCount(source=source, value=int(props[f"{prefix}_{source}"]))
        for source in SOURCE_KEYS
        if props.get(f"{prefix}_{source}") is not None
    ]


def identities(label: str, pairs: list[tuple[str, object]]) -> list[Identity]:
    """Identities for the (source, id) pairs that are set, with the source's URL where known."""
    out: list[Identity] = []
    for source, value in pairs:
        if value is None or value == "":
            continue
        out.append(Identity(source=source, id=str(value), url=record_url(label, source, str(value))))
    return out
