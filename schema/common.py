"""Small value types shared by several object types: page info, per-source counts, identities."""

from __future__ import annotations

from typing import Generic, TypeVar

import strawberry

from weft.graph.sources import SOURCE_KEYS, record_url
from weft.schema.paging import Window, encode_cursor

NodeT = TypeVar("NodeT")


@strawberry.type(description="Relay page information.")
class PageInfo:
    has_next_page: bool = strawberry.field(description="True when items follow this page.")
    has_previous_page: bool = strawberry.field(description="True when items precede this page.")
    start_cursor: str | None = strawberry.field(description="Cursor of the first item on this page.")
    end_cursor: str | None = strawberry.field(description="Cursor of the last item on this page.")


@strawberry.type(description="One item of a connection with its opaque cursor.")
class Edge(Generic[NodeT]):
    cursor: str = strawberry.field(description="Opaque cursor; pass it as `after` to continue.")
    node: NodeT = strawberry.field(description="The item.")


@strawberry.type(description="A Relay connection: a page of items, paging information and the total.")
class Connection(Generic[NodeT]):
    edges: list[Edge[NodeT]] = strawberry.field(description="The items on this page, in order.")
    page_info: PageInfo = strawberry.field(description="Where this page sits in the whole list.")
    total_count: int = strawberry.field(description="How many items the whole list has.")

    @classmethod
    def build(cls, nodes: list[NodeT], total: int, page: Window) -> Connection[NodeT]:
        """A connection of `nodes`, the items at `page.skip...` of a list of `total` items."""
        edges = [Edge(cursor=encode_cursor(page.skip + k), node=n) for k, n in enumerate(nodes)]
        return cls(
            edges=edges,
            page_info=PageInfo(
                has_next_page=page.skip + len(nodes) < total,
                has_previous_page=page.skip > 0,
                start_cursor=edges[0].cursor if edges else None,
                end_cursor=edges[-1].cursor if edges else None,
            ),
            total_count=total,
        )


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


def source_counts(props: dict, prefix: str) -> list[SourceCount]:
    """`[SourceCount]` from properties `<prefix>_<source>` that are set, e.g. `works_count_openalex`."""
    return [
        SourceCount(source=source, value=int(props[f"{prefix}_{source}"]))
        for source in SOURCE_KEYS
        if props.get(f"{prefix}_{source}") is not None
    ]


def identities(label: str, pairs: list[tuple[str, object]]) -> list[Identity]:
    """Identities for the (source, id) pairs that are set, with the source's URL where known."""
    out = []
    for source, value in pairs:
        if value is None or value == "":
            continue
        out.append(Identity(source=source, id=str(value), url=record_url(label, source, str(value))))
    return out
